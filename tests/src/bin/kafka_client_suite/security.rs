//! Logging in to Kafka: every SASL mechanism (PLAIN, SCRAM-SHA-256,
//! SCRAM-SHA-512, OAUTHBEARER with an unsecured token) over SASL_PLAINTEXT and
//! over SASL_SSL, and TLS alone on SSL, each connection then producing records
//! and reading them back; a wrong password for each password mechanism, an
//! unknown SCRAM user, an expired token and a CA that signed nothing refused;
//! and, where Kafka limits sessions (KIP-368), every mechanism's connection
//! kept past them.

use std::time::Duration;

use kwire::records::Compression;
use kwire_messages::api::{ApiVersionsRequest, MetadataRequest};
use kwire_messages::{ApiKey, ErrorCode};
use kwire_net::client::{ClientError, ConnectOptions, Connection, Login};
use kwire_net::sasl::oauthbearer::unsecured::UnsecuredTokenBuilder;
use kwire_net::sasl::ScramHash;
use kwire_net::tls::TlsClient;
use kwire_tests::kafka_peer::cluster::Cluster;
use kwire_tests::kafka_peer::report::Report;

use crate::support::{
    batch, create_topic, data_records, ensure, fetch_all, no_error, produce, unique, values,
    values_of, Failure, Outcome, Topic,
};

/// The password mechanisms, by name.
const PASSWORD_MECHANISMS: [&str; 3] = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"];

pub async fn run(cluster: &Cluster, report: &mut Report, run: &str) {
    let Some((user, password)) = cluster.user() else {
        report.record::<&str>("security", "users", Err("cluster.json names no user"));
        return;
    };
    let mut ready = None;
    let mut round = 0;
    for listener in ["SASL_PLAINTEXT", "SASL_SSL"] {
        for mechanism in PASSWORD_MECHANISMS.iter().copied().chain(["OAUTHBEARER"]) {
            let login = if mechanism == "OAUTHBEARER" {
                token(user, now_ms(), Duration::from_secs(3600))
            } else {
                password_login(mechanism, user, password)
            };
            round += 1;
            let outcome = async {
                let kafka = connect(cluster, listener, Some(login)).await?;
                let topic = match &ready {
                    Some(topic) => Clone::clone(topic),
                    None => {
                        let topic = create_topic(&kafka, &unique("secure", run), 1, &[]).await?;
                        ready = Some(topic.clone());
                        topic
                    }
                };
                round_trip(&kafka, &topic, round).await
            }
            .await;
            report.record("security", &format!("{mechanism} over {listener}"), outcome);
        }
    }
    round += 1;
    report.record(
        "security",
        "TLS alone over SSL",
        async {
            let kafka = connect(cluster, "SSL", None).await?;
            let topic = ready.clone().ok_or("no topic: every login failed")?;
            round_trip(&kafka, &topic, round).await
        }
        .await,
    );
    for listener in ["SASL_PLAINTEXT", "SASL_SSL"] {
        for mechanism in PASSWORD_MECHANISMS {
            let login = password_login(mechanism, user, "not-the-password");
            report.record(
                "security",
                &format!("{mechanism} with a wrong password over {listener}"),
                refused(connect(cluster, listener, Some(login)).await),
            );
        }
        let expired = token(user, now_ms() - 7_200_000, Duration::from_secs(3600));
        report.record(
            "security",
            &format!("OAUTHBEARER with an expired token over {listener}"),
            refused(connect(cluster, listener, Some(expired)).await),
        );
    }
    for mechanism in &PASSWORD_MECHANISMS[1..] {
        let login = password_login(mechanism, "nobody", password);
        report.record(
            "security",
            &format!("{mechanism} for an unknown user"),
            refused(connect(cluster, "SASL_PLAINTEXT", Some(login)).await),
        );
    }
    report.record(
        "security",
        "SSL with a CA that signed nothing",
        untrusted(cluster).await,
    );
    report.record(
        "security",
        "sessions Kafka limits are renewed (KIP-368), also after a lapse",
        renewed(cluster, user, password).await,
    );
}

/// The setting that limits sessions on SASL_PLAINTEXT: kafka_run sets it.
const REAUTH: &str = "listener.name.sasl_plaintext.connections.max.reauth.ms";

/// A connection per mechanism, all at once, asks Kafka something every 250 ms
/// for two and a half sessions: Kafka closes a connection whose session ends
/// unrenewed, so every answer coming shows our client logged in again in time.
async fn renewed(cluster: &Cluster, user: &str, password: &str) -> Outcome {
    let lifetime = cluster
        .setting(REAUTH)
        .or_else(|| cluster.setting("connections.max.reauth.ms"))
        .and_then(|ms| ms.parse::<u64>().ok())
        .filter(|&ms| ms > 0)
        .ok_or(format!(
            "Kafka limits no session on SASL_PLAINTEXT: start it with --set {REAUTH}=3000 \
             (tests/client/kafka_run does)"
        ))?;
    let lifetime = Duration::from_millis(lifetime);
    let login = |mechanism| password_login(mechanism, user, password);
    let answered = tokio::try_join!(
        session(cluster, login("PLAIN"), lifetime),
        session(cluster, login("SCRAM-SHA-256"), lifetime),
        session(cluster, login("SCRAM-SHA-512"), lifetime),
        session(
            cluster,
            token(user, now_ms(), Duration::from_secs(3600)),
            lifetime
        ),
    )?;
    Ok(format!(
        "{} ms sessions, {:.1} s of requests then one after a lapse: {}, {}, {}, {} answered",
        lifetime.as_millis(),
        lifetime.mul_f64(2.5).as_secs_f64(),
        answered.0,
        answered.1,
        answered.2,
        answered.3
    ))
}

/// One connection logged in with `login`, asking every 250 ms for two and a
/// half `lifetime`s, then once more after idling past a session's end; how
/// many answers came, named by the mechanism.
async fn session(cluster: &Cluster, login: Login, lifetime: Duration) -> Result<String, Failure> {
    let name = login.mechanism_name();
    let kafka = connect(cluster, "SASL_PLAINTEXT", Some(login)).await?;
    let started = std::time::Instant::now();
    let mut answered = 0;
    while started.elapsed() < lifetime.mul_f64(2.5) {
        kafka
            .send(MetadataRequest::default().with_topics(Some(Vec::new())))
            .await
            .map_err(|error| {
                format!(
                    "{name}: after {answered} answers in {:?}: {error}",
                    started.elapsed()
                )
            })?;
        answered += 1;
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // Then idle past the session's end: Kafka takes a new login before the
    // next request, and closes only on any other.
    tokio::time::sleep(lifetime.mul_f64(1.3)).await;
    kafka
        .send(MetadataRequest::default().with_topics(Some(Vec::new())))
        .await
        .map_err(|error| format!("{name}: after a lapsed session: {error}"))?;
    Ok(format!("{name} {}", answered + 1))
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as i64)
}

fn password_login(mechanism: &str, user: &str, password: &str) -> Login {
    match mechanism {
        "SCRAM-SHA-256" => Login::scram(ScramHash::Sha256, user, password),
        "SCRAM-SHA-512" => Login::scram(ScramHash::Sha512, user, password),
        _ => Login::plain(user, password),
    }
}

/// An unsecured token for `user`, issued at `issued_ms`, valid for `lifetime`.
fn token(user: &str, issued_ms: i64, lifetime: Duration) -> Login {
    Login::oauthbearer(
        UnsecuredTokenBuilder::new(user)
            .issued_at_ms(issued_ms)
            .lifetime(lifetime)
            .build(),
    )
}

/// Connects to the first node's `listener`, with TLS trusting the cluster's CA
/// when the listener is SSL or SASL_SSL.
async fn connect(
    cluster: &Cluster,
    listener: &str,
    login: Option<Login>,
) -> Result<Connection, ClientError> {
    connect_trusting(cluster, listener, login, &cluster.ca).await
}

async fn connect_trusting(
    cluster: &Cluster,
    listener: &str,
    login: Option<Login>,
    ca: &std::path::Path,
) -> Result<Connection, ClientError> {
    let address = cluster.address(listener);
    let mut options = ConnectOptions::new()
        .with_client_id("kwire-secure-suite")
        .with_request_timeout(Duration::from_secs(30));
    if let Some(login) = login {
        options = options.with_login(login);
    }
    if listener.ends_with("SSL") {
        let host = address.rsplit_once(':').map_or(address, |(host, _)| host);
        options = options.with_tls(TlsClient::from_ca_file(ca)?, host);
    }
    Connection::connect(address, options).await
}

/// Produces a batch on the logged-in connection and reads the partition back to
/// its end: the batch must be there, after the rounds before it.
async fn round_trip(kafka: &Connection, topic: &Topic, round: usize) -> Outcome {
    let sent = values(&format!("secure-{round}"), 5);
    let version = kafka.version(ApiKey::Produce)?;
    let answer = produce(
        kafka,
        version,
        topic,
        0,
        batch(&sent, Compression::Lz4, now_ms())?,
        None,
    )
    .await?;
    no_error("Produce", answer.error_code)?;
    let end = answer.base_offset + sent.len() as i64;
    let fetched = fetch_all(kafka, kafka.version(ApiKey::Fetch)?, topic, 0, 0, end).await?;
    let read = values_of(&data_records(&fetched.records)?);
    ensure!(
        read.ends_with(&sent),
        "read back {} records, the last not the {} sent",
        read.len(),
        sent.len()
    );
    let metadata = kafka
        .send(MetadataRequest::default().with_topics(Some(Vec::new())))
        .await?;
    Ok(format!(
        "5 records at offset {}, read back; Metadata answered for cluster {:?}",
        answer.base_offset,
        metadata.cluster_id.as_ref().map(|id| id.as_str())
    ))
}

/// The connection must have been refused by Kafka's SASL_AUTHENTICATION_FAILED.
fn refused(connected: Result<Connection, ClientError>) -> Outcome {
    match connected {
        Ok(_) => Err("logged in".into()),
        Err(ClientError::Authentication { code, message }) => {
            ensure!(
                code == ErrorCode::SaslAuthenticationFailed,
                "refused with {code:?}: {message}"
            );
            Ok(format!("SASL_AUTHENTICATION_FAILED: {message}"))
        }
        Err(other) => Err(format!("failed otherwise: {other}").into()),
    }
}

/// TLS must fail on the certificate, before any Kafka request.
async fn untrusted(cluster: &Cluster) -> Outcome {
    match connect_trusting(cluster, "SSL", None, &cluster.other_ca).await {
        Ok(kafka) => {
            let _ = kafka.send(ApiVersionsRequest::default()).await;
            Err("connected".into())
        }
        Err(ClientError::Tls(error)) => Ok(format!("TLS refused: {error}")),
        Err(other) => Err::<String, Failure>(format!("failed otherwise: {other}").into()),
    }
}
