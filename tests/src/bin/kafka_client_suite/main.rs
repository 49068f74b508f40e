//! Our async client (`kwire_net::client`) against Apache Kafka, every result
//! checked by value: Produce and Fetch at every version both know, every codec,
//! idempotent and transactional producing, the classic consumer group, topics,
//! configs, ListOffsets, and every SASL mechanism over plaintext and TLS.
//! Prints a table of every check; exits non-zero if any failed.
//!
//! `kafka_client_suite CLUSTER_JSON [SECTION...]`, where `CLUSTER_JSON` is what
//! `tests/interop/kafka.py start` writes, and the sections (default: all) are
//! `versions`, `codecs`, `idempotent`, `transactions`, `groups`, `admin`,
//! `offsets`, `security`.
#![forbid(unsafe_code)]

mod admin;
mod codecs;
mod groups;
mod idempotent;
mod list_offsets;
mod produce_fetch;
mod security;
mod support;
mod transactions;

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use kwire_net::client::{ConnectOptions, Connection};
use kwire_tests::kafka_peer::cluster::Cluster;
use kwire_tests::kafka_peer::report::Report;

/// Every section, in the order they run.
const SECTIONS: [&str; 8] = [
    "versions",
    "codecs",
    "idempotent",
    "transactions",
    "groups",
    "admin",
    "offsets",
    "security",
];

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: kafka_client_suite CLUSTER_JSON [SECTION...]");
        return ExitCode::from(2);
    };
    let mut wanted = Vec::new();
    for name in args {
        if !SECTIONS.contains(&name.as_str()) {
            eprintln!("kafka_client_suite: unknown section {name}; sections: {SECTIONS:?}");
            return ExitCode::from(2);
        }
        wanted.push(name);
    }
    if wanted.is_empty() {
        wanted = SECTIONS.iter().map(|s| s.to_string()).collect();
    }
    let cluster = match Cluster::load(Path::new(&path)) {
        Ok(cluster) => cluster,
        Err(error) => {
            eprintln!("kafka_client_suite: {error}");
            return ExitCode::from(2);
        }
    };
    // Topic, group and transactional ids carry it, so that runs never meet.
    let run = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_millis())
        .to_string();
    let mut report = Report::new();
    let options = ConnectOptions::new()
        .with_client_id("kwire-kafka-suite")
        .with_request_timeout(Duration::from_secs(30));
    let address = cluster.address("PLAINTEXT");
    let kafka = match Connection::connect(address, options).await {
        Ok(kafka) => kafka,
        Err(error) => {
            report.record("connect", address, Err(error));
            println!("{}", report.table());
            return ExitCode::FAILURE;
        }
    };
    for section in &wanted {
        match section.as_str() {
            "versions" => produce_fetch::run(&kafka, &mut report, &run).await,
            "codecs" => codecs::run(&kafka, &mut report, &run).await,
            "idempotent" => idempotent::run(&kafka, &mut report, &run).await,
            "transactions" => transactions::run(&kafka, &mut report, &run).await,
            "groups" => groups::run(&kafka, address, &mut report, &run).await,
            "admin" => admin::run(&kafka, &mut report, &run).await,
            "offsets" => list_offsets::run(&kafka, &mut report, &run).await,
            // "security", the one left: the names were checked above.
            _ => security::run(&cluster, &mut report, &run).await,
        }
    }
    println!("\n{}", report.table());
    if report.failures() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
