//! TLS on either side of the real proxy, with a real kwire-broker upstream and
//! certificates made for the run: clients reach a plaintext broker over TLS
//! through every proxy listener; a client that never finishes its handshake is
//! closed; the proxy verifies its upstream's certificate and name; and the
//! whole chain, SASL_SSL at the proxy and SASL_SSL upstream with the proxy's
//! own credentials.

mod common;

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use common::{broker, path, proxy, request_frame, send, Certificates, TIMEOUT};
use kwire_messages::api::{ApiVersionsRequest, MetadataRequest};
use kwire_messages::{frame, Request};
use kwire_net::client::{ConnectOptions, Connection, Login};
use kwire_net::sasl::ScramHash;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

fn args<const N: usize>(args: [&str; N]) -> Vec<String> {
    args.map(str::to_owned).to_vec()
}

/// The one broker a Metadata response names, as an address.
fn named_broker(connection_metadata: &kwire_messages::api::MetadataResponse) -> SocketAddr {
    let [broker] = &connection_metadata.brokers[..] else {
        panic!("not one broker: {:?}", connection_metadata.brokers);
    };
    let ip: IpAddr = broker.host.as_str().parse().expect("a proxy listener's IP");
    SocketAddr::new(ip, u16::try_from(broker.port).expect("a TCP port"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_clients_reach_a_plaintext_broker_through_every_listener() {
    let certificates = Certificates::new();
    let broker = broker(&[]);
    // Named "localhost" here, the broker advertises 127.0.0.1: another address
    // to the proxy, which opens a listener of its own for it, TLS too.
    let upstream = format!("localhost:{}", broker.address.port());
    let proxy = proxy(&upstream, &certificates.server_args());
    let options = || ConnectOptions::new().with_tls(certificates.client(), "127.0.0.1");

    let bootstrap = Connection::connect(&proxy.address.to_string(), options())
        .await
        .expect("TLS to the bootstrap listener");
    let metadata = bootstrap
        .send(MetadataRequest::default())
        .await
        .expect("Metadata through the bootstrap listener");
    let listener = named_broker(&metadata);
    assert!(
        listener != proxy.address && listener != broker.address,
        "{listener} is not a listener for the advertised broker"
    );
    let through = Connection::connect(&listener.to_string(), options())
        .await
        .expect("TLS to the broker's listener");
    let again = through
        .send(MetadataRequest::default())
        .await
        .expect("Metadata through the broker's listener");
    assert_eq!(named_broker(&again), listener);

    // Plaintext Kafka to a TLS listener gets no Kafka answer, whatever TLS
    // alert comes back before the close.
    let mut plain = TcpStream::connect(proxy.address).await.expect("connect");
    let asked = Request::ApiVersions(ApiVersionsRequest::default());
    send(&mut plain, &request_frame(&asked, 3, 7)).await;
    let mut got = Vec::new();
    tokio::time::timeout(TIMEOUT, plain.read_to_end(&mut got))
        .await
        .expect("the proxy closes a client that speaks no TLS")
        .ok();
    let answered = frame::response_correlation_id(&got.into()).is_ok_and(|id| id == 7);
    assert!(!answered, "plaintext answered on a TLS listener");
    assert!(proxy.logged("TLS handshake failed"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_finishes_its_handshake_is_closed() {
    let certificates = Certificates::new();
    // The idle timeout bounds a handshake when shorter than the default 10 s.
    let mut extra = certificates.server_args();
    extra.extend(args(["--connections-max-idle-ms", "300"]));
    // Never reached: the handshake comes first.
    let proxy = proxy("127.0.0.1:9", &extra);
    let started = Instant::now();
    let mut silent = TcpStream::connect(proxy.address).await.expect("connect");
    let mut byte = [0; 1];
    let read = tokio::time::timeout(TIMEOUT, silent.read(&mut byte))
        .await
        .expect("the proxy closes a silent client");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(5),
        "closed only after {waited:?}"
    );
    assert!(proxy.logged("TLS handshake not complete"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_proxy_verifies_its_upstreams_certificate_and_name() {
    let certificates = Certificates::new();
    let mut listener = args(["--listener", "SSL://127.0.0.1:0"]);
    listener.extend(certificates.server_args());
    let broker = broker(&listener);
    let upstream = broker.address.to_string();
    let ca = path(&certificates.ca);
    let other_ca = path(&certificates.other_ca);
    let cases = [
        (args(["--upstream-tls-ca", &ca]), true),
        (args(["--upstream-tls-ca", &other_ca]), false),
        (
            args([
                "--upstream-tls-ca",
                &ca,
                "--upstream-tls-server-name",
                "localhost",
            ]),
            true,
        ),
        (
            args([
                "--upstream-tls-ca",
                &ca,
                "--upstream-tls-server-name",
                "kafka.example",
            ]),
            false,
        ),
    ];
    for (extra, trusted) in cases {
        let proxy = proxy(&upstream, &extra);
        let connected =
            Connection::connect(&proxy.address.to_string(), ConnectOptions::new()).await;
        match connected {
            Ok(connection) => {
                assert!(trusted, "{extra:?}: connected to an untrusted upstream");
                let metadata = connection
                    .send(MetadataRequest::default())
                    .await
                    .unwrap_or_else(|error| panic!("{extra:?}: {error}"));
                assert_eq!(named_broker(&metadata), proxy.address, "{extra:?}");
            }
            Err(error) => {
                assert!(!trusted, "{extra:?}: {error}");
                assert!(proxy.logged("cannot connect upstream: TLS handshake failed"));
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sasl_ssl_at_the_proxy_and_sasl_ssl_upstream_with_its_own_credentials() {
    let certificates = Certificates::new();
    let mut listener = args([
        "--listener",
        "SASL_SSL://127.0.0.1:0",
        "--sasl-user",
        "proxy-user:proxy-secret",
    ]);
    listener.extend(certificates.server_args());
    let broker = broker(&listener);
    let ca = path(&certificates.ca);
    let mut extra = certificates.server_args();
    extra.extend(args([
        "--sasl-user",
        "alice:alice-secret",
        "--sasl-enabled-mechanisms",
        "SCRAM-SHA-512",
        "--upstream-tls-ca",
        &ca,
        "--upstream-sasl",
        "SCRAM-SHA-512:proxy-user:proxy-secret",
    ]));
    let proxy = proxy(&broker.address.to_string(), &extra);
    let options = |password: &str| {
        ConnectOptions::new()
            .with_tls(certificates.client(), "localhost")
            .with_login(Login::scram(ScramHash::Sha512, "alice", password))
    };
    let connection = Connection::connect(&proxy.address.to_string(), options("alice-secret"))
        .await
        .expect("SASL_SSL through the proxy");
    let metadata = connection
        .send(MetadataRequest::default())
        .await
        .expect("Metadata answered");
    assert_eq!(named_broker(&metadata), proxy.address);
    let refused = Connection::connect(&proxy.address.to_string(), options("guess")).await;
    assert!(refused.is_err(), "a wrong password got in");
}
