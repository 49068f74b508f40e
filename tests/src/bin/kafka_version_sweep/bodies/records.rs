//! Requests about records and where they are: Produce, Fetch, ListOffsets,
//! Metadata, OffsetForLeaderEpoch, DeleteRecords, DescribeProducers,
//! DescribeTopicPartitions.

use kwire::records::RecordBatchBuilder;
use kwire::{KafkaString, Records, Uuid};
use kwire_messages::api::{
    delete_records, describe_producers, describe_topic_partitions, fetch, list_offsets, metadata,
    offset_for_leader_epoch, produce, DeleteRecordsRequest, DescribeProducersRequest,
    DescribeTopicPartitionsRequest, FetchRequest, ListOffsetsRequest, MetadataRequest,
    OffsetForLeaderEpochRequest, ProduceRequest,
};
use kwire_messages::Request;

use crate::values::Values;

/// The topic as Produce and Fetch name it at `version`: by name to v12, by id
/// from v13.
fn topic_at(values: &Values, version: i16) -> (KafkaString, Uuid) {
    if version >= 13 {
        (KafkaString::default(), values.topic.id)
    } else {
        (values.topic.name.clone(), Uuid::ZERO)
    }
}

/// One record, acks=-1, to the topic's partition 1 (partition 0 keeps the
/// three records the other requests read).
pub fn produce(values: &Values, version: i16) -> Request {
    let mut batch = RecordBatchBuilder::new(0);
    let value = format!("sweep-v{version}");
    let records = batch
        .append(0, None, Some(value.as_bytes()), &[])
        .and_then(|()| batch.build())
        .unwrap_or_default();
    let (name, id) = topic_at(values, version);
    ProduceRequest::default()
        .with_acks(-1)
        .with_timeout_ms(10_000)
        .with_topic_data(vec![produce::TopicProduceData::default()
            .with_name(name)
            .with_topic_id(id)
            .with_partition_data(vec![produce::PartitionProduceData::default()
                .with_index(1)
                .with_records(Some(Records(records)))])])
        .into()
}

pub fn fetch(values: &Values, version: i16) -> Request {
    let (name, id) = topic_at(values, version);
    FetchRequest::default()
        .with_max_wait_ms(0)
        .with_min_bytes(1)
        .with_topics(vec![fetch::FetchTopic::default()
            .with_topic(name)
            .with_topic_id(id)
            .with_partitions(vec![fetch::FetchPartition::default()
                .with_partition(0)
                .with_fetch_offset(0)
                .with_partition_max_bytes(1 << 20)])])
        .into()
}

pub fn list_offsets(values: &Values, _version: i16) -> Request {
    ListOffsetsRequest::default()
        .with_replica_id(-1)
        .with_topics(vec![list_offsets::ListOffsetsTopic::default()
            .with_name(values.topic.name.clone())
            .with_partitions(vec![list_offsets::ListOffsetsPartition::default(
            )
            .with_partition_index(0)
            .with_timestamp(-1)])])
        .into()
}

/// The topic; from v4, without creating it (below, Kafka always may).
pub fn metadata(values: &Values, version: i16) -> Request {
    let request =
        MetadataRequest::default()
            .with_topics(Some(vec![metadata::MetadataRequestTopic::default()
                .with_name(Some(values.topic.name.clone()))]));
    if version >= 4 {
        request.with_allow_auto_topic_creation(false)
    } else {
        request
    }
    .into()
}

pub fn offset_for_leader_epoch(values: &Values, version: i16) -> Request {
    // From v3 a consumer says so with replica id -1 (the default, -2, is "absent").
    let request = if version >= 3 {
        OffsetForLeaderEpochRequest::default().with_replica_id(-1)
    } else {
        OffsetForLeaderEpochRequest::default()
    };
    request
        .with_topics(vec![
            offset_for_leader_epoch::OffsetForLeaderTopic::default()
                .with_topic(values.topic.name.clone())
                .with_partitions(vec![
                    offset_for_leader_epoch::OffsetForLeaderPartition::default()
                        .with_partition(0)
                        .with_leader_epoch(0),
                ]),
        ])
        .into()
}

/// Deletes nothing: records before offset 0.
pub fn delete_records(values: &Values, _version: i16) -> Request {
    DeleteRecordsRequest::default()
        .with_timeout_ms(10_000)
        .with_topics(vec![delete_records::DeleteRecordsTopic::default()
            .with_name(values.topic.name.clone())
            .with_partitions(vec![
                delete_records::DeleteRecordsPartition::default()
                    .with_partition_index(0)
                    .with_offset(0),
            ])])
        .into()
}

pub fn describe_producers(values: &Values, _version: i16) -> Request {
    DescribeProducersRequest::default()
        .with_topics(vec![
            describe_producers::DescribeProducersRequestTopic::default()
                .with_name(values.topic.name.clone())
                .with_partition_indexes(vec![0, 1]),
        ])
        .into()
}

pub fn describe_topic_partitions(values: &Values, _version: i16) -> Request {
    DescribeTopicPartitionsRequest::default()
        .with_topics(vec![
            describe_topic_partitions::DescribeTopicPartitionsRequestTopic::default()
                .with_name(values.topic.name.clone()),
        ])
        .into()
}
