//! SASL through the real proxy, with a real `kwire-broker --sasl-user` upstream:
//! terminated at the proxy (which logs in upstream itself, and again before its
//! session ends), refused upstream logins, and passed through unchanged, bare
//! SaslHandshake v0 tokens included.

mod common;

use common::{
    broker, offered, proxy, receive, report, report_number, request_frame, round_trip, send,
    temp_path, token_frame, Process,
};
use kwire_messages::api::{ApiVersionsRequest, MetadataRequest, SaslHandshakeRequest};
use kwire_messages::{ApiKey, Request, Response};
use kwire_net::client::{ClientError, ConnectOptions, Connection, Login};
use kwire_net::sasl::{ClientStep, SaslClient, ScramHash};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

fn args<const N: usize>(args: [&str; N]) -> Vec<String> {
    args.map(str::to_owned).to_vec()
}

/// Each mechanism's login as `user` with `password`.
fn logins(user: &str, password: &str) -> [Login; 3] {
    [
        Login::plain(user, password),
        Login::scram(ScramHash::Sha256, user, password),
        Login::scram(ScramHash::Sha512, user, password),
    ]
}

/// Logs in with every mechanism, right and wrong password, and asks Metadata
/// once in.
async fn logins_work_and_wrong_passwords_do_not(address: &str, user: &str, password: &str) {
    let wrong = format!("not-{password}");
    for (right, wrong) in logins(user, password).into_iter().zip(logins(user, &wrong)) {
        let name = right.mechanism_name();
        let connection = Connection::connect(address, ConnectOptions::new().with_login(right))
            .await
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        let metadata = connection
            .send(MetadataRequest::default())
            .await
            .unwrap_or_else(|error| panic!("{name}: Metadata: {error}"));
        assert_eq!(metadata.brokers.len(), 1, "{name}");
        let refused = Connection::connect(address, ConnectOptions::new().with_login(wrong)).await;
        assert!(
            matches!(refused, Err(ClientError::Authentication { .. })),
            "{name}, wrong password: {refused:?}"
        );
    }
}

/// SaslHandshake v0 for `client`'s mechanism, then its bare tokens; whether it
/// authenticated (a refusal is a close).
async fn v0_login<S: AsyncRead + AsyncWrite + Unpin>(
    stream: &mut S,
    mut client: SaslClient,
    id: i32,
) -> bool {
    let handshake =
        SaslHandshakeRequest::default().with_mechanism(client.mechanism().name().into());
    let Response::SaslHandshake(answer) = round_trip(stream, handshake.into(), 0, id).await else {
        panic!("not a SaslHandshake answer");
    };
    assert_eq!(answer.error_code, 0, "{} not enabled", client.mechanism());
    let mut token = client.start().expect("a first token");
    loop {
        send(stream, &token_frame(&token)).await;
        let Some(reply) = receive(stream).await else {
            return false;
        };
        match client.step(&reply[4..]) {
            Ok(ClientStep::Send(next)) => token = next,
            Ok(ClientStep::Done) => return true,
            Err(_) => return false,
        }
    }
}

/// Metadata, answered.
async fn metadata_answered<S: AsyncRead + AsyncWrite + Unpin>(stream: &mut S, id: i32) {
    let metadata = Request::Metadata(MetadataRequest::default());
    let response = round_trip(stream, metadata, 12, id).await;
    assert!(matches!(response, Response::Metadata(_)), "{response:?}");
}

/// Metadata before authenticating: closed without an answer.
async fn metadata_refused(address: std::net::SocketAddr) {
    let mut raw = TcpStream::connect(address).await.expect("connect");
    let metadata = Request::Metadata(MetadataRequest::default());
    send(&mut raw, &request_frame(&metadata, 12, 1)).await;
    assert!(
        receive(&mut raw).await.is_none(),
        "Metadata answered before authenticating"
    );
}

fn stopped_report(proxy: &mut Process, path: &std::path::Path) -> String {
    assert!(proxy.terminate(), "the proxy did not exit 0");
    let text = report(path);
    let _ = std::fs::remove_file(path);
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sasl_terminated_at_the_proxy_which_logs_in_upstream_itself() {
    let broker = broker(&args(["--sasl-user", "proxy-user:proxy-secret"]));
    let report_path = temp_path("terminated.json");
    let mut proxy = proxy(
        &broker.address.to_string(),
        &args([
            "--sasl-user",
            "alice:alice-secret",
            "--upstream-sasl",
            "SCRAM-SHA-512:proxy-user:proxy-secret",
            "--report",
            report_path.to_str().expect("a UTF-8 path"),
        ]),
    );
    // Alice is unknown to the broker: she gets in only if the proxy logs her in
    // and does not forward her SASL, and then logs in upstream itself.
    logins_work_and_wrong_passwords_do_not(&proxy.address.to_string(), "alice", "alice-secret")
        .await;
    metadata_refused(proxy.address).await;

    // ApiVersions before logging in offers the proxy's SASL versions.
    let mut raw = TcpStream::connect(proxy.address).await.expect("connect");
    let asked = Request::ApiVersions(ApiVersionsRequest::default());
    let versions = round_trip(&mut raw, asked, 3, 1).await;
    for api in [ApiKey::SaslHandshake, ApiKey::SaslAuthenticate] {
        assert_eq!(
            offered(&versions, api),
            api.stable_versions(),
            "{}",
            api.name()
        );
    }
    // SaslHandshake v0's bare tokens, answered by the proxy's gate.
    let client = SaslClient::scram(ScramHash::Sha256, "alice", "alice-secret").unwrap();
    assert!(v0_login(&mut raw, client, 2).await, "v0 SCRAM refused");
    metadata_answered(&mut raw, 3).await;
    let mut wrong = TcpStream::connect(proxy.address).await.expect("connect");
    let client = SaslClient::scram(ScramHash::Sha256, "alice", "guess").unwrap();
    assert!(
        !v0_login(&mut wrong, client, 1).await,
        "v0 SCRAM with a wrong password got in"
    );
    drop((raw, wrong));

    let report = stopped_report(&mut proxy, &report_path);
    // Two tokens each way for the v0 login (the replies are the proxy's), two
    // from the refused one before its close.
    assert_eq!(report_number(&report, "raw_tokens"), 4, "{report}");
    assert_eq!(report_number(&report, "decode_failures"), 0, "{report}");
    assert_eq!(report_number(&report, "mismatches"), 0, "{report}");
    assert!(
        report_number(&report, "answered_by_proxy") >= 10,
        "{report}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_upstream_login_closes_the_client_with_the_reason_logged() {
    let broker = broker(&args(["--sasl-user", "proxy-user:proxy-secret"]));
    let proxy = proxy(
        &broker.address.to_string(),
        &args([
            "--sasl-user",
            "alice:alice-secret",
            "--upstream-sasl",
            "SCRAM-SHA-512:proxy-user:wrong",
        ]),
    );
    let login = Login::scram(ScramHash::Sha512, "alice", "alice-secret");
    // The client logs in at the proxy first; the proxy's own login follows,
    // fails, and closes the client before anything of it is served.
    let connected = Connection::connect(
        &proxy.address.to_string(),
        ConnectOptions::new().with_login(login),
    )
    .await;
    if let Ok(connection) = connected {
        let served = connection.send(MetadataRequest::default()).await;
        assert!(served.is_err(), "served without an upstream login");
    }
    assert!(proxy
        .logged("cannot log in upstream: SASL login upstream failed: SCRAM-SHA-512 as proxy-user"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_proxy_logs_in_upstream_again_before_its_session_ends() {
    // The broker closes a connection whose session has ended at its next request.
    // 1.5 s: the proxy logs in again at 90 %, and a broker takes a
    // re-authentication at most once a second, as Kafka's does.
    let broker = broker(&args([
        "--sasl-user",
        "proxy-user:proxy-secret",
        "--connections-max-reauth-ms",
        "1500",
    ]));
    let proxy = proxy(
        &broker.address.to_string(),
        &args([
            "--sasl-user",
            "alice:alice-secret",
            "--upstream-sasl",
            "SCRAM-SHA-256:proxy-user:proxy-secret",
        ]),
    );
    let login = Login::scram(ScramHash::Sha512, "alice", "alice-secret");
    let connection = Connection::connect(
        &proxy.address.to_string(),
        ConnectOptions::new().with_login(login),
    )
    .await
    .expect("logged in through the proxy");
    // Over two sessions and more, on the one connection.
    for round in 0..5 {
        connection
            .send(MetadataRequest::default())
            .await
            .unwrap_or_else(|error| panic!("round {round}: {error}"));
        tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sasl_passes_through_unchanged_without_sasl_users() {
    let broker = broker(&args(["--sasl-user", "alice:alice-secret"]));
    let report_path = temp_path("passthrough.json");
    let mut proxy = proxy(
        &broker.address.to_string(),
        &args(["--report", report_path.to_str().expect("a UTF-8 path")]),
    );
    logins_work_and_wrong_passwords_do_not(&proxy.address.to_string(), "alice", "alice-secret")
        .await;
    metadata_refused(proxy.address).await;

    // SaslHandshake v0, its bare tokens forwarded as bytes both ways.
    let mut raw = TcpStream::connect(proxy.address).await.expect("connect");
    let asked = Request::ApiVersions(ApiVersionsRequest::default());
    round_trip(&mut raw, asked, 3, 1).await;
    let client = SaslClient::scram(ScramHash::Sha512, "alice", "alice-secret").unwrap();
    assert!(
        v0_login(&mut raw, client, 2).await,
        "v0 SCRAM through the proxy refused"
    );
    metadata_answered(&mut raw, 3).await;
    let mut plain = TcpStream::connect(proxy.address).await.expect("connect");
    let client = SaslClient::plain("alice", "alice-secret").unwrap();
    assert!(
        v0_login(&mut plain, client, 1).await,
        "v0 PLAIN through the proxy refused"
    );
    metadata_answered(&mut plain, 2).await;
    drop((raw, plain));

    let report = stopped_report(&mut proxy, &report_path);
    // SCRAM: two each way; PLAIN: one each way.
    assert_eq!(report_number(&report, "raw_tokens"), 6, "{report}");
    assert_eq!(report_number(&report, "decode_failures"), 0, "{report}");
    assert_eq!(report_number(&report, "unmatched_responses"), 0, "{report}");
    assert_eq!(report_number(&report, "mismatches"), 0, "{report}");
    assert_eq!(report_number(&report, "answered_by_proxy"), 0, "{report}");
}
