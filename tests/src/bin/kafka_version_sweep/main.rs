//! The version sweep, judged by Kafka's parser: for every API Kafka's broker
//! listener advertises (ApiVersions) and every version of its range that this
//! code knows, our client sends a valid request built from test values, and
//! Kafka must answer it without INVALID_REQUEST, CORRUPT_MESSAGE,
//! UNSUPPORTED_VERSION or a closed connection; every answer must decode
//! strictly and be walked to its last byte, unknown tagged fields counted.
//! Versions and APIs Kafka advertises that this code does not know are listed
//! as findings, with what Kafka does with them. Prints the table; exits
//! non-zero if any (API, version) known to both failed.
//!
//! `kafka_version_sweep CLUSTER_JSON` (what `tests/interop/kafka_peer.py start`
//! writes).
#![forbid(unsafe_code)]

mod bodies;
mod explained;
mod judge;
mod probe;
mod sasl;
mod table;
mod tap;
mod unknown;
mod values;

use std::path::Path;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use kwire_messages::api::ApiVersionsRequest;
use kwire_messages::ApiKey;
use kwire_tests::kafka_peer::cluster::Cluster;
use kwire_tests::kafka_peer::setup::{no_error, Failure};

use crate::probe::{connection_lost, Probe, Tapped};
use crate::table::{Row, Version};
use crate::values::Values;

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(path), None) = (args.next(), args.next()) else {
        eprintln!("usage: kafka_version_sweep CLUSTER_JSON");
        return ExitCode::from(2);
    };
    let cluster = match Cluster::load(Path::new(&path)) {
        Ok(cluster) => cluster,
        Err(error) => {
            eprintln!("kafka_version_sweep: {error}");
            return ExitCode::from(2);
        }
    };
    match sweep(&cluster).await {
        Ok(rows) => {
            print!("{}", table::render(&rows));
            if rows.iter().all(Row::passed) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => {
            eprintln!("kafka_version_sweep: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn sweep(cluster: &Cluster) -> Result<Vec<Row>, Failure> {
    let run = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_millis())
        .to_string();
    let address = cluster.address("PLAINTEXT");
    let sasl_address = cluster.address("SASL_PLAINTEXT");
    let (user, password) = cluster.user().ok_or("cluster.json names no user")?;
    let log = cluster.nodes[0].log.clone();
    let mut tapped = Tapped::open(address, None).await?;
    // What Kafka advertises, APIs this code does not know included.
    // (From v3 Kafka wants the client's name, or answers INVALID_REQUEST.)
    let asked = ApiVersionsRequest::default()
        .with_client_software_name("kwire-sweep".into())
        .with_client_software_version(env!("CARGO_PKG_VERSION").into());
    let answer = tapped.connection.send(asked).await?;
    no_error("ApiVersions", answer.error_code)?;
    let advertised = answer.api_keys;
    if advertised.is_empty() {
        return Err("Kafka advertised no API".into());
    }
    let values = Values::make(&tapped.connection, &run).await?;
    let mut rows = Vec::new();
    for entry in &advertised {
        let mut row = Row::new(entry.api_key, entry.min_version, entry.max_version);
        let Ok(api) = ApiKey::from_i16(entry.api_key) else {
            rows.push(row);
            continue;
        };
        let ours = api.valid_versions();
        for version in entry.min_version..=entry.max_version {
            if !ours.contains(version) {
                let seen = unknown::bare_header(address, api.key(), version, log.as_deref());
                row.versions.push(Version::NotOurs { version, seen });
                continue;
            }
            let probe = match api {
                ApiKey::SaslHandshake => sasl::handshake(sasl_address, version).await,
                ApiKey::SaslAuthenticate => {
                    sasl::authenticate(sasl_address, user, password, version).await
                }
                _ => match bodies::builder(api) {
                    Some(build) => tapped.probe(build(&values, version), version).await,
                    None => Probe::NotSent("no request body is built for this API".into()),
                },
            };
            if connection_lost(&probe) {
                tapped = Tapped::open(address, None).await?;
            }
            println!("{} v{version}: {}", api.name(), table::why(&probe));
            row.versions.push(Version::Probed { version, probe });
        }
        rows.push(row);
    }
    Ok(rows)
}
