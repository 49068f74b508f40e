//! OffsetDelete (API key 47): deletes committed offsets of a consumer group.

use kwire::KafkaString;

/// OffsetDelete request: the group and the partitions whose offsets to delete.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 47, kind = request, response = OffsetDeleteResponse, versions = "0",
        listeners = "broker")]
pub struct OffsetDeleteRequest {
    /// The unique group identifier.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The topics to delete offsets for.
    #[kafka(versions = "0+")]
    pub topics: Vec<OffsetDeleteRequestTopic>,
}

/// A topic whose offsets to delete.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetDeleteRequestTopic {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// Each partition to delete offsets for.
    #[kafka(versions = "0+")]
    pub partitions: Vec<OffsetDeleteRequestPartition>,
}

/// A partition whose offset to delete.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetDeleteRequestPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
}

/// OffsetDelete response: the outcome for each partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 47, kind = response, versions = "0")]
pub struct OffsetDeleteResponse {
    /// The top-level error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+", ignorable)]
    pub throttle_time_ms: i32,
    /// The responses for each topic.
    #[kafka(versions = "0+")]
    pub topics: Vec<OffsetDeleteResponseTopic>,
}

/// The outcome for one topic's partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetDeleteResponseTopic {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The responses for each partition in the topic.
    #[kafka(versions = "0+")]
    pub partitions: Vec<OffsetDeleteResponsePartition>,
}

/// The outcome for one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetDeleteResponsePartition {
    /// The partition index.
    #[kafka(versions = "0+", map_key)]
    pub partition_index: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
}
