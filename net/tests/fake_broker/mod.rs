//! A broker played by the tests over any stream: ApiVersions (with or without
//! the fallback), SASL through kwire-net's own gate, and Heartbeat, LeaveGroup and
//! SyncGroup put to work to answer late, close, or answer no request.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use kwire_messages::api::api_versions::ApiVersion;
use kwire_messages::api::{ApiVersionsResponse, HeartbeatRequest, HeartbeatResponse};
use kwire_messages::frame::{self, RequestFrame, TrailingBytes};
use kwire_messages::{ApiKey, ErrorCode, Listener, Request, Response, ResponseHeader};
use kwire_net::negotiation::answer_api_versions;
use kwire_net::sasl::{Gate, Mechanism, ServerAuthenticator, Users};
use kwire_net::splitter::FrameSplitter;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// How the broker played here behaves.
#[derive(Clone, Default)]
pub struct Broker {
    /// The highest ApiVersions version it knows (`None`: all of ours).
    pub api_versions_max: Option<i16>,
    /// APIs it leaves out of its ApiVersions answer.
    pub hidden: Vec<ApiKey>,
    /// SASL: the users, and the session lifetime it grants.
    pub sasl: Option<(Arc<Users>, Option<Duration>)>,
    /// Successful logins, counted.
    pub logins: Arc<AtomicUsize>,
    /// The versions ApiVersions was asked at, in order.
    pub asked: Arc<std::sync::Mutex<Vec<i16>>>,
    /// Produce requests with `acks = 0` read, counted (never answered, as Kafka
    /// answers none).
    pub unanswered_produces: Arc<AtomicUsize>,
    /// How long each SaslAuthenticate answer takes to leave, once the exchange
    /// step (and with the last one the session's clock) is done: a slow link.
    pub sasl_answer_delay: Option<Duration>,
}

impl Broker {
    /// Plays the broker on `stream` until the client goes.
    ///
    /// Heartbeat: answered after `generation_id` ms (never, if negative), with
    /// `error_code` set to `generation_id`'s last two digits, so that each caller
    /// can tell its own answer. LeaveGroup: the broker closes the connection.
    /// SyncGroup: answered under a correlation id no request has. Produce with
    /// `acks = 0`: counted, not answered.
    pub async fn serve<S: AsyncRead + AsyncWrite + Send + 'static>(self, stream: S) {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
        let (mut reads, mut writes) = tokio::io::split(stream);
        let writer = tokio::spawn(async move {
            while let Some(frame) = rx.recv().await {
                if writes.write_all(&frame).await.is_err() {
                    return;
                }
            }
        });
        let mut gate = self.sasl.as_ref().map(|(_, lifetime)| {
            let gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
            match lifetime {
                Some(lifetime) => gate.with_session_lifetime(*lifetime),
                None => gate,
            }
        });
        let mut splitter = FrameSplitter::new();
        // Whether to close at once, or after what was queued has gone out.
        let abrupt = loop {
            let frame = match splitter.next_frame().unwrap() {
                Some(frame) => frame,
                None => {
                    if reads.read_buf(splitter.buffer_mut()).await.unwrap_or(0) == 0 {
                        break true;
                    }
                    continue;
                }
            };
            let parsed = RequestFrame::parse(&frame).unwrap();
            let id = parsed.correlation_id();
            let version = parsed.api_version();
            if parsed.api_key() == ApiKey::ApiVersions.key() {
                tx.send(self.api_versions(&parsed)).unwrap();
                continue;
            }
            let request: Request = parsed.decode(TrailingBytes::Refuse).unwrap().body;
            if let (Some(gate), Some((users, _))) = (gate.as_mut(), self.sasl.as_ref()) {
                match gate.on_request(
                    &request,
                    version,
                    users.as_ref(),
                    tokio::time::Instant::now().into_std(),
                ) {
                    Gate::Serve => {}
                    Gate::Answer(answer) => {
                        if is_final(&answer) {
                            self.logins.fetch_add(1, Ordering::SeqCst);
                        }
                        let frame = respond(id, &answer, version);
                        match self.sasl_answer_delay {
                            Some(delay) if matches!(answer, Response::SaslAuthenticate(_)) => {
                                let tx = tx.clone();
                                tokio::spawn(async move {
                                    tokio::time::sleep(delay).await;
                                    let _ = tx.send(frame);
                                });
                            }
                            _ => tx.send(frame).unwrap(),
                        }
                        continue;
                    }
                    Gate::AnswerAndClose(answer) => {
                        tx.send(respond(id, &answer, version)).unwrap();
                        break false;
                    }
                    Gate::Close(_) => break true,
                }
            }
            match request {
                Request::Heartbeat(heartbeat) => {
                    let delay = heartbeat.generation_id;
                    if delay < 0 {
                        continue;
                    }
                    let answer = HeartbeatResponse::default().with_error_code((delay % 100) as i16);
                    let frame = respond(id, &Response::Heartbeat(answer), version);
                    let tx = tx.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(Duration::from_millis(delay as u64)).await;
                        let _ = tx.send(frame);
                    });
                }
                Request::LeaveGroup(_) => break true,
                Request::Produce(produce) if produce.acks == 0 => {
                    self.unanswered_produces.fetch_add(1, Ordering::SeqCst);
                }
                Request::SyncGroup(_) => {
                    let answer = Response::Heartbeat(HeartbeatResponse::default());
                    tx.send(respond(id + 1000, &answer, 4)).unwrap();
                }
                // Anything else: closed, as a broker closes on what it cannot serve.
                _ => break true,
            }
        };
        drop(tx);
        if abrupt {
            writer.abort();
        } else {
            let _ = writer.await;
        }
    }

    fn api_versions(&self, request: &RequestFrame) -> Bytes {
        self.asked.lock().unwrap().push(request.api_version());
        let header = ResponseHeader::default().with_correlation_id(request.correlation_id());
        let max = self.api_versions_max.unwrap_or(i16::MAX);
        if request.api_version() > max {
            // Kafka's answer to a version it does not know: v0, UNSUPPORTED_VERSION,
            // and its own ApiVersions range.
            let answer = ApiVersionsResponse::default()
                .with_error_code(ErrorCode::UnsupportedVersion.code())
                .with_api_keys(vec![ApiVersion::default()
                    .with_api_key(ApiKey::ApiVersions.key())
                    .with_max_version(max)]);
            return frame::encode_response(&header, &answer, 0).unwrap();
        }
        if self.hidden.is_empty() {
            return answer_api_versions(request, Listener::Broker).unwrap();
        }
        let keys = ApiKey::api_versions(Listener::Broker)
            .into_iter()
            .filter(|entry| self.hidden.iter().all(|api| api.key() != entry.api_key))
            .collect();
        let answer = ApiVersionsResponse::default().with_api_keys(keys);
        frame::encode_response(&header, &answer, request.api_version()).unwrap()
    }
}

/// Whether a SaslAuthenticate answer ends a successful SCRAM exchange (its
/// server-final message carries the server's signature, `v=`).
fn is_final(answer: &Response) -> bool {
    matches!(answer, Response::SaslAuthenticate(r) if r.error_code == 0 && r.auth_bytes.starts_with(b"v="))
}

fn respond(correlation_id: i32, answer: &Response, version: i16) -> Bytes {
    let header = ResponseHeader::default().with_correlation_id(correlation_id);
    frame::encode_any_response(&header, answer, version).unwrap()
}

/// A heartbeat the broker played here answers after `generation_id` ms.
pub fn heartbeat(generation_id: i32) -> HeartbeatRequest {
    HeartbeatRequest::default()
        .with_group_id("g".into())
        .with_generation_id(generation_id)
        .with_member_id("m".into())
}

/// alice, whose password is alice-secret.
pub fn users() -> Arc<Users> {
    Arc::new(Users::new().with_user("alice", "alice-secret").unwrap())
}
