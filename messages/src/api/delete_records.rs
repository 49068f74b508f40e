//! DeleteRecords (API key 21): deletes the records of partitions below given offsets.

use kwire::{KafkaString, UnknownTaggedFields};

/// DeleteRecords request: asks partition leaders to delete records before offsets.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 21, kind = request, response = DeleteRecordsResponse, versions = "0-2",
        flexible = "2+", listeners = "broker")]
pub struct DeleteRecordsRequest {
    /// Each topic that we want to delete records from.
    #[kafka(versions = "0+")]
    pub topics: Vec<DeleteRecordsTopic>,
    /// How long to wait for the deletion to complete, in milliseconds.
    #[kafka(versions = "0+")]
    pub timeout_ms: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic to delete records from.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeleteRecordsTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// Each partition that we want to delete records from.
    #[kafka(versions = "0+")]
    pub partitions: Vec<DeleteRecordsPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A partition to delete records from, and the offset to delete up to.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeleteRecordsPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The deletion offset. -1 means that records should be truncated to the high
    /// watermark.
    #[kafka(versions = "0+")]
    pub offset: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DeleteRecords response: the new low watermark or error of each partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 21, kind = response, versions = "0-2", flexible = "2+")]
pub struct DeleteRecordsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// Each topic that we wanted to delete records from.
    #[kafka(versions = "0+")]
    pub topics: Vec<DeleteRecordsTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of deleting records from one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeleteRecordsTopicResult {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// Each partition that we wanted to delete records from.
    #[kafka(versions = "0+")]
    pub partitions: Vec<DeleteRecordsPartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of deleting records from one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeleteRecordsPartitionResult {
    /// The partition index.
    #[kafka(versions = "0+", map_key)]
    pub partition_index: i32,
    /// The partition low water mark.
    #[kafka(versions = "0+")]
    pub low_watermark: i64,
    /// The deletion error code, or 0 if the deletion succeeded.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
