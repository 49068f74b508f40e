//! What the checks share: record batches made and read back, Produce and Fetch
//! at a chosen version (by name below v13, by id from v13); and, from the
//! library, topics created and identified and the versions both sides know.

use bytes::Bytes;
use kwire::records::{Batches, Compression, RecordBatchBuilder};
use kwire::{KafkaString, Records, Uuid};
use kwire_messages::api::fetch::{FetchPartition, FetchTopic, PartitionData};
use kwire_messages::api::produce::{
    PartitionProduceData, PartitionProduceResponse, TopicProduceData,
};
use kwire_messages::api::{FetchRequest, ProduceRequest};
use kwire_net::client::Connection;

pub use kwire_tests::kafka_peer::setup::{
    common_versions, create_topic, no_error, retried, topic_id, unique, until, Failure, Topic,
};

/// A check's result: what was seen when it held.
pub type Outcome = Result<String, Failure>;

/// Fails the check with the message unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($message:tt)+) => {
        if !$cond {
            return Err(format!($($message)+).into());
        }
    };
}
pub(crate) use ensure;

/// The first version from which Produce and Fetch name topics by id only.
pub const TOPIC_ID_VERSION: i16 = 13;

/// One batch of records with the values given, keys `k0`, `k1`, ... and a header,
/// compressed with `compression`, timestamps from `timestamp` one millisecond
/// apart.
pub fn batch(
    values: &[String],
    compression: Compression,
    timestamp: i64,
) -> Result<Bytes, Failure> {
    let mut builder = RecordBatchBuilder::new(0).compression(compression);
    for (index, value) in values.iter().enumerate() {
        let key = format!("k{index}");
        builder.append(
            timestamp + index as i64,
            Some(key.as_bytes()),
            Some(value.as_bytes()),
            &[("by", Some(b"kwire"))],
        )?;
    }
    Ok(builder.build()?)
}

/// `count` values `PREFIX-0`, `PREFIX-1`, ...
pub fn values(prefix: &str, count: usize) -> Vec<String> {
    (0..count)
        .map(|index| format!("{prefix}-{index}"))
        .collect()
}

/// The topic's entry in a Produce or Fetch at `version`: named below v13, by id
/// from v13.
pub fn by_name_or_id(topic: &Topic, version: i16) -> (KafkaString, Uuid) {
    if version >= TOPIC_ID_VERSION {
        (KafkaString::default(), topic.id)
    } else {
        (topic.name.clone(), Uuid::ZERO)
    }
}

/// Produces `records` to the topic's `partition` at `version` with acks=-1, as
/// `transactional_id` when given; the partition's answer, after checking that it
/// names the topic and partition sent.
pub async fn produce(
    kafka: &Connection,
    version: i16,
    topic: &Topic,
    partition: i32,
    records: Bytes,
    transactional_id: Option<&str>,
) -> Result<PartitionProduceResponse, Failure> {
    let (name, id) = by_name_or_id(topic, version);
    let request = ProduceRequest::default()
        .with_transactional_id(transactional_id.map(KafkaString::from))
        .with_acks(-1)
        .with_timeout_ms(10_000)
        .with_topic_data(vec![TopicProduceData::default()
            .with_name(name.clone())
            .with_topic_id(id)
            .with_partition_data(vec![PartitionProduceData::default()
                .with_index(partition)
                .with_records(Some(Records(records)))])]);
    let answer = kafka.send_at(request, version).await?;
    ensure!(
        answer.responses.len() == 1,
        "Produce v{version} answered {} topics",
        answer.responses.len()
    );
    let topic_answer = &answer.responses[0];
    ensure!(
        topic_answer.name == name && topic_answer.topic_id == id,
        "Produce v{version} answered for topic {:?} / {}, sent {:?} / {id}",
        topic_answer.name.as_str(),
        topic_answer.topic_id,
        name.as_str()
    );
    let [partition_answer] = &topic_answer.partition_responses[..] else {
        return Err(format!(
            "Produce v{version} answered {} partitions",
            topic_answer.partition_responses.len()
        )
        .into());
    };
    ensure!(
        partition_answer.index == partition,
        "Produce v{version} answered partition {}, sent {partition}",
        partition_answer.index
    );
    Ok(partition_answer.clone())
}

/// Fetches the topic's `partition` from `offset` at `version`, with `isolation`
/// (0 read uncommitted, 1 read committed); the partition's answer, after
/// checking that it names the topic and partition asked for.
pub async fn fetch(
    kafka: &Connection,
    version: i16,
    topic: &Topic,
    partition: i32,
    offset: i64,
    isolation: i8,
) -> Result<PartitionData, Failure> {
    let (name, id) = by_name_or_id(topic, version);
    let request = FetchRequest::default()
        .with_max_wait_ms(100)
        .with_min_bytes(1)
        .with_isolation_level(isolation)
        .with_topics(vec![FetchTopic::default()
            .with_topic(name.clone())
            .with_topic_id(id)
            .with_partitions(vec![FetchPartition::default()
                .with_partition(partition)
                .with_fetch_offset(offset)
                .with_partition_max_bytes(4 << 20)])]);
    let answer = kafka.send_at(request, version).await?;
    no_error(&format!("Fetch v{version}"), answer.error_code)?;
    let [topic_answer] = &answer.responses[..] else {
        return Err(format!(
            "Fetch v{version} answered {} topics",
            answer.responses.len()
        )
        .into());
    };
    ensure!(
        topic_answer.topic == name && topic_answer.topic_id == id,
        "Fetch v{version} answered for topic {:?} / {}, asked {:?} / {id}",
        topic_answer.topic.as_str(),
        topic_answer.topic_id,
        name.as_str()
    );
    let [partition_answer] = &topic_answer.partitions[..] else {
        return Err(format!(
            "Fetch v{version} answered {} partitions",
            topic_answer.partitions.len()
        )
        .into());
    };
    ensure!(
        partition_answer.partition_index == partition,
        "Fetch v{version} answered partition {}, asked {partition}",
        partition_answer.partition_index
    );
    no_error(&format!("Fetch v{version}"), partition_answer.error_code)?;
    Ok(partition_answer.clone())
}

/// A partition's log as fetched to a given end: its batches in order, the
/// aborted transactions the answers listed, and the last answer's watermarks.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The record batches, as Kafka sent them.
    pub records: Option<Records>,
    /// Each aborted transaction's producer id and first offset.
    pub aborted: Vec<(i64, i64)>,
    /// The high watermark, from the last answer.
    pub high_watermark: i64,
    /// The last stable offset, from the last answer.
    pub last_stable_offset: i64,
}

/// Fetches the partition at `version` from offset 0 until `end` (exclusive), as
/// a consumer does: Kafka answers from one log segment at a time, so each Fetch
/// goes on from the offset after the last whole batch of the one before. A read
/// that brings nothing new (markers not yet written, a read-committed fetch
/// before the last stable offset moved) is asked again 50 ms later, 100 times
/// at most.
pub async fn fetch_all(
    kafka: &Connection,
    version: i16,
    topic: &Topic,
    partition: i32,
    isolation: i8,
    end: i64,
) -> Result<Fetched, Failure> {
    let mut bytes = bytes::BytesMut::new();
    let mut aborted = Vec::new();
    let mut offset = 0;
    let mut idle = 0;
    loop {
        let answer = fetch(kafka, version, topic, partition, offset, isolation).await?;
        let before = offset;
        let mut batches = Batches::new(answer.records.clone().unwrap_or_default().0);
        for batch in &mut batches {
            let batch = batch?;
            // A segment's first batch may start below the offset asked.
            if batch.last_offset() >= offset {
                bytes.extend_from_slice(batch.as_bytes());
                offset = batch.last_offset() + 1;
            }
        }
        for listed in answer.aborted_transactions.iter().flatten() {
            let entry = (listed.producer_id, listed.first_offset);
            if !aborted.contains(&entry) {
                aborted.push(entry);
            }
        }
        if offset >= end {
            return Ok(Fetched {
                records: Some(Records(bytes.freeze())),
                aborted,
                high_watermark: answer.high_watermark,
                last_stable_offset: answer.last_stable_offset,
            });
        }
        if offset == before {
            idle += 1;
            ensure!(
                idle < 100,
                "Fetch v{version} stopped at offset {offset} of {end} (high watermark {}, last stable {})",
                answer.high_watermark,
                answer.last_stable_offset
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

/// A record read back: its offset, key and value, and its batch's codec and
/// flags.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The record's offset.
    pub offset: i64,
    /// Its key.
    pub key: Option<String>,
    /// Its value.
    pub value: Option<String>,
    /// Its batch's codec.
    pub compression: Compression,
    /// Its batch's producer id.
    pub producer_id: i64,
}

/// The data records of a fetched partition (control batches left out), each
/// batch's CRC checked and its `by` header checked to be `kwire`.
pub fn data_records(records: &Option<Records>) -> Result<Vec<Read>, Failure> {
    let mut read = Vec::new();
    let text = |bytes: Option<&[u8]>| bytes.map(|b| String::from_utf8_lossy(b).into_owned());
    let bytes = records.clone().unwrap_or_default().0;
    for batch in Batches::new(bytes) {
        let batch = batch?;
        batch.verify_crc()?;
        if batch.is_control() {
            continue;
        }
        for record in batch.records()? {
            let record = record?;
            let header = record.headers.get("by");
            ensure!(
                header == Some(Some(&b"kwire"[..])),
                "record at {} has the header {header:?}, not by=kwire",
                record.offset
            );
            read.push(Read {
                offset: record.offset,
                key: text(record.key),
                value: text(record.value),
                compression: batch.compression()?,
                producer_id: batch.producer_id(),
            });
        }
    }
    Ok(read)
}

/// The values of `read`, in order.
pub fn values_of(read: &[Read]) -> Vec<String> {
    read.iter()
        .map(|record| record.value.clone().unwrap_or_default())
        .collect()
}
