//! A client that logs in over TLS: connects with the options given, creates a topic
//! (or finds it there), produces a batch of records, fetches them back and checks
//! each one; exits non-zero, saying why, on any difference.
//!
//! ```text
//! cargo run -p kwire-net --features client,tls --example secure_client -- \
//!     127.0.0.1:9093 --ca ca.pem --login SCRAM-SHA-512:alice:alice-secret [--server-name NAME] \
//!     [--topic NAME] [--count N]
//! ```
//!
//! Without `--ca`, plaintext; without `--login`, no SASL.

use std::process::ExitCode;

use kwire::records::{Batches, RecordBatchBuilder};
use kwire::Records;
use kwire_messages::api::create_topics::CreatableTopic;
use kwire_messages::api::fetch::{FetchPartition, FetchTopic};
use kwire_messages::api::produce::{PartitionProduceData, TopicProduceData};
use kwire_messages::api::{CreateTopicsRequest, FetchRequest, ProduceRequest};
use kwire_messages::{ApiKey, ErrorCode};
use kwire_net::client::{ClientError, ConnectOptions, Connection, Login};
use kwire_net::tls::TlsClient;

/// The command line.
struct Args {
    address: String,
    options: ConnectOptions,
    topic: String,
    count: usize,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let address = args
        .next()
        .ok_or("usage: secure_client HOST:PORT [options]")?;
    let (mut ca, mut server_name, mut login) = (None, None, None);
    let (mut topic, mut count) = ("kwire-secure".to_owned(), 20);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--ca" => ca = Some(value),
            "--server-name" => server_name = Some(value),
            "--login" => {
                login = Some(
                    value
                        .parse::<Login>()
                        .map_err(|e| format!("--login: {e}"))?,
                )
            }
            "--topic" => topic = value,
            "--count" => count = value.parse().map_err(|_| format!("--count {value}"))?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let mut options = ConnectOptions::new().with_client_id("kwire-secure-client");
    if let Some(login) = login {
        options = options.with_login(login);
    }
    if let Some(ca) = ca {
        let host = address
            .rsplit_once(':')
            .map_or(&address[..], |(host, _)| host);
        let name = server_name.unwrap_or_else(|| host.to_owned());
        let trust = TlsClient::from_ca_file(&ca).map_err(|error| error.to_string())?;
        options = options.with_tls(trust, name);
    }
    Ok(Args {
        address,
        options,
        topic,
        count,
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(usage) => {
            eprintln!("secure_client: {usage}");
            return ExitCode::from(2);
        }
    };
    match round_trip(&args).await {
        Ok(()) => {
            println!("ok: {} records produced and read back", args.count);
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("secure_client: {}: {error}", args.address);
            ExitCode::FAILURE
        }
    }
}

async fn round_trip(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let kafka = Connection::connect(&args.address, args.options.clone()).await?;
    let name = kwire::KafkaString::from(args.topic.as_str());
    let topic = CreatableTopic::default()
        .with_name(name.clone())
        .with_num_partitions(1)
        .with_replication_factor(1);
    let created = kafka
        .send(CreateTopicsRequest::default().with_topics(vec![topic]))
        .await?;
    for topic in &created.topics {
        match ErrorCode::from_code(topic.error_code) {
            ErrorCode::None | ErrorCode::TopicAlreadyExists => {}
            error => return Err(ClientError::from(error).into()),
        }
    }

    let values: Vec<String> = (0..args.count).map(|i| format!("secure-{i}")).collect();
    let mut batch = RecordBatchBuilder::new(0);
    for value in &values {
        batch.append(0, None, Some(value.as_bytes()), &[])?;
    }
    let partition = PartitionProduceData::default().with_records(Some(Records(batch.build()?)));
    let produce = ProduceRequest::default()
        .with_acks(-1)
        .with_timeout_ms(10_000)
        .with_topic_data(vec![TopicProduceData::default()
            .with_name(name.clone())
            .with_partition_data(vec![partition])]);
    // Naming the topic: Produce and Fetch v12 at most (v13 takes ids only).
    let produced = kafka
        .send_at(produce, kafka.version(ApiKey::Produce)?.min(12))
        .await?;
    let written = produced
        .responses
        .iter()
        .flat_map(|topic| &topic.partition_responses)
        .next()
        .ok_or("the Produce response holds no partition")?;
    ErrorCode::check(written.error_code)?;

    let fetch = FetchRequest::default()
        .with_max_wait_ms(1_000)
        .with_min_bytes(1)
        .with_topics(vec![FetchTopic::default()
            .with_topic(name)
            .with_partitions(vec![FetchPartition::default()
                .with_fetch_offset(written.base_offset)
                .with_partition_max_bytes(1 << 20)])]);
    let fetched = kafka
        .send_at(fetch, kafka.version(ApiKey::Fetch)?.min(12))
        .await?;
    let mut read = Vec::new();
    for partition in fetched.responses.iter().flat_map(|topic| &topic.partitions) {
        ErrorCode::check(partition.error_code)?;
        for batch in Batches::new(partition.records.clone().unwrap_or_default().0) {
            let batch = batch?;
            batch.verify_crc()?;
            for record in batch.records()? {
                let record = record?;
                read.push(String::from_utf8_lossy(record.value.unwrap_or_default()).into_owned());
            }
        }
    }
    read.truncate(values.len());
    if read != values {
        return Err(format!("produced {values:?}, read back {read:?}").into());
    }
    Ok(())
}
