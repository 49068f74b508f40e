//! Produce at every version both sides know, then Fetch everything back at every
//! version: offsets, keys, values and headers by value; from v13 the topic
//! named by the id Metadata gave. And what CreateTopics says of a topic that is
//! already there.

use kwire::records::Compression;
use kwire::{Records, Uuid};
use kwire_messages::api::create_topics::CreatableTopic;
use kwire_messages::api::produce::{PartitionProduceData, TopicProduceData};
use kwire_messages::api::{CreateTopicsRequest, ProduceRequest};
use kwire_messages::{ApiKey, ErrorCode};
use kwire_net::client::Connection;
use kwire_tests::kafka_peer::report::Report;

use crate::support::{
    batch, by_name_or_id, common_versions, create_topic, data_records, ensure, fetch_all, no_error,
    produce, unique, values, values_of, Failure, Outcome, Topic,
};

/// Records per Produce.
const PER_BATCH: usize = 3;

pub async fn run(kafka: &Connection, report: &mut Report, run: &str) {
    let name = unique("versions", run);
    let mut topic = None;
    report.record(
        "topics",
        "CreateTopics gives the id Metadata gives",
        async {
            let created = create_topic(kafka, &name, 1, &[]).await?;
            let seen = format!("{} has id {}", name, created.id);
            topic = Some(created);
            Ok::<_, Failure>(seen)
        }
        .await,
    );
    let Some(topic) = topic else { return };
    report.record(
        "topics",
        "CreateTopics of an existing topic",
        existing_topic(kafka, &topic).await,
    );
    let Ok(produce_versions) = common_versions(kafka, ApiKey::Produce) else {
        report.record::<&str>("produce", "versions", Err("Produce not negotiated"));
        return;
    };
    let mut expected = Vec::new();
    for version in produce_versions {
        let outcome = produce_at(kafka, &topic, version, &mut expected).await;
        report.record("produce", &format!("Produce v{version}"), outcome);
    }
    let outcome = unanswered(kafka, &topic, &mut expected).await;
    report.record(
        "produce",
        "Produce acks=0: nothing awaited, stored",
        outcome,
    );
    let Ok(fetch_versions) = common_versions(kafka, ApiKey::Fetch) else {
        report.record::<&str>("fetch", "versions", Err("Fetch not negotiated"));
        return;
    };
    for version in fetch_versions {
        let outcome = fetch_at(kafka, &topic, version, &expected).await;
        report.record("fetch", &format!("Fetch v{version}"), outcome);
    }
}

/// Kafka answers TOPIC_ALREADY_EXISTS, and (v7) no id: the id of a topic that is
/// there comes from Metadata only.
async fn existing_topic(kafka: &Connection, topic: &Topic) -> Outcome {
    let again = CreatableTopic::default()
        .with_name(topic.name.clone())
        .with_num_partitions(1)
        .with_replication_factor(1);
    let answer = kafka
        .send(CreateTopicsRequest::default().with_topics(vec![again]))
        .await?;
    let result = answer
        .topics
        .first()
        .ok_or("CreateTopics answered no topic")?;
    let code = ErrorCode::from_code(result.error_code);
    ensure!(
        code == ErrorCode::TopicAlreadyExists,
        "CreateTopics answered {code:?} for a topic that exists"
    );
    let version = kafka.version(ApiKey::CreateTopics)?;
    ensure!(
        result.topic_id == Uuid::ZERO,
        "CreateTopics v{version} gave the existing topic the id {} (Metadata: {})",
        result.topic_id,
        topic.id
    );
    Ok(format!(
        "v{version}: TOPIC_ALREADY_EXISTS, topic_id {} (the id is Metadata's {})",
        result.topic_id, topic.id
    ))
}

async fn produce_at(
    kafka: &Connection,
    topic: &Topic,
    version: i16,
    expected: &mut Vec<String>,
) -> Outcome {
    let sent = values(&format!("produce-v{version}"), PER_BATCH);
    let records = batch(&sent, Compression::None, 1_700_000_000_000)?;
    let answer = produce(kafka, version, topic, 0, records, None).await?;
    no_error(&format!("Produce v{version}"), answer.error_code)?;
    let want = expected.len() as i64;
    ensure!(
        answer.base_offset == want,
        "Produce v{version} wrote at offset {}, expected {want}",
        answer.base_offset
    );
    expected.extend(sent);
    let by = if version >= 13 { "id" } else { "name" };
    Ok(format!(
        "{PER_BATCH} records at offset {want}, topic by {by}"
    ))
}

/// Kafka answers nothing to a Produce with acks=0: the client must not wait for
/// an answer (it would time out and close the connection), and the records are
/// there for the Fetch after.
async fn unanswered(kafka: &Connection, topic: &Topic, expected: &mut Vec<String>) -> Outcome {
    let version = kafka.version(ApiKey::Produce)?;
    let sent = values("produce-acks0", PER_BATCH);
    let (name, id) = by_name_or_id(topic, version);
    let request = ProduceRequest::default()
        .with_acks(0)
        .with_timeout_ms(10_000)
        .with_topic_data(vec![TopicProduceData::default()
            .with_name(name)
            .with_topic_id(id)
            .with_partition_data(vec![PartitionProduceData::default()
                .with_index(0)
                .with_records(Some(Records(batch(&sent, Compression::None, 0)?)))])]);
    let started = std::time::Instant::now();
    let answer = kafka.send(request).await?;
    let waited = started.elapsed();
    ensure!(
        answer.responses.is_empty(),
        "an answer to acks=0: {answer:?}"
    );
    let end = (expected.len() + sent.len()) as i64;
    let fetched = fetch_all(kafka, kafka.version(ApiKey::Fetch)?, topic, 0, 0, end).await?;
    let read = values_of(&data_records(&fetched.records)?);
    ensure!(
        read.ends_with(&sent),
        "the acks=0 records are not in the log"
    );
    expected.extend(sent);
    Ok(format!(
        "v{version}: returned after {} ms, the {PER_BATCH} records at offset {}",
        waited.as_millis(),
        end - PER_BATCH as i64
    ))
}

async fn fetch_at(kafka: &Connection, topic: &Topic, version: i16, expected: &[String]) -> Outcome {
    let answer = fetch_all(kafka, version, topic, 0, 0, expected.len() as i64).await?;
    let read = data_records(&answer.records)?;
    let offsets: Vec<i64> = read.iter().map(|record| record.offset).collect();
    let want: Vec<i64> = (0..expected.len() as i64).collect();
    ensure!(offsets == want, "Fetch v{version} read offsets {offsets:?}");
    ensure!(
        values_of(&read) == expected,
        "Fetch v{version} read {:?}, expected {expected:?}",
        values_of(&read)
    );
    let keys_ok = read.iter().all(|record| {
        record
            .key
            .as_deref()
            .is_some_and(|key| key.starts_with('k'))
    });
    ensure!(keys_ok, "Fetch v{version} read a record without its key");
    ensure!(
        answer.high_watermark == expected.len() as i64,
        "Fetch v{version}: high watermark {}, expected {}",
        answer.high_watermark,
        expected.len()
    );
    Ok(format!(
        "{} records, offsets 0-{}, values, keys and headers as produced",
        read.len(),
        read.len().saturating_sub(1)
    ))
}
