//! OffsetForLeaderEpoch (API key 23): finds the end offset of a leader epoch, for
//! log truncation after a leader change.

use kwire::{KafkaString, UnknownTaggedFields};

/// OffsetForLeaderEpoch request: asks for the end offset of leader epochs.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 23, kind = request, response = OffsetForLeaderEpochResponse, versions = "2-4",
        flexible = "4+", listeners = "broker")]
pub struct OffsetForLeaderEpochRequest {
    /// The broker ID of the follower, of -1 if this request is from a consumer.
    #[kafka(versions = "3+", default = -2, ignorable, entity_type = "brokerId")]
    pub replica_id: i32,
    /// Each topic to get offsets for.
    #[kafka(versions = "0+")]
    pub topics: Vec<OffsetForLeaderTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic to look up leader epoch end offsets in.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetForLeaderTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName", map_key)]
    pub topic: KafkaString,
    /// Each partition to get offsets for.
    #[kafka(versions = "0+")]
    pub partitions: Vec<OffsetForLeaderPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A partition and the leader epoch to look up in it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetForLeaderPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition: i32,
    /// An epoch used to fence consumers/replicas with old metadata. If the epoch
    /// provided by the client is larger than the current epoch known to the broker, then
    /// the UNKNOWN_LEADER_EPOCH error code will be returned. If the provided epoch is
    /// smaller, then the FENCED_LEADER_EPOCH error code will be returned.
    #[kafka(versions = "2+", default = -1, ignorable)]
    pub current_leader_epoch: i32,
    /// The epoch to look up an offset for.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// OffsetForLeaderEpoch response: the end offset of each requested epoch.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 23, kind = response, versions = "2-4", flexible = "4+")]
pub struct OffsetForLeaderEpochResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "2+", ignorable)]
    pub throttle_time_ms: i32,
    /// Each topic we fetched offsets for.
    #[kafka(versions = "0+")]
    pub topics: Vec<OffsetForLeaderTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The epoch end offsets found in one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetForLeaderTopicResult {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName", map_key)]
    pub topic: KafkaString,
    /// Each partition in the topic we fetched offsets for.
    #[kafka(versions = "0+")]
    pub partitions: Vec<EpochEndOffset>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The end offset of a leader epoch in one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct EpochEndOffset {
    /// The error code 0, or if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition: i32,
    /// The leader epoch of the partition.
    #[kafka(versions = "1+", default = -1, ignorable)]
    pub leader_epoch: i32,
    /// The end offset of the epoch.
    #[kafka(versions = "0+", default = -1)]
    pub end_offset: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
