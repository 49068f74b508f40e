//! The broker binary with SSL and SASL_SSL listeners, against kwire-net's TLS
//! client: ApiVersions and Metadata over TLS, each listener advertising its own
//! address; SCRAM inside TLS; a client that trusts another CA refused; plain
//! Kafka sent to a TLS port unanswered; a handshake never begun closed at the
//! timeout; and the command line's refusals.
//!
//! The CA and the broker's certificate are made by rcgen for each broker, in a
//! temporary directory. Every read has a timeout, so that a broker that
//! swallows a frame fails the test instead of hanging it.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use bytes::Bytes;
use kwire::KafkaString;
use kwire_messages::api::{
    ApiVersionsRequest, FindCoordinatorRequest, MetadataRequest, SaslAuthenticateRequest,
    SaslHandshakeRequest,
};
use kwire_messages::{Request, Response};
use kwire_net::sasl::{ClientStep, SaslClient, ScramHash};
use kwire_net::session::ClientSession;
use kwire_net::tls::rustls::{CertificateError, Error as RustlsError};
use kwire_net::tls::{TlsClient, TlsError};
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

const WAIT: Duration = Duration::from_secs(20);

/// A CA, and a certificate it signed for 127.0.0.1 and localhost, in files.
struct Certificates {
    dir: PathBuf,
    ca_pem: String,
}

impl Certificates {
    fn make(name: &str) -> Certificates {
        let dir = std::env::temp_dir().join(format!("kwire-tls-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let mut ca = CertificateParams::new(Vec::new()).unwrap();
        ca.distinguished_name
            .push(DnType::CommonName, format!("test CA {name}"));
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let ca_key = KeyPair::generate().unwrap();
        let ca_pem = ca.self_signed(&ca_key).unwrap().pem();
        let issuer = Issuer::new(ca, ca_key);
        let mut server =
            CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).unwrap();
        server
            .distinguished_name
            .push(DnType::CommonName, "localhost");
        server.use_authority_key_identifier_extension = true;
        server.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        server.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let key = KeyPair::generate().unwrap();
        let cert = server.signed_by(&key, &issuer).unwrap();
        std::fs::write(dir.join("server.pem"), cert.pem()).unwrap();
        std::fs::write(dir.join("server.key"), key.serialize_pem()).unwrap();
        Certificates { dir, ca_pem }
    }

    fn cert(&self) -> String {
        self.dir.join("server.pem").display().to_string()
    }

    fn key(&self) -> String {
        self.dir.join("server.key").display().to_string()
    }

    fn client(&self) -> TlsClient {
        TlsClient::from_ca_pem(self.ca_pem.as_bytes()).expect("our CA")
    }
}

impl Drop for Certificates {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The broker, killed when dropped, and each listener's address as printed.
struct Broker {
    child: Child,
    listeners: Vec<String>,
    _certificates: Certificates,
}

impl Broker {
    /// SASL_PLAINTEXT (`--listen`), SSL and SASL_SSL listeners, all on port 0.
    fn start(name: &str, extra: &[&str]) -> Broker {
        let certificates = Certificates::make(name);
        let (cert, key) = (certificates.cert(), certificates.key());
        let mut args = vec![
            "--listen",
            "127.0.0.1:0",
            "--sasl-user",
            "alice:alice-secret",
            "--listener",
            "SSL://127.0.0.1:0",
            "--listener",
            "SASL_SSL://127.0.0.1:0",
            "--tls-cert",
            &cert,
            "--tls-key",
            &key,
        ];
        args.extend(extra);
        let mut child = Command::new(env!("CARGO_BIN_EXE_kwire-broker"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the broker");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut listeners = Vec::new();
        for suffix in ["", " (SSL)", " (SASL_SSL)"] {
            let mut line = String::new();
            stdout.read_line(&mut line).expect("a listening line");
            let address = line
                .trim_end()
                .strip_prefix("listening on ")
                .and_then(|rest| rest.strip_suffix(suffix))
                .unwrap_or_else(|| panic!("not `listening on ADDRESS{suffix}`: {line:?}"));
            listeners.push(address.to_owned());
        }
        Broker {
            child,
            listeners,
            _certificates: certificates,
        }
    }

    fn ssl(&self) -> &str {
        &self.listeners[1]
    }

    fn sasl_ssl(&self) -> &str {
        &self.listeners[2]
    }

    fn client(&self) -> TlsClient {
        self._certificates.client()
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Kafka client session over any stream.
struct Connection<S> {
    session: ClientSession,
    stream: S,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Connection<S> {
    fn new(stream: S) -> Connection<S> {
        Connection {
            session: ClientSession::new(Some(KafkaString::from_static("tls-listener-test"))),
            stream,
        }
    }

    /// The response, or `None` when the broker closed the connection instead.
    async fn call(&mut self, request: Request, version: i16) -> Option<Response> {
        let mut sent = self.session.send(&request, version).expect("frame");
        self.stream.write_all_buf(&mut sent.frame).await.ok()?;
        self.stream.flush().await.ok()?;
        let frame = tokio::time::timeout(WAIT, read_frame(&mut self.stream))
            .await
            .expect("an answer or a close in time")?;
        Some(self.session.receive(&frame).expect("decode").body)
    }

    async fn api_versions(&mut self) -> Option<Response> {
        self.call(Request::ApiVersions(ApiVersionsRequest::default()), 3)
            .await
    }

    /// The brokers Metadata names, as `HOST:PORT`.
    async fn advertised(&mut self) -> Option<Vec<String>> {
        let request = MetadataRequest::default().with_topics(Some(vec![]));
        let Response::Metadata(metadata) = self.call(Request::Metadata(request), 12).await? else {
            panic!("not a Metadata answer");
        };
        Some(
            metadata
                .brokers
                .iter()
                .map(|b| format!("{}:{}", b.host, b.port))
                .collect(),
        )
    }

    /// Where FindCoordinator (v3, one key) says the group coordinator is.
    async fn coordinator(&mut self) -> String {
        let mut request = FindCoordinatorRequest::default();
        request.key = KafkaString::from("g");
        let Some(Response::FindCoordinator(found)) =
            self.call(Request::FindCoordinator(request), 3).await
        else {
            panic!("no FindCoordinator answer");
        };
        format!("{}:{}", found.host, found.port)
    }

    /// SaslHandshake v1 and SaslAuthenticate until done; the last error code.
    async fn authenticate(&mut self, mut client: SaslClient) -> i16 {
        let request =
            SaslHandshakeRequest::default().with_mechanism(client.mechanism().name().into());
        let Some(Response::SaslHandshake(r)) = self.call(Request::SaslHandshake(request), 1).await
        else {
            panic!("no SaslHandshake answer");
        };
        assert_eq!(r.error_code, 0);
        let mut token = client.start().unwrap();
        loop {
            let request = SaslAuthenticateRequest::default().with_auth_bytes(Bytes::from(token));
            let Some(Response::SaslAuthenticate(r)) =
                self.call(Request::SaslAuthenticate(request), 2).await
            else {
                panic!("no SaslAuthenticate answer");
            };
            if r.error_code != 0 {
                return r.error_code;
            }
            match client
                .step(&r.auth_bytes)
                .expect("the server's message verifies")
            {
                ClientStep::Send(next) => token = next,
                ClientStep::Done => return 0,
            }
        }
    }
}

/// One frame, or `None` at the end of the stream (or a reset).
async fn read_frame(stream: &mut (impl AsyncRead + Unpin)) -> Option<Bytes> {
    let mut prefix = [0; 4];
    stream.read_exact(&mut prefix).await.ok()?;
    let len = usize::try_from(i32::from_be_bytes(prefix)).ok()?;
    let mut frame = vec![0; 4 + len];
    frame[..4].copy_from_slice(&prefix);
    stream.read_exact(&mut frame[4..]).await.ok()?;
    Some(frame.into())
}

async fn tls(
    broker: &Broker,
    address: &str,
) -> Connection<kwire_net::tls::ClientStream<TcpStream>> {
    let tcp = TcpStream::connect(address).await.expect("connect");
    let stream = broker
        .client()
        .connect("127.0.0.1", tcp)
        .await
        .expect("the handshake");
    Connection::new(stream)
}

#[tokio::test]
async fn ssl_serves_api_versions_and_metadata_advertising_itself() {
    let broker = Broker::start("ssl", &[]);
    let mut connection = tls(&broker, broker.ssl()).await;
    let Some(Response::ApiVersions(versions)) = connection.api_versions().await else {
        panic!("no ApiVersions answer");
    };
    assert_eq!(versions.error_code, 0);
    assert_eq!(
        connection.advertised().await.expect("served without SASL"),
        [broker.ssl()]
    );
    assert_eq!(connection.coordinator().await, broker.ssl());
    // The same names the name "localhost" too.
    let tcp = TcpStream::connect(broker.ssl()).await.unwrap();
    let stream = broker.client().connect("localhost", tcp).await.unwrap();
    assert!(Connection::new(stream).api_versions().await.is_some());
}

#[tokio::test]
async fn sasl_ssl_serves_after_scram_and_not_before() {
    let broker = Broker::start("sasl-ssl", &[]);
    let mut connection = tls(&broker, broker.sasl_ssl()).await;
    let scram = SaslClient::scram(ScramHash::Sha512, "alice", "alice-secret").unwrap();
    assert_eq!(connection.authenticate(scram).await, 0);
    assert_eq!(
        connection
            .advertised()
            .await
            .expect("served once logged in"),
        [broker.sasl_ssl()]
    );

    let mut anonymous = tls(&broker, broker.sasl_ssl()).await;
    assert!(
        anonymous.api_versions().await.is_some(),
        "ApiVersions is open"
    );
    assert!(
        anonymous.advertised().await.is_none(),
        "Metadata answered without a login"
    );

    let mut wrong = tls(&broker, broker.sasl_ssl()).await;
    let guess = SaslClient::scram(ScramHash::Sha512, "alice", "guess").unwrap();
    assert_ne!(wrong.authenticate(guess).await, 0);

    // The plaintext SASL listener still advertises its own address.
    let tcp = TcpStream::connect(&broker.listeners[0]).await.unwrap();
    let mut plain = Connection::new(tcp);
    let scram = SaslClient::scram(ScramHash::Sha256, "alice", "alice-secret").unwrap();
    assert_eq!(plain.authenticate(scram).await, 0);
    assert_eq!(
        plain.advertised().await.unwrap(),
        [broker.listeners[0].as_str()]
    );
}

#[tokio::test]
async fn a_client_that_trusts_another_ca_is_refused_and_others_go_on() {
    let broker = Broker::start("other-ca", &[]);
    let stranger = Certificates::make("other-ca-client").client();
    for address in [broker.ssl(), broker.sasl_ssl()] {
        let tcp = TcpStream::connect(address).await.unwrap();
        let error = stranger.connect("127.0.0.1", tcp).await.unwrap_err();
        assert!(
            matches!(
                error,
                TlsError::Handshake(RustlsError::InvalidCertificate(
                    CertificateError::UnknownIssuer
                ))
            ),
            "{error:?}"
        );
    }
    assert!(tls(&broker, broker.ssl())
        .await
        .api_versions()
        .await
        .is_some());
}

#[tokio::test]
async fn plain_kafka_on_a_tls_port_gets_no_answer() {
    let broker = Broker::start("plain-on-tls", &[]);
    let tcp = TcpStream::connect(broker.ssl()).await.unwrap();
    let mut connection = Connection::new(tcp);
    assert!(connection.api_versions().await.is_none());
}

/// A client that opens a TCP connection to a TLS port and sends nothing is
/// closed once the handshake timeout (here the idle timeout, 1 s) has passed.
#[tokio::test]
async fn a_handshake_never_begun_is_closed_at_the_timeout() {
    let broker = Broker::start("silent", &["--connections-max-idle-ms", "1000"]);
    let mut tcp = TcpStream::connect(broker.ssl()).await.unwrap();
    let started = std::time::Instant::now();
    let mut byte = [0; 1];
    let read = tokio::time::timeout(WAIT, tcp.read(&mut byte))
        .await
        .expect("closed before the test's own timeout");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(900),
        "closed early: {waited:?}"
    );
}

#[test]
fn tls_listeners_need_a_certificate_and_a_readable_one() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_kwire-broker"))
            .args(args)
            .stdout(Stdio::null())
            .output()
            .expect("run the broker")
    };
    let usage = run(&["--listener", "SSL://127.0.0.1:0"]);
    assert_eq!(usage.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&usage.stderr).contains("--tls-cert"));
    let usage = run(&[
        "--listener",
        "SASL_SSL://127.0.0.1:0",
        "--tls-cert",
        "c",
        "--tls-key",
        "k",
    ]);
    assert_eq!(usage.status.code(), Some(2));

    let certificates = Certificates::make("unreadable");
    let missing = certificates.dir.join("missing.key").display().to_string();
    let failed = run(&[
        "--listener",
        "SSL://127.0.0.1:0",
        "--tls-cert",
        &certificates.cert(),
        "--tls-key",
        &missing,
    ]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&failed.stderr).contains("missing.key"),
        "{}",
        String::from_utf8_lossy(&failed.stderr)
    );
}

/// A handshaking connection holds a connection slot, and is evicted at the
/// limit to admit a newcomer as an idle one would be.
#[tokio::test]
async fn a_handshake_holds_a_slot_and_gives_it_up_at_the_limit() {
    let broker = Broker::start("evicted", &["--max-connections", "1"]);
    let mut silent = TcpStream::connect(broker.ssl()).await.unwrap();
    // Admitted before the newcomer: its slot is taken.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut newcomer = tls(&broker, broker.ssl()).await;
    assert!(newcomer.api_versions().await.is_some());
    let mut byte = [0; 1];
    let read = tokio::time::timeout(Duration::from_secs(5), silent.read(&mut byte))
        .await
        .expect("the silent one closed to make room");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
}
