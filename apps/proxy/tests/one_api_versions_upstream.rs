//! The proxy's login upstream against a broker that, as Kafka's, takes a single
//! ApiVersions before SASL: after it, the broker awaits SaslHandshake, and a
//! second ApiVersions closes the connection (Kafka's `SaslServerAuthenticator`
//! throws `IllegalSaslStateException`: "Unexpected ApiVersions request received
//! during SASL authentication state HANDSHAKE_REQUEST"). kwire-broker takes
//! ApiVersions at any time, so it cannot stand in for Kafka here.
//!
//! With SASL terminated at the proxy, a client's ApiVersions goes upstream on
//! the connection the proxy then logs in on: the login must start at
//! SaslHandshake there, and at ApiVersions only where the client asked none.

mod common;

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Instant;

use bytes::Bytes;
use common::{proxy, receive, request_frame, round_trip, send, TIMEOUT};
use kwire_messages::api::{
    MetadataRequest, MetadataResponse, SaslAuthenticateRequest, SaslHandshakeRequest,
};
use kwire_messages::frame::{self, RequestFrame, TrailingBytes};
use kwire_messages::{ApiKey, Listener, Request, Response, ResponseHeader};
use kwire_net::client::{ConnectOptions, Connection, Login};
use kwire_net::negotiation::answer_api_versions;
use kwire_net::sasl::{
    ClientStep, Gate, Mechanism, SaslClient, ScramHash, ServerAuthenticator, Users,
};
use tokio::net::TcpStream as AsyncTcpStream;

/// Larger frames are not ours: fail rather than allocate.
const MAX_FRAME: usize = 1 << 20;

/// A broker with Kafka's rule on ApiVersions before SASL; it logs in the
/// proxy's user, and once in answers Metadata (naming no broker).
struct StrictBroker {
    address: SocketAddr,
    /// Connections it closed for a second ApiVersions before logging in.
    closed_for_api_versions: Arc<AtomicUsize>,
    /// Connections that logged in and were served.
    served: Arc<AtomicUsize>,
}

impl StrictBroker {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the strict broker");
        let broker = StrictBroker {
            address: listener.local_addr().expect("the strict broker's address"),
            closed_for_api_versions: Arc::new(AtomicUsize::new(0)),
            served: Arc::new(AtomicUsize::new(0)),
        };
        let users = Arc::new(
            Users::new()
                .with_user("proxy", "proxy-secret")
                .expect("the proxy's credentials"),
        );
        let (closed, served) = (
            Arc::clone(&broker.closed_for_api_versions),
            Arc::clone(&broker.served),
        );
        // The accept loop ends with the test process: nothing joins it.
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (users, closed, served) =
                    (Arc::clone(&users), Arc::clone(&closed), Arc::clone(&served));
                thread::spawn(move || {
                    let _ = serve(stream, &users, &closed, &served);
                });
            }
        });
        broker
    }
}

/// One connection, until it closes, fails, or breaks the rule.
fn serve(
    mut stream: TcpStream,
    users: &Users,
    closed_for_api_versions: &AtomicUsize,
    served: &AtomicUsize,
) -> io::Result<()> {
    stream.set_read_timeout(Some(TIMEOUT))?;
    let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
    let mut api_versions_answered = false;
    let mut counted = false;
    while let Some(bytes) = read_frame(&mut stream)? {
        let parsed = RequestFrame::parse(&bytes).map_err(invalid)?;
        let (key, version) = (parsed.api_key(), parsed.api_version());
        if key == ApiKey::ApiVersions.key() {
            if api_versions_answered && !gate.is_authenticated() {
                closed_for_api_versions.fetch_add(1, Ordering::SeqCst);
                return Ok(());
            }
            // A version it does not know is answered with the v0 fallback, and
            // leaves the state as it was, as Kafka's does.
            api_versions_answered |= ApiKey::ApiVersions.valid_versions().contains(version);
            stream.write_all(&answer_api_versions(&parsed, Listener::Broker).map_err(invalid)?)?;
            continue;
        }
        let request = parsed
            .decode::<Request>(TrailingBytes::Ignore)
            .map_err(invalid)?
            .body;
        let header = ResponseHeader::default().with_correlation_id(parsed.correlation_id());
        let answer = match gate.on_request(&request, version, users, Instant::now()) {
            Gate::Answer(response) => response,
            Gate::AnswerAndClose(response) => {
                let out = frame::encode_any_response(&header, &response, version);
                stream.write_all(&out.map_err(invalid)?)?;
                return Ok(());
            }
            Gate::Close(_) => return Ok(()),
            Gate::Serve if matches!(request, Request::Metadata(_)) => {
                if !counted {
                    served.fetch_add(1, Ordering::SeqCst);
                    counted = true;
                }
                Response::Metadata(MetadataResponse::default())
            }
            Gate::Serve => return Ok(()),
        };
        let out = frame::encode_any_response(&header, &answer, version).map_err(invalid)?;
        stream.write_all(&out)?;
    }
    Ok(())
}

fn invalid(error: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, error.to_string())
}

/// One frame, its length prefix included; `None` at a clean end of stream.
fn read_frame(stream: &mut TcpStream) -> io::Result<Option<Bytes>> {
    let mut prefix = [0; 4];
    match stream.read_exact(&mut prefix) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(error) => return Err(error),
    }
    let len = usize::try_from(i32::from_be_bytes(prefix))
        .ok()
        .filter(|len| *len <= MAX_FRAME)
        .ok_or_else(|| invalid("bad frame length"))?;
    let mut frame = vec![0; 4 + len];
    frame[..4].copy_from_slice(&prefix);
    stream.read_exact(&mut frame[4..])?;
    Ok(Some(Bytes::from(frame)))
}

fn args<const N: usize>(args: [&str; N]) -> Vec<String> {
    args.map(str::to_owned).to_vec()
}

/// Logs in at the proxy with SaslHandshake v1 and SaslAuthenticate, asking no
/// ApiVersions first (as a client that pins its versions may); whether it got
/// in.
async fn log_in_without_api_versions(stream: &mut AsyncTcpStream) -> bool {
    let mut client = SaslClient::scram(ScramHash::Sha512, "alice", "alice-secret").unwrap();
    let handshake =
        SaslHandshakeRequest::default().with_mechanism(client.mechanism().name().into());
    let Response::SaslHandshake(answer) = round_trip(stream, handshake.into(), 1, 1).await else {
        panic!("not a SaslHandshake answer");
    };
    assert_eq!(answer.error_code, 0, "SCRAM-SHA-512 not enabled");
    let mut token = client.start().expect("a first token");
    for id in 2..6 {
        let request = SaslAuthenticateRequest::default().with_auth_bytes(token.into());
        let Response::SaslAuthenticate(answer) = round_trip(stream, request.into(), 2, id).await
        else {
            panic!("not a SaslAuthenticate answer");
        };
        if answer.error_code != 0 {
            return false;
        }
        match client.step(&answer.auth_bytes) {
            Ok(ClientStep::Send(next)) => token = next,
            Ok(ClientStep::Done) => return true,
            Err(_) => return false,
        }
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_proxys_login_follows_the_clients_api_versions_without_asking_again() {
    let broker = StrictBroker::start();
    let proxy = proxy(
        &broker.address.to_string(),
        &args([
            "--sasl-user",
            "alice:alice-secret",
            "--upstream-sasl",
            "SCRAM-SHA-512:proxy:proxy-secret",
        ]),
    );
    // kwire-net's client asks ApiVersions first: it goes upstream, and the
    // proxy's login that follows on that connection starts at SaslHandshake.
    let login = Login::scram(ScramHash::Sha512, "alice", "alice-secret");
    let connection = Connection::connect(
        &proxy.address.to_string(),
        ConnectOptions::new().with_login(login),
    )
    .await
    .expect("logged in at the proxy");
    connection
        .send(MetadataRequest::default())
        .await
        .expect("Metadata served: the proxy logged in upstream");
    assert_eq!(broker.closed_for_api_versions.load(Ordering::SeqCst), 0);

    // A client that asks no ApiVersions: the proxy's login asks it itself.
    let mut raw = AsyncTcpStream::connect(proxy.address)
        .await
        .expect("connect");
    assert!(log_in_without_api_versions(&mut raw).await, "refused");
    let metadata = Request::Metadata(MetadataRequest::default());
    send(&mut raw, &request_frame(&metadata, 12, 9)).await;
    assert!(
        receive(&mut raw).await.is_some(),
        "Metadata not answered: the proxy did not log in upstream"
    );
    assert_eq!(broker.closed_for_api_versions.load(Ordering::SeqCst), 0);
    assert_eq!(broker.served.load(Ordering::SeqCst), 2);
}
