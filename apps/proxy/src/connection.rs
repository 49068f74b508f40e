//! One client connection and its upstream connection: requests flow one way and
//! responses the other, each frame verified on the way and forwarded in order.
//!
//! The bytes forwarded are the bytes received, except for responses whose broker
//! addresses are rewritten: a frame the proxy cannot read, or whose re-encoding it
//! does not trust, still goes through as it came, so that verification never breaks
//! traffic.
//!
//! Before forwarding starts, in order: the client's TLS handshake
//! (`--tls-cert`), the client's login at the proxy (`--sasl-user`,
//! `terminate.rs`), the upstream connection and its TLS handshake
//! (`--upstream-tls-ca`), and the proxy's own login upstream (`--upstream-sasl`,
//! `login.rs`). A client that has not logged in costs the proxy no upstream
//! connection until it asks ApiVersions, and never the proxy's login: strangers
//! cannot make the proxy work, or hold connections to the broker, in its name.
//! Each step is bounded in time, and any failure closes both connections with
//! the reason logged.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use kwire::KafkaString;
use kwire_messages::frame::RequestFrame;
use kwire_messages::{frame, ApiKey, Request};
use kwire_net::server::{ConnectionSlot, Frame, FrameReader, ServerError};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::{timeout, Instant};
use tracing::{debug, info, warn};

use crate::error::{chain, ProxyError};
use crate::in_flight::{Answer, InFlight, Origin, Pending};
use crate::io::{self, Reader, Writer};
use crate::listener::Proxy;
use crate::login::{self, Exchange, OwnIds, Session, Step};
use crate::passthrough::RawTokens;
use crate::rewrite;
use crate::routes::{self, BrokerAddress};
use crate::stats::{api_name, ApiCounts};
use crate::terminate;
use crate::verify::{self, hex, DecodedRequest, DecodedResponse, Verdict};

/// How long to wait for the upstream broker to accept the connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// After a client closes its side, how long responses still in flight are awaited
/// before the pair is closed anyway.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);

/// How much of a frame a mismatch's debug log shows as hex.
const HEX_LOG_LIMIT: usize = 4096;

/// Forwards between `client` and a new connection to `upstream` until either side
/// closes or fails; then both are closed (by dropping them).
///
/// `slot` is the client's place under the connection limits; it is freed when this
/// returns.
pub async fn run(
    client: TcpStream,
    slot: ConnectionSlot,
    upstream: BrokerAddress,
    proxy: Arc<Proxy>,
) {
    // Kafka is request and response: Nagle's algorithm would hold small frames back
    // waiting for an acknowledgement that only the answer brings.
    if let Err(error) = client.set_nodelay(true) {
        debug!("cannot set TCP_NODELAY: {error}");
    }
    // First, so that a client that cannot finish its handshake costs no upstream
    // connection.
    let Some((client_read, mut to_client)) = accept(client, &slot, &proxy).await else {
        return;
    };
    // The client's idle time runs from here: connecting upstream is the proxy's
    // wait, and with a thousand clients arriving at once it takes seconds.
    let accepted = tokio::time::Instant::now();
    let limits = &proxy.limits;
    let mut client_frames = match &proxy.security.client_sasl {
        // Held to sasl.server.max.receive.size, and paid for by no budget,
        // until the client has logged in.
        Some(_) => limits.clients.authenticating_reader(client_read, slot),
        None => limits.clients.reader(client_read, slot),
    }
    .with_idle_since(accepted);

    // With SASL terminated here, the client logs in before the proxy does any
    // work for it: no upstream connection until it asks ApiVersions (or has
    // logged in), and the proxy's own login upstream only once it has.
    let (mut opened, mut answered) = (None, None);
    if let Some(sasl) = &proxy.security.client_sasl {
        let sides = terminate::Sides {
            client: &mut client_frames,
            to_client: &mut to_client,
            upstream: &mut opened,
            answered: &mut answered,
            address: &upstream,
        };
        match terminate::authenticate(sasl, sides, &proxy).await {
            Ok(Some(principal)) => debug!(principal, "client authenticated"),
            Ok(None) => {
                debug!("client closed before authenticating");
                return;
            }
            Err(error @ ProxyError::Unauthenticated(_)) => {
                info!("closing the client: {}", chain(&error));
                return;
            }
            Err(error) => {
                log_end(CLIENT_TO_BROKER, Err(error));
                return;
            }
        }
    }
    // Returning drops the client, which closes it: without a broker there is
    // nothing to forward to.
    let (mut server_frames, mut to_server) = match opened {
        Some(upstream) => upstream,
        None => match open_upstream(&upstream, &proxy).await {
            Ok(upstream) => upstream,
            Err(error) => {
                warn!("cannot connect upstream: {}", chain(&error));
                return;
            }
        },
    };
    debug!("connected");

    let session = match &proxy.security.upstream_login {
        None => None,
        Some(login) => {
            let timeout = limits.request_timeout;
            let answered = answered.as_ref();
            let opening =
                Session::open(&mut server_frames, &mut to_server, login, answered, timeout);
            match opening.await {
                Ok(session) => {
                    match session.logged_in.session_lifetime {
                        Some(lifetime) => debug!(
                            user = login.username(),
                            "logged in upstream; the session lasts {lifetime:?}, logging in \
                             again before it ends"
                        ),
                        None => debug!(user = login.username(), "logged in upstream"),
                    }
                    Some(session)
                }
                Err(error) => {
                    warn!(
                        user = login.username(),
                        "closing the client: cannot log in upstream: {}",
                        chain(&error)
                    );
                    return;
                }
            }
        }
    };

    let in_flight = Mutex::new(InFlight::default());
    // The proxy's own answers, from the response side to the request side that
    // awaits them; one at a time, as the login sends one request at a time.
    let (own_answers, answers) = mpsc::channel(1);
    let relogin = session.map(|session| Relogin {
        session,
        answers,
        ids: OwnIds::default(),
    });
    let own = relogin.is_some().then_some(own_answers);
    let requests = forward_requests(client_frames, to_server, &proxy, &in_flight, relogin);
    let responses = forward_responses(server_frames, to_client, &proxy, &in_flight, own);
    let watchdog = request_timeout(&proxy, &in_flight);
    tokio::pin!(requests, responses);

    tokio::select! {
        end = &mut requests => match end {
            // The client closed its side, and the broker has been told. Kafka
            // clients wait for nothing after that, but one could: let the answers
            // to requests already sent through.
            Ok(()) if lock(&in_flight).is_empty() => debug!("client closed"),
            Ok(()) => {
                let waiting = lock(&in_flight).len();
                debug!(waiting, "client closed its side; forwarding the responses in flight");
                match timeout(DRAIN_TIMEOUT, responses).await {
                    Ok(end) => log_end(BROKER_TO_CLIENT, end),
                    Err(_) => info!("responses in flight not all answered in {DRAIN_TIMEOUT:?}"),
                }
            }
            Err(error) => log_end(CLIENT_TO_BROKER, Err(error)),
        },
        end = &mut responses => log_end(BROKER_TO_CLIENT, end),
        // Closing is the clean end: a Kafka client whose request times out closes
        // the connection itself and retries elsewhere, and a generic error answer
        // would need each API's own error layout.
        error = watchdog => warn!("closing the client: {}", chain(&error)),
    }
}

/// The upstream side of a pair: its frames (paid for from the response budget,
/// each at most `--response-max-bytes`) and its writing half.
pub type Upstream = (FrameReader<Reader>, Writer);

/// Connects to `upstream` (over TLS if configured) and reads its frames within the
/// proxy's limits on responses.
pub async fn open_upstream(
    upstream: &BrokerAddress,
    proxy: &Proxy,
) -> Result<Upstream, ProxyError> {
    let (server_read, to_server) = connect(upstream, proxy).await?;
    let limits = &proxy.limits;
    let frames = FrameReader::new(server_read, limits.clients.responses.clone())
        .with_max_frame_size(limits.max_response_frame);
    Ok((frames, to_server))
}

/// The client's halves, after its TLS handshake if the listeners speak TLS;
/// `None` (logged) when the handshake fails, times out, or the client is
/// evicted meanwhile: a handshake holds a connection slot like any client, so
/// that one that never finishes is bounded by the handshake timeout and can be
/// evicted.
async fn accept(
    client: TcpStream,
    slot: &ConnectionSlot,
    proxy: &Proxy,
) -> Option<(Reader, Writer)> {
    let Some(tls) = &proxy.security.client_tls else {
        return Some(io::split_tcp(client));
    };
    tokio::select! {
        accepted = tls.accept(client) => match accepted {
            Ok(stream) => Some(io::split(stream)),
            // A client that does not trust the certificate, or speaks no TLS: its
            // business, not the proxy's trouble.
            Err(error) => {
                info!("TLS handshake failed: {error}");
                None
            }
        },
        () = slot.evicted() => {
            debug!("evicted during the TLS handshake");
            None
        }
    }
}

/// Opens the connection to `upstream`, over TLS if configured (the broker's
/// certificate verified against the CA and the server name).
async fn connect(upstream: &BrokerAddress, proxy: &Proxy) -> Result<(Reader, Writer), ProxyError> {
    let connect = TcpStream::connect((upstream.host(), upstream.port()));
    let server = timeout(CONNECT_TIMEOUT, connect)
        .await
        .map_err(|_| ProxyError::ConnectTimeout)??;
    if let Err(error) = server.set_nodelay(true) {
        debug!("cannot set TCP_NODELAY: {error}");
    }
    match &proxy.security.upstream_tls {
        None => Ok(io::split_tcp(server)),
        Some(tls) => {
            let stream = tls
                .client
                .connect(tls.server_name(upstream), server)
                .await?;
            Ok(io::split(stream))
        }
    }
}

/// Logging in upstream again before the session ends (KIP-368), between the
/// client's requests.
struct Relogin<'a> {
    session: Session<'a>,
    /// The upstream's answers to the proxy's own requests.
    answers: mpsc::Receiver<Frame>,
    /// Negative, like the first login's: never a client's.
    ids: OwnIds,
}

impl Relogin<'_> {
    /// Runs the exchange again. The client's frames wait meanwhile (Kafka's
    /// broker takes no other request in the middle of one); the answers to its
    /// requests in flight still go through, in order, before the proxy's own.
    async fn run(
        &mut self,
        to: &mut Writer,
        in_flight: &Mutex<InFlight>,
    ) -> Result<(), ProxyError> {
        let session = &self.session;
        let (mut exchange, mut step) = Exchange::log_in_again(session.login, session.logged_in)?;
        loop {
            let (request, version) = match step {
                Step::Send(request, version) => (request, version),
                Step::Done(logged_in) => {
                    self.session.renewed(logged_in);
                    return Ok(());
                }
            };
            let (api, id) = (request.api(), self.ids.next_id());
            let bytes = login::encode(&request, version, id)?;
            lock(in_flight).push(Pending {
                correlation_id: id,
                api_key: api.key(),
                version,
                answer: Answer::Expected,
                sent: Instant::now(),
                waits: Duration::ZERO,
                origin: Origin::Proxy,
            });
            io::write_frame(to, &bytes).await?;
            // The request timeout's watchdog bounds this wait, as any request's.
            let answer = self
                .answers
                .recv()
                .await
                .ok_or(ProxyError::UpstreamClosed)?;
            step = exchange.on_response(login::read(&answer, api, version, id)?)?;
        }
    }
}

/// Completes at `due`; never without one.
async fn until(due: Option<Instant>) {
    match due {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Completes when the oldest request sure to be answered has waited longer than
/// the request timeout plus what the broker may rightly wait for it (checked ten times per timeout, at most once per second,
/// at least every 10 ms).
async fn request_timeout(proxy: &Proxy, in_flight: &Mutex<InFlight>) -> ProxyError {
    let timeout = proxy.limits.request_timeout;
    let every = (timeout / 10).clamp(Duration::from_millis(10), Duration::from_secs(1));
    loop {
        tokio::time::sleep(every).await;
        let overdue = lock(in_flight)
            .oldest_expected()
            .filter(|pending| pending.sent.elapsed() > timeout + pending.waits)
            .map(|pending| (pending.api_key, pending.correlation_id));
        if let Some((key, correlation_id)) = overdue {
            return ProxyError::UpstreamTimeout {
                api: api_name(key),
                correlation_id,
                timeout,
            };
        }
    }
}

/// One direction of a pair: who sends, who receives.
type Direction = (&'static str, &'static str);
const CLIENT_TO_BROKER: Direction = ("client", "broker");
const BROKER_TO_CLIENT: Direction = ("broker", "client");

/// Logs how one direction ended: a bad frame is the sender's fault and worth a
/// warning; a socket error on either end is routine (resets happen).
fn log_end((from, to): Direction, end: Result<(), ProxyError>) {
    match end {
        Ok(()) => debug!("{from} closed"),
        Err(error @ ProxyError::BadFrame(_)) => {
            warn!("{from} sent a bad frame, closing: {}", chain(&error));
        }
        // The limits doing their job.
        Err(ProxyError::Frame(error @ (ServerError::Idle(_) | ServerError::Evicted))) => {
            debug!("closing: {error}");
        }
        Err(error) => info!(
            "forwarding {from} -> {to} failed, closing: {}",
            chain(&error)
        ),
    }
}

/// A poisoned lock means a panic elsewhere; the queue itself is still consistent
/// (every update is one call), so carry on rather than panic here too.
fn lock(in_flight: &Mutex<InFlight>) -> MutexGuard<'_, InFlight> {
    in_flight.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Client → broker: splits the client's stream into request frames, reads each,
/// records it as in flight, forwards it unchanged, and queues its check.
///
/// The reader holds the client to `--socket-request-max-bytes` (a negative or
/// larger prefix ends this connection, and only this one), pays for each frame
/// from the request budget until it is written upstream and checked, and ends the
/// connection when idle or evicted.
///
/// SASL: passed through (no `--sasl-user`), bare tokens after a SaslHandshake v0
/// go as bytes (`passthrough.rs`); terminated here, the client has logged in
/// already and any SASL request closes it rather than reach the broker. With
/// `relogin`, the proxy logs in upstream again when its session nears its end.
async fn forward_requests(
    mut from: FrameReader<Reader>,
    mut to: Writer,
    proxy: &Arc<Proxy>,
    in_flight: &Mutex<InFlight>,
    mut relogin: Option<Relogin<'_>>,
) -> Result<(), ProxyError> {
    let terminated = proxy.security.client_sasl.is_some();
    let mut raw = (!terminated).then(RawTokens::default);
    loop {
        let due = relogin.as_ref().and_then(|relogin| relogin.session.due);
        let frame = tokio::select! {
            // A session past its time first: a request sent on it would get the
            // connection closed.
            biased;
            () = until(due) => {
                if let Some(relogin) = relogin.as_mut() {
                    relogin.run(&mut to, in_flight).await?;
                }
                continue;
            }
            next = io::next_frame(&mut from, "client") => match next? {
                Some(frame) => frame,
                None => break,
            },
        };
        if raw.as_mut().is_some_and(|raw| raw.is_token(&frame)) {
            proxy.stats.count_raw_token(frame.len());
            // Answered by one bare token, which has no correlation id: the
            // response side takes it by its place in the queue.
            lock(in_flight).push(Pending {
                correlation_id: 0,
                api_key: ApiKey::SaslHandshake.key(),
                version: 0,
                answer: Answer::Expected,
                sent: Instant::now(),
                waits: Duration::ZERO,
                origin: Origin::RawToken,
            });
            io::write_frame(&mut to, &frame).await?;
            continue;
        }
        if terminated {
            refuse_sasl(&frame)?;
        }
        let read = on_request(&frame, proxy, in_flight);
        if let (Some(raw), Some(decoded)) = (raw.as_mut(), &read) {
            raw.after_request(&decoded.body, decoded.header.request_api_version);
        }
        io::write_frame(&mut to, &frame).await?;
        if let Some(decoded) = read {
            let shared = Arc::clone(proxy);
            let bytes = frame.len();
            let check = move || check_request(&frame, &decoded, &shared);
            proxy.verify_queue.submit(bytes, check).await;
        }
    }
    // Pass the end of the requests on, as the client meant it.
    to.shutdown().await?;
    Ok(())
}

/// With SASL terminated at the proxy, a SASL request after logging in: it must
/// not reach the broker (whose session is the proxy's), and the proxy asked for
/// no re-authentication (its answers carry no session lifetime), so no client
/// of Kafka's sends one.
fn refuse_sasl(frame: &Bytes) -> Result<(), ProxyError> {
    let key = frame
        .get(4..6)
        .and_then(|b| <[u8; 2]>::try_from(b).ok())
        .map(i16::from_be_bytes);
    match key {
        Some(key)
            if key == ApiKey::SaslHandshake.key() || key == ApiKey::SaslAuthenticate.key() =>
        {
            Err(ProxyError::Unauthenticated(format!(
                "{} after logging in: the proxy offers no re-authentication",
                api_name(key)
            )))
        }
        _ => Ok(()),
    }
}

/// Reads one request frame and records it as awaiting a response unless it gets
/// none; returns what the check needs, or `None` when the frame was counted
/// already (it did not decode).
fn on_request(frame: &Bytes, proxy: &Proxy, in_flight: &Mutex<InFlight>) -> Option<DecodedRequest> {
    let parsed = match RequestFrame::parse(frame) {
        Ok(parsed) => parsed,
        Err(error) => {
            // Not even a header: there is no correlation id to await an answer for.
            // Count it under the key its first bytes name (-1 if too short).
            let key = frame
                .get(4..6)
                .and_then(|b| <[u8; 2]>::try_from(b).ok())
                .map_or(-1, i16::from_be_bytes);
            warn!(
                api = api_name(key),
                key,
                "request header does not decode (forwarded as is): {}",
                chain(&error)
            );
            debug!(original = %hex(frame, HEX_LOG_LIMIT), "request frame");
            count_undecodable(proxy, key, ApiCounts::request(frame.len()));
            return None;
        }
    };
    let (key, version, correlation_id) = (
        parsed.api_key(),
        parsed.api_version(),
        parsed.correlation_id(),
    );
    let read = verify::read_request(&parsed);
    let (answer, waits) = match &read {
        // acks = 0: the broker answers nothing.
        Ok(decoded) => match &decoded.body {
            Request::Produce(produce) if produce.acks == 0 => (None, Duration::ZERO),
            body => (Some(Answer::Expected), broker_wait(body)),
        },
        Err(_) if key == ApiKey::Produce.key() => (Some(Answer::Unknown), Duration::ZERO),
        Err(_) => (Some(Answer::Expected), Duration::ZERO),
    };
    if let Some(answer) = answer {
        lock(in_flight).push(Pending {
            correlation_id,
            api_key: key,
            version,
            answer,
            sent: Instant::now(),
            waits,
            origin: Origin::Client,
        });
    }
    match read {
        Ok(decoded) => Some(decoded),
        Err(why) => {
            count_unread_request(proxy, frame, (key, version, correlation_id), &why);
            None
        }
    }
}

/// Logs and counts a request frame that did not decode. An ApiVersions at a
/// version newer than ours is the protocol working, not a failure: a client asks
/// at the newest it knows, and the broker answers with Kafka's v0 fallback
/// (KIP-511) if that is newer than its own too; the answer is read either way.
pub fn count_unread_request(
    proxy: &Proxy,
    frame: &Bytes,
    (key, version, correlation_id): (i16, i16, i32),
    why: &str,
) {
    let newer = ApiKey::ApiVersions
        .stable_versions()
        .is_some_and(|(_, max)| key == ApiKey::ApiVersions.key() && version > max);
    if newer {
        debug!(
            correlation_id,
            version, "ApiVersions newer than ours (forwarded as is): {why}"
        );
        proxy
            .stats
            .count(key, |total| total.add(&ApiCounts::request(frame.len())));
        return;
    }
    warn!(
        correlation_id,
        api = api_name(key),
        version,
        bytes = frame.len(),
        "request does not decode (forwarded as is): {why}"
    );
    log_hex(frame, None);
    count_undecodable(proxy, key, ApiCounts::request(frame.len()));
}

/// Counts a frame that did not decode.
pub fn count_undecodable(proxy: &Proxy, key: i16, mut counts: ApiCounts) {
    counts.decode_failures = 1;
    proxy.stats.count(key, |total| total.add(&counts));
}

/// Logs a frame whose re-encoding reads back differently, and counts it as a
/// mismatch in `counts`.
pub fn mismatch(
    (what, api, version, correlation_id): (&str, &str, i16, i32),
    frame: &Bytes,
    why: &str,
    reencoded: Option<&Bytes>,
    counts: &mut ApiCounts,
) {
    counts.mismatches = 1;
    let bytes = frame.len();
    warn!(
        correlation_id,
        api, version, bytes, "{what} mismatch: {why}"
    );
    log_hex(frame, reencoded);
}

/// Checks a forwarded request's re-encoding, then logs and counts it.
pub fn check_request(frame: &Bytes, decoded: &DecodedRequest, proxy: &Proxy) {
    let bytes = frame.len();
    let header = &decoded.header;
    let (key, version, correlation_id) = (
        header.request_api_key,
        header.request_api_version,
        header.correlation_id,
    );
    let api = api_name(key);
    let mut counts = ApiCounts::request(bytes);
    match verify::check_request(frame, decoded) {
        Verdict::Verified { canonical } => {
            debug!(
                correlation_id,
                api,
                version,
                bytes,
                ignored = decoded.ignored,
                canonical,
                "request"
            );
        }
        Verdict::Mismatch { why, reencoded } => {
            let id = ("request", api, version, correlation_id);
            mismatch(id, frame, &why, reencoded.as_ref(), &mut counts);
        }
    }
    proxy.stats.count(key, |total| total.add(&counts));
}

/// How long the broker may rightly hold a request before answering, on top of the
/// request timeout: as Kafka's clients do, a JoinGroup may wait for the whole
/// rebalance, a Fetch for its max wait, a Produce for its replication timeout.
fn broker_wait(request: &Request) -> Duration {
    let ms = match request {
        Request::JoinGroup(join) => join.rebalance_timeout_ms.max(join.session_timeout_ms),
        Request::Fetch(fetch) => fetch.max_wait_ms,
        Request::Produce(produce) => produce.timeout_ms,
        _ => 0,
    };
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// Broker → client: splits the broker's stream into response frames, reads each by
/// its request's API and version, rewrites broker addresses, forwards it, and
/// checks it (after forwarding, unless it carries addresses).
///
/// Each response is paid for from the response budget until it is written to the
/// client and checked, and may be at most `--response-max-bytes`: a broken or
/// hostile broker cannot make the proxy buffer without bound. No idle timeout: a
/// broker is silent whenever no request is in flight; the request timeout watches
/// for a hung one.
///
/// A bare SASL token answering the client's goes through unread; an answer to
/// the proxy's own request goes to `own`, not to the client.
async fn forward_responses(
    mut from: FrameReader<Reader>,
    mut to: Writer,
    proxy: &Arc<Proxy>,
    in_flight: &Mutex<InFlight>,
    own: Option<mpsc::Sender<Frame>>,
) -> Result<(), ProxyError> {
    loop {
        let Some(frame) = io::next_frame(&mut from, "upstream").await? else {
            return Ok(());
        };
        if lock(in_flight).answer_raw_token().is_some() {
            proxy.stats.count_raw_token(frame.len());
            io::write_frame(&mut to, &frame).await?;
            continue;
        }
        match on_response(frame.bytes(), proxy, in_flight).await {
            Forward::Checked(out) => io::write_frame(&mut to, &out).await?,
            Forward::CheckAfter(decoded, version) => {
                io::write_frame(&mut to, &frame).await?;
                let shared = Arc::clone(proxy);
                // The budget is given back once the check is done.
                let bytes = frame.bytes().len();
                let check = move || check_response(frame.bytes(), version, &decoded, &shared);
                proxy.verify_queue.submit(bytes, check).await;
            }
            Forward::Proxy => match &own {
                // Gone only when the request side has ended: nobody awaits it.
                Some(own) => {
                    let _ = own.send(frame).await;
                }
                None => warn!("an answer to the proxy's own request, and none was sent"),
            },
        }
    }
}

/// What to do with a response frame.
enum Forward {
    /// Send these bytes (the original, or one with addresses rewritten); the frame
    /// was checked and counted.
    Checked(Bytes),
    /// Send the original, then check it (read at the request's version, given).
    CheckAfter(Box<DecodedResponse>, i16),
    /// The answer to the proxy's own request: not the client's.
    Proxy,
}

/// Reads one response frame. A response that carries broker addresses is checked
/// now, since its rewriting trusts the re-encoding; any other goes through as it
/// came and is checked after.
async fn on_response(frame: &Bytes, proxy: &Arc<Proxy>, in_flight: &Mutex<InFlight>) -> Forward {
    let bytes = frame.len();
    let unread = Forward::Checked(frame.clone());
    let correlation_id = match frame::response_correlation_id(frame) {
        Ok(correlation_id) => correlation_id,
        Err(error) => {
            warn!(
                "response too short to have a correlation id: {}",
                chain(&error)
            );
            proxy.stats.count_unmatched();
            return unread;
        }
    };
    let answered = lock(in_flight).answer(correlation_id);
    let Some(pending) = answered else {
        warn!(
            correlation_id,
            bytes, "response answers no request in flight (forwarded unread)"
        );
        proxy.stats.count_unmatched();
        return unread;
    };
    if pending.origin == Origin::Proxy {
        return Forward::Proxy;
    }
    let (key, version) = (pending.api_key, pending.version);
    let api = api_name(key);
    let mut counts = ApiCounts::response(bytes);
    let mut decoded = match verify::read_response(frame, key, version) {
        Ok(decoded) => decoded,
        Err(why) => {
            warn!(
                correlation_id,
                api, version, bytes, "response does not decode (forwarded as is): {why}"
            );
            log_hex(frame, None);
            count_undecodable(proxy, key, counts);
            return unread;
        }
    };
    if rewrite::endpoints(&mut decoded.body, decoded.version).is_empty() {
        return Forward::CheckAfter(Box::new(decoded), version);
    }
    let out = match verify::check_response(frame, &decoded) {
        Verdict::Verified { canonical } => {
            let read_at = decoded.version;
            let rewritten = match rewrite_addresses(decoded, proxy).await {
                Ok(rewritten) => rewritten,
                Err(error) => {
                    warn!(
                        correlation_id,
                        api,
                        version,
                        "cannot rewrite broker addresses (forwarded as is): {}",
                        chain(&error)
                    );
                    None
                }
            };
            debug!(
                correlation_id,
                api,
                version,
                read_at,
                bytes,
                canonical,
                rewritten = rewritten.is_some(),
                "response"
            );
            match rewritten {
                Some(rewritten) => {
                    counts.rewrites = 1;
                    rewritten
                }
                None => frame.clone(),
            }
        }
        Verdict::Mismatch { why, reencoded } => {
            let id = ("response", api, version, correlation_id);
            mismatch(id, frame, &why, reencoded.as_ref(), &mut counts);
            // The re-encoding is what failed, so a rewritten frame cannot be
            // trusted either: the client gets the broker's own addresses.
            warn!(
                api,
                version, "broker addresses not rewritten: the client may bypass the proxy"
            );
            frame.clone()
        }
    };
    proxy.stats.count(key, |total| total.add(&counts));
    Forward::Checked(out)
}

/// Checks a forwarded response that carried no broker address, then logs and
/// counts it.
fn check_response(frame: &Bytes, version: i16, decoded: &DecodedResponse, proxy: &Proxy) {
    let bytes = frame.len();
    let key = decoded.body.api().key();
    let (correlation_id, read_at) = (decoded.header.correlation_id, decoded.version);
    let api = api_name(key);
    let mut counts = ApiCounts::response(bytes);
    match verify::check_response(frame, decoded) {
        Verdict::Verified { canonical } => {
            debug!(
                correlation_id,
                api, version, read_at, bytes, canonical, "response"
            );
        }
        Verdict::Mismatch { why, reencoded } => {
            let id = ("response", api, version, correlation_id);
            mismatch(id, frame, &why, reencoded.as_ref(), &mut counts);
        }
    }
    proxy.stats.count(key, |total| total.add(&counts));
}

/// The original frame (and the re-encoded one) in hex at debug level: enough to
/// reproduce a mismatch or a decode failure without a packet capture.
pub fn log_hex(original: &Bytes, reencoded: Option<&Bytes>) {
    debug!(original = %hex(original, HEX_LOG_LIMIT), "frame as received");
    if let Some(reencoded) = reencoded {
        debug!(reencoded = %hex(reencoded, HEX_LOG_LIMIT), "frame as re-encoded");
    }
}

/// Points every broker address in `decoded` at the local listener for that broker
/// (opening listeners as needed); returns the re-encoded frame, or `None` when no
/// address changed (the original bytes then go through).
async fn rewrite_addresses(
    mut decoded: DecodedResponse,
    proxy: &Arc<Proxy>,
) -> Result<Option<Bytes>, ProxyError> {
    let mut changed = false;
    for mut endpoint in rewrite::endpoints(&mut decoded.body, decoded.version) {
        let upstream = match BrokerAddress::new(endpoint.host(), endpoint.port()) {
            Ok(upstream) => upstream,
            Err(error) => {
                // Not connectable through the proxy or otherwise; leave it as the
                // broker wrote it and rewrite the rest.
                warn!(host = %endpoint.host(), "broker address left as is: {}", chain(&error));
                continue;
            }
        };
        let local = routes::local_for(proxy, &upstream).await?;
        let host = KafkaString::from(local.ip().to_string());
        changed |= endpoint.point_at(host, local.port());
    }
    if !changed {
        return Ok(None);
    }
    // Same header, same version: only the addresses differ from what came in.
    let rewritten = frame::encode_any_response(&decoded.header, &decoded.body, decoded.version)?;
    Ok(Some(rewritten))
}
