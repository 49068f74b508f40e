//! The client connection over TLS on loopback: `Connection::connect` with
//! `with_tls` does the handshake, checks the broker's certificate, then
//! negotiates and logs in as over plain TCP; a broker whose certificate another
//! CA signed, or that names another host, is refused before any request.
#![cfg(all(feature = "client", feature = "tls"))]

mod fake_broker;

use std::time::Duration;

use fake_broker::{heartbeat, users, Broker};
use kwire_net::client::{ClientError, ConnectOptions, Connection, Login};
use kwire_net::sasl::ScramHash;
use kwire_net::tls::{TlsClient, TlsServer};
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use tokio::net::TcpListener;

/// A CA made for one test, and a server certificate it signed for 127.0.0.1 and
/// localhost.
struct Certificates {
    ca_pem: String,
    server: TlsServer,
}

fn certificates(ca_name: &str) -> Certificates {
    let mut ca = CertificateParams::new(Vec::new()).unwrap();
    ca.distinguished_name.push(DnType::CommonName, ca_name);
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.key_usages = vec![KeyUsagePurpose::KeyCertSign];
    let ca_key = KeyPair::generate().unwrap();
    let ca_pem = ca.self_signed(&ca_key).unwrap().pem();
    let issuer = Issuer::new(ca, ca_key);
    let mut leaf = CertificateParams::new(vec!["127.0.0.1".into(), "localhost".into()]).unwrap();
    leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let key = KeyPair::generate().unwrap();
    let cert = leaf.signed_by(&key, &issuer).unwrap();
    let server =
        TlsServer::from_pem(cert.pem().as_bytes(), key.serialize_pem().as_bytes()).unwrap();
    Certificates { ca_pem, server }
}

/// Serves one TLS connection as `broker`; gives the address to connect to.
async fn serve_once(server: TlsServer, broker: Broker) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        if let Ok(stream) = server.accept(tcp).await {
            broker.serve(stream).await;
        }
    });
    address
}

fn options(ca_pem: &str, server_name: &str) -> ConnectOptions {
    let trust = TlsClient::from_ca_pem(ca_pem.as_bytes()).unwrap();
    ConnectOptions::new()
        .with_connect_timeout(Duration::from_secs(20))
        .with_tls(trust, server_name)
}

#[tokio::test]
async fn negotiates_logs_in_and_answers_over_tls() {
    let certificates = certificates("test CA");
    let broker = Broker {
        sasl: Some((users(), None)),
        ..Broker::default()
    };
    let address = serve_once(certificates.server, broker).await;
    let login = Login::scram(ScramHash::Sha512, "alice", "alice-secret");
    let options = options(&certificates.ca_pem, "127.0.0.1").with_login(login);
    let connection = Connection::connect(&address, options).await.unwrap();
    assert_eq!(connection.send(heartbeat(4)).await.unwrap().error_code, 4);
}

#[tokio::test]
async fn a_broker_certificate_from_another_ca_is_refused() {
    let (ours, theirs) = (certificates("our CA"), certificates("their CA"));
    let address = serve_once(theirs.server, Broker::default()).await;
    let error = Connection::connect(&address, options(&ours.ca_pem, "127.0.0.1"))
        .await
        .unwrap_err();
    assert!(matches!(error, ClientError::Tls(_)), "{error:?}");
}

#[tokio::test]
async fn a_certificate_for_another_name_is_refused() {
    let certificates = certificates("test CA");
    let address = serve_once(certificates.server, Broker::default()).await;
    let error = Connection::connect(&address, options(&certificates.ca_pem, "kafka.example.com"))
        .await
        .unwrap_err();
    assert!(matches!(error, ClientError::Tls(_)), "{error:?}");
}
