//! ListOffsets at every version both sides know, on a partition holding three
//! records one second apart: the earliest offset, the latest, the first offset
//! at or after a timestamp (with that record's timestamp), and from v7 the
//! record with the largest timestamp, from v8 the earliest local offset.

use kwire::records::RecordBatchBuilder;
use kwire_messages::api::list_offsets::{ListOffsetsPartition, ListOffsetsTopic};
use kwire_messages::api::ListOffsetsRequest;
use kwire_messages::ApiKey;
use kwire_net::client::Connection;
use kwire_tests::kafka_peer::report::Report;

use crate::support::{
    common_versions, create_topic, ensure, no_error, produce, unique, Failure, Outcome, Topic,
};

/// ListOffsets' special timestamps.
const LATEST: i64 = -1;
const EARLIEST: i64 = -2;
const MAX_TIMESTAMP: i64 = -3;
const EARLIEST_LOCAL: i64 = -4;

pub async fn run(kafka: &Connection, report: &mut Report, run: &str) {
    let base = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as i64)
        - 10_000;
    let topic = match setup(kafka, run, base).await {
        Ok(topic) => topic,
        Err(error) => {
            report.record("offsets", "three records one second apart", Err(error));
            return;
        }
    };
    let versions = match common_versions(kafka, ApiKey::ListOffsets) {
        Ok(versions) => versions,
        Err(error) => {
            report.record("offsets", "ListOffsets", Err(error));
            return;
        }
    };
    for version in versions {
        report.record(
            "offsets",
            &format!("ListOffsets v{version}"),
            at_version(kafka, &topic, version, base).await,
        );
    }
}

async fn setup(kafka: &Connection, run: &str, base: i64) -> Result<Topic, Failure> {
    let topic = create_topic(kafka, &unique("offsets", run), 1, &[]).await?;
    let mut batch = RecordBatchBuilder::new(0);
    for (index, value) in ["first", "second", "third"].iter().enumerate() {
        batch.append(
            base + 1_000 * index as i64,
            None,
            Some(value.as_bytes()),
            &[("by", Some(b"kwire"))],
        )?;
    }
    let version = kafka.version(ApiKey::Produce)?;
    let answer = produce(kafka, version, &topic, 0, batch.build()?, None).await?;
    no_error("Produce", answer.error_code)?;
    Ok(topic)
}

/// The offset (and timestamp) ListOffsets gives for `timestamp` at `version`.
async fn offset_for(
    kafka: &Connection,
    topic: &Topic,
    version: i16,
    timestamp: i64,
) -> Result<(i64, i64), Failure> {
    let request = ListOffsetsRequest::default()
        .with_replica_id(-1)
        .with_topics(vec![ListOffsetsTopic::default()
            .with_name(topic.name.clone())
            .with_partitions(vec![ListOffsetsPartition::default()
                .with_partition_index(0)
                .with_timestamp(timestamp)])]);
    let answer = kafka.send_at(request, version).await?;
    let partition = answer
        .topics
        .iter()
        .filter(|answered| answered.name == topic.name)
        .flat_map(|answered| &answered.partitions)
        .find(|partition| partition.partition_index == 0)
        .ok_or("ListOffsets did not answer for the partition")?;
    no_error(
        &format!("ListOffsets v{version} at {timestamp}"),
        partition.error_code,
    )?;
    Ok((partition.offset, partition.timestamp))
}

async fn at_version(kafka: &Connection, topic: &Topic, version: i16, base: i64) -> Outcome {
    let earliest = offset_for(kafka, topic, version, EARLIEST).await?;
    ensure!(earliest.0 == 0, "earliest: offset {}", earliest.0);
    let latest = offset_for(kafka, topic, version, LATEST).await?;
    ensure!(latest.0 == 3, "latest: offset {}", latest.0);
    let between = offset_for(kafka, topic, version, base + 500).await?;
    ensure!(
        between == (1, base + 1_000),
        "at base + 500 ms: offset {} timestamp {}, expected offset 1 at base + 1000",
        between.0,
        between.1
    );
    let after = offset_for(kafka, topic, version, base + 5_000).await?;
    ensure!(after.0 == -1, "after the last record: offset {}", after.0);
    let mut seen =
        "earliest 0, latest 3, base+500 ms -> 1 (its timestamp), after the last -> -1".to_owned();
    if version >= 7 {
        let max = offset_for(kafka, topic, version, MAX_TIMESTAMP).await?;
        ensure!(
            max == (2, base + 2_000),
            "max timestamp: offset {} timestamp {}",
            max.0,
            max.1
        );
        seen += ", max timestamp -> 2";
    }
    if version >= 8 {
        let local = offset_for(kafka, topic, version, EARLIEST_LOCAL).await?;
        ensure!(local.0 == 0, "earliest local: offset {}", local.0);
        seen += ", earliest local 0";
    }
    Ok(seen)
}
