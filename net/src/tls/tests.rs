//! Handshakes between this module's client and server over 127.0.0.1 and tokio
//! duplex pipes, with a CA and certificates made by rcgen for each test.

use std::time::Duration;

use bytes::Bytes;
use kwire::KafkaString;
use kwire_messages::api::ApiVersionsRequest;
use kwire_messages::frame::RequestFrame;
use kwire_messages::{Listener, Request, Response};
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::rustls::{CertificateError, Error as RustlsError};
use super::*;
use crate::negotiation::answer_api_versions;
use crate::server::{FrameReader, MemoryBudget};
use crate::session::ClientSession;

/// A certificate authority made for one test.
struct Ca {
    pem: String,
    issuer: Issuer<'static, KeyPair>,
}

impl Ca {
    fn new(name: &str) -> Ca {
        let mut params = CertificateParams::new(Vec::new()).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let key = KeyPair::generate().unwrap();
        let pem = params.self_signed(&key).unwrap().pem();
        Ca {
            pem,
            issuer: Issuer::new(params, key),
        }
    }

    /// A certificate for `names` (DNS names or IP addresses) and its key, PEM.
    fn issue(&self, names: &[&str], purpose: ExtendedKeyUsagePurpose) -> (String, String) {
        let mut params =
            CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>())
                .unwrap();
        params.distinguished_name.push(
            DnType::CommonName,
            names.first().copied().unwrap_or("client"),
        );
        params.use_authority_key_identifier_extension = true;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![purpose];
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        (cert.pem(), key.serialize_pem())
    }

    fn server(&self) -> TlsServer {
        let (cert, key) = self.issue(
            &["localhost", "127.0.0.1"],
            ExtendedKeyUsagePurpose::ServerAuth,
        );
        TlsServer::from_pem(cert.as_bytes(), key.as_bytes()).unwrap()
    }

    fn client(&self) -> TlsClient {
        TlsClient::from_ca_pem(self.pem.as_bytes()).unwrap()
    }
}

/// Both handshakes over a duplex pipe: the client's result and the server's.
async fn handshake(
    client: &TlsClient,
    name: &str,
    server: &TlsServer,
) -> (
    Result<ClientStream<tokio::io::DuplexStream>, TlsError>,
    Result<ServerStream<tokio::io::DuplexStream>, TlsError>,
) {
    let (near, far) = tokio::io::duplex(64 << 10);
    tokio::join!(client.connect(name, near), server.accept(far))
}

/// An ApiVersions request and a frame larger than a TLS record (16 KiB) go
/// through TLS over TCP: the server reads them with the budgeted
/// [`FrameReader`], answers the first as a broker does, echoes the second.
#[tokio::test]
async fn kafka_frames_round_trip_over_tls_on_loopback() {
    let ca = Ca::new("test CA");
    let (server, client) = (ca.server(), ca.client());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let serving = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let (reader, mut writer) = tokio::io::split(server.accept(tcp).await.unwrap());
        let mut frames = FrameReader::new(reader, MemoryBudget::new(1 << 20));
        let request = frames.next_frame().await.unwrap().unwrap();
        let parsed = RequestFrame::parse(request.bytes()).unwrap();
        let answer = answer_api_versions(&parsed, Listener::Broker).unwrap();
        writer.write_all(&answer).await.unwrap();
        writer.flush().await.unwrap();
        let big = frames.next_frame().await.unwrap().unwrap();
        writer.write_all(&big).await.unwrap();
        writer.flush().await.unwrap();
        assert!(frames.next_frame().await.unwrap().is_none(), "then the end");
    });

    let tcp = TcpStream::connect(address).await.unwrap();
    let mut stream = client.connect("127.0.0.1", tcp).await.unwrap();
    let mut session = ClientSession::new(Some(KafkaString::from_static("tls-test")));
    let mut sent = session
        .send(&Request::ApiVersions(ApiVersionsRequest::default()), 3)
        .unwrap();
    stream.write_all_buf(&mut sent.frame).await.unwrap();
    stream.flush().await.unwrap();
    let answer = read_frame(&mut stream).await;
    let received = session.receive(&answer).unwrap();
    let Response::ApiVersions(versions) = received.body else {
        panic!("not an ApiVersions answer");
    };
    assert_eq!(versions.error_code, 0);
    assert!(!versions.api_keys.is_empty());

    let mut big = (100_000_i32).to_be_bytes().to_vec();
    big.extend((0..100_000).map(|i| (i % 251) as u8));
    stream.write_all(&big).await.unwrap();
    stream.flush().await.unwrap();
    assert_eq!(read_frame(&mut stream).await, big);
    stream.shutdown().await.unwrap();
    serving.await.unwrap();
}

async fn read_frame(stream: &mut (impl tokio::io::AsyncRead + Unpin)) -> Bytes {
    let mut prefix = [0; 4];
    stream.read_exact(&mut prefix).await.unwrap();
    let mut frame = prefix.to_vec();
    frame.resize(4 + i32::from_be_bytes(prefix) as usize, 0);
    stream.read_exact(&mut frame[4..]).await.unwrap();
    frame.into()
}

#[tokio::test]
async fn a_server_from_another_ca_is_refused() {
    let (ours, theirs) = (Ca::new("our CA"), Ca::new("their CA"));
    let (client, server) = handshake(&ours.client(), "localhost", &theirs.server()).await;
    assert!(
        matches!(
            client,
            Err(TlsError::Handshake(RustlsError::InvalidCertificate(
                CertificateError::UnknownIssuer
            )))
        ),
        "{client:?}"
    );
    // The client says why before it hangs up.
    assert!(
        matches!(
            server,
            Err(TlsError::Handshake(RustlsError::AlertReceived(_)))
        ),
        "{server:?}"
    );
}

#[tokio::test]
async fn a_certificate_for_another_name_is_refused() {
    let ca = Ca::new("test CA");
    let (server, client) = (ca.server(), ca.client());
    for name in ["kafka.example.com", "127.0.0.2"] {
        let (client, _) = handshake(&client, name, &server).await;
        assert!(
            matches!(
                &client,
                Err(TlsError::Handshake(RustlsError::InvalidCertificate(
                    CertificateError::NotValidForName
                        | CertificateError::NotValidForNameContext { .. }
                )))
            ),
            "{name}: {client:?}"
        );
    }
    // The same certificate is good for both names it holds.
    for name in ["localhost", "127.0.0.1"] {
        let (client, server) = handshake(&client, name, &server).await;
        assert!(client.is_ok() && server.is_ok(), "{name}");
    }
}

#[tokio::test]
async fn a_name_that_is_no_server_name_is_refused_before_connecting() {
    let client = Ca::new("test CA").client();
    for name in ["localhost:9093", "", "two words"] {
        let (stream, _far) = tokio::io::duplex(64);
        let error = client.connect(name, stream).await.unwrap_err();
        assert!(
            matches!(&error, TlsError::ServerName { name: given } if given == name),
            "{error:?}"
        );
    }
}

/// A peer that connects and sends nothing is given up on at the timeout.
#[tokio::test(start_paused = true)]
async fn a_handshake_that_never_ends_times_out() {
    let server = Ca::new("test CA")
        .server()
        .with_handshake_timeout(Duration::from_secs(3));
    let (_silent, far) = tokio::io::duplex(64);
    let started = tokio::time::Instant::now();
    let error = server.accept(far).await.unwrap_err();
    assert!(
        matches!(error, TlsError::HandshakeTimeout(t) if t == Duration::from_secs(3)),
        "{error:?}"
    );
    assert_eq!(started.elapsed(), Duration::from_secs(3));

    let client = Ca::new("test CA")
        .client()
        .with_handshake_timeout(Duration::from_secs(2));
    assert_eq!(client.handshake_timeout(), Duration::from_secs(2));
    let (near, _silent) = tokio::io::duplex(64 << 10);
    let error = client.connect("localhost", near).await.unwrap_err();
    assert!(matches!(error, TlsError::HandshakeTimeout(_)), "{error:?}");
}

#[tokio::test]
async fn a_peer_that_hangs_up_mid_handshake_is_an_io_error() {
    let server = Ca::new("test CA").server();
    let (mut near, far) = tokio::io::duplex(64);
    near.write_all(b"\x16\x03\x01").await.unwrap(); // the start of a record
    drop(near);
    let error = server.accept(far).await.unwrap_err();
    assert!(matches!(error, TlsError::Io(_)), "{error:?}");
}

#[tokio::test]
async fn mutual_tls_requires_a_client_certificate_from_the_clients_ca() {
    let (servers_ca, clients_ca, other_ca) = (
        Ca::new("server CA"),
        Ca::new("client CA"),
        Ca::new("other CA"),
    );
    let server = servers_ca
        .server()
        .with_client_ca_pem(clients_ca.pem.as_bytes())
        .unwrap();

    let (cert, key) = clients_ca.issue(&["client"], ExtendedKeyUsagePurpose::ClientAuth);
    let client = servers_ca
        .client()
        .with_client_certificate(cert.as_bytes(), key.as_bytes())
        .unwrap();
    let (client_side, server_side) = handshake(&client, "localhost", &server).await;
    let (mut client_side, mut server_side) = (client_side.unwrap(), server_side.unwrap());
    client_side.write_all(b"\0\0\0\0").await.unwrap();
    client_side.flush().await.unwrap();
    let mut got = [9; 4];
    server_side.read_exact(&mut got).await.unwrap();
    assert_eq!(got, [0; 4]);

    // No certificate, or one from a CA the server does not trust: the server
    // refuses (under TLS 1.3 the client learns of it on its first read).
    let (cert, key) = other_ca.issue(&["client"], ExtendedKeyUsagePurpose::ClientAuth);
    let stranger = servers_ca
        .client()
        .with_client_certificate(cert.as_bytes(), key.as_bytes())
        .unwrap();
    for client in [servers_ca.client(), stranger] {
        let (client_side, server_side) = handshake(&client, "localhost", &server).await;
        assert!(
            matches!(
                server_side,
                Err(TlsError::Handshake(
                    RustlsError::NoCertificatesPresented
                        | RustlsError::InvalidCertificate(CertificateError::UnknownIssuer)
                ))
            ),
            "{server_side:?}"
        );
        if let Ok(mut stream) = client_side {
            let mut byte = [0; 1];
            assert!(
                !matches!(stream.read(&mut byte).await, Ok(n) if n > 0),
                "read after refusal"
            );
        }
    }
}

#[test]
fn pem_that_holds_no_certificate_or_key_is_refused_by_name() {
    let ca = Ca::new("test CA");
    let (cert, key) = ca.issue(&["localhost"], ExtendedKeyUsagePurpose::ServerAuth);
    assert!(matches!(
        TlsServer::from_pem(key.as_bytes(), key.as_bytes()),
        Err(TlsError::NoCertificate { .. })
    ));
    assert!(matches!(
        TlsServer::from_pem(cert.as_bytes(), cert.as_bytes()),
        Err(TlsError::NoKey { .. })
    ));
    // Both in one file is fine.
    let both = format!("{cert}{key}");
    assert!(TlsServer::from_pem(both.as_bytes(), both.as_bytes()).is_ok());
    assert!(matches!(
        TlsClient::from_ca_pem(b""),
        Err(TlsError::NoCertificate { .. })
    ));
    let cut = &cert[..cert.len() - 30];
    assert!(matches!(
        TlsClient::from_ca_pem(cut.as_bytes()),
        Err(TlsError::Pem { .. })
    ));
    // Good PEM around bytes that are no certificate.
    let garbage = "-----BEGIN CERTIFICATE-----\nAAECAwQ=\n-----END CERTIFICATE-----\n";
    assert!(matches!(
        TlsClient::from_ca_pem(garbage.as_bytes()),
        Err(TlsError::InvalidCertificate { .. })
    ));
}

#[test]
fn a_key_that_is_not_the_certificates_is_refused() {
    let ca = Ca::new("test CA");
    let (cert, _) = ca.issue(&["localhost"], ExtendedKeyUsagePurpose::ServerAuth);
    let (_, other_key) = ca.issue(&["localhost"], ExtendedKeyUsagePurpose::ServerAuth);
    let error = TlsServer::from_pem(cert.as_bytes(), other_key.as_bytes()).unwrap_err();
    assert!(matches!(error, TlsError::InvalidKey(_)), "{error:?}");
    let error = ca
        .client()
        .with_client_certificate(cert.as_bytes(), other_key.as_bytes())
        .unwrap_err();
    assert!(matches!(error, TlsError::InvalidKey(_)), "{error:?}");
}

#[test]
fn files_are_read_and_a_missing_one_is_named() {
    let dir = std::env::temp_dir().join(format!("kwire-tls-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ca = Ca::new("test CA");
    let (cert, key) = ca.issue(&["localhost"], ExtendedKeyUsagePurpose::ServerAuth);
    let (ca_path, cert_path, key_path) = (
        dir.join("ca.pem"),
        dir.join("server.pem"),
        dir.join("server.key"),
    );
    std::fs::write(&ca_path, &ca.pem).unwrap();
    std::fs::write(&cert_path, cert).unwrap();
    std::fs::write(&key_path, key).unwrap();

    assert!(TlsClient::from_ca_file(&ca_path).is_ok());
    let server = TlsServer::from_pem_files(&cert_path, &key_path).unwrap();
    assert!(server.with_client_ca_file(&ca_path).is_ok());
    let missing = dir.join("missing.pem");
    for error in [
        TlsClient::from_ca_file(&missing).unwrap_err(),
        TlsServer::from_pem_files(&missing, &key_path).unwrap_err(),
        TlsServer::from_pem_files(&cert_path, &missing).unwrap_err(),
    ] {
        assert!(
            matches!(&error, TlsError::Read { path, .. } if *path == missing),
            "{error:?}"
        );
        assert!(error.to_string().contains("missing.pem"), "{error}");
    }
    let error = TlsServer::from_pem_files(&key_path, &key_path).unwrap_err();
    assert!(error.to_string().contains("server.key"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn debug_shows_no_key() {
    let ca = Ca::new("test CA");
    let (cert, key) = ca.issue(&["localhost"], ExtendedKeyUsagePurpose::ServerAuth);
    let server = TlsServer::from_pem(cert.as_bytes(), key.as_bytes()).unwrap();
    let shown = format!("{server:?} {:?}", ca.client());
    assert!(
        shown.contains("TlsServer") && shown.contains("TlsClient"),
        "{shown}"
    );
    assert!(!shown.to_lowercase().contains("key"), "{shown}");
}
