//! ListOffsets (API key 2): finds partition offsets by timestamp (earliest, latest, …).

use kwire::{KafkaString, UnknownTaggedFields};

/// ListOffsets request: the partitions and timestamps to look offsets up for.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 2, kind = request, response = ListOffsetsResponse, versions = "1-11",
        flexible = "6+", listeners = "broker")]
pub struct ListOffsetsRequest {
    /// The broker ID of the requester, or -1 if this request is being made by a normal
    /// consumer.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub replica_id: i32,
    /// This setting controls the visibility of transactional records. Using
    /// READ_UNCOMMITTED (isolation_level = 0) makes all records visible. With
    /// READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED
    /// transactional records are visible. To be more concrete, READ_COMMITTED returns
    /// all data from offsets smaller than the current LSO (last stable offset), and
    /// enables the inclusion of the list of aborted transactions in the result, which
    /// allows consumers to discard ABORTED transactional records.
    #[kafka(versions = "2+")]
    pub isolation_level: i8,
    /// Each topic in the request.
    #[kafka(versions = "0+")]
    pub topics: Vec<ListOffsetsTopic>,
    /// The timeout to await a response in milliseconds for requests that require
    /// reading from remote storage for topics enabled with tiered storage.
    #[kafka(versions = "10+", ignorable)]
    pub timeout_ms: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One topic to look offsets up in.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ListOffsetsTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// Each partition in the request.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ListOffsetsPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One partition and the timestamp to look its offset up for.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ListOffsetsPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The current leader epoch.
    #[kafka(versions = "4+", default = -1, ignorable)]
    pub current_leader_epoch: i32,
    /// The current timestamp.
    #[kafka(versions = "0+")]
    pub timestamp: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ListOffsets response: the offset found for each partition, or why not.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 2, kind = response, versions = "1-11", flexible = "6+")]
pub struct ListOffsetsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "2+", ignorable)]
    pub throttle_time_ms: i32,
    /// Each topic in the response.
    #[kafka(versions = "0+")]
    pub topics: Vec<ListOffsetsTopicResponse>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The offsets found in one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ListOffsetsTopicResponse {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// Each partition in the response.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ListOffsetsPartitionResponse>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The offset found in one partition, with its timestamp and leader epoch.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ListOffsetsPartitionResponse {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The partition error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The timestamp associated with the returned offset.
    #[kafka(versions = "1+", default = -1)]
    pub timestamp: i64,
    /// The returned offset.
    #[kafka(versions = "1+", default = -1)]
    pub offset: i64,
    /// The leader epoch associated with the returned offset.
    #[kafka(versions = "4+", default = -1)]
    pub leader_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
