//! OffsetFetch (API key 9): reads the committed offsets of consumer groups.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// OffsetFetch request: asks for the committed offsets of one or more groups.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 9, kind = request, response = OffsetFetchResponse, versions = "1-10",
        flexible = "6+", listeners = "broker")]
pub struct OffsetFetchRequest {
    /// The group to fetch offsets for.
    #[kafka(versions = "0-7", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// Each topic we would like to fetch offsets for, or null to fetch offsets for all
    /// topics.
    #[kafka(versions = "0-7", nullable = "2-7")]
    pub topics: Option<Vec<OffsetFetchRequestTopic>>,
    /// Each group we would like to fetch offsets for.
    #[kafka(versions = "8+")]
    pub groups: Vec<OffsetFetchRequestGroup>,
    /// Whether broker should hold on returning unstable offsets but set a retriable
    /// error code for the partitions.
    #[kafka(versions = "7+", default = false)]
    pub require_stable: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic whose offsets are wanted (versions before groups were batched).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetFetchRequestTopic {
    /// The topic name.
    #[kafka(versions = "0-7", entity_type = "topicName")]
    pub name: KafkaString,
    /// The partition indexes we would like to fetch offsets for.
    #[kafka(versions = "0-7")]
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A group whose offsets are wanted.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetFetchRequestGroup {
    /// The group ID.
    #[kafka(versions = "8+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The member id.
    #[kafka(versions = "9+", nullable = "9+", default = null, ignorable)]
    pub member_id: Option<KafkaString>,
    /// The member epoch if using the new consumer protocol (KIP-848).
    #[kafka(versions = "9+", default = -1, ignorable)]
    pub member_epoch: i32,
    /// Each topic we would like to fetch offsets for, or null to fetch offsets for all
    /// topics.
    #[kafka(versions = "8+", nullable = "8+")]
    pub topics: Option<Vec<OffsetFetchRequestTopics>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic whose offsets are wanted, within a group.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetFetchRequestTopics {
    /// The topic name.
    #[kafka(versions = "8-9", ignorable, entity_type = "topicName")]
    pub name: KafkaString,
    /// The topic ID.
    #[kafka(versions = "10+", ignorable)]
    pub topic_id: Uuid,
    /// The partition indexes we would like to fetch offsets for.
    #[kafka(versions = "8+")]
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// OffsetFetch response: the committed offsets, per group, topic and partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 9, kind = response, versions = "1-10", flexible = "6+")]
pub struct OffsetFetchResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "3+", ignorable)]
    pub throttle_time_ms: i32,
    /// The responses per topic.
    #[kafka(versions = "0-7")]
    pub topics: Vec<OffsetFetchResponseTopic>,
    /// The top-level error code, or 0 if there was no error.
    #[kafka(versions = "2-7", default = 0, ignorable)]
    pub error_code: i16,
    /// The responses per group id.
    #[kafka(versions = "8+")]
    pub groups: Vec<OffsetFetchResponseGroup>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The committed offsets of one topic (versions before groups were batched).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetFetchResponseTopic {
    /// The topic name.
    #[kafka(versions = "0-7", entity_type = "topicName")]
    pub name: KafkaString,
    /// The responses per partition.
    #[kafka(versions = "0-7")]
    pub partitions: Vec<OffsetFetchResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The committed offset of one partition (versions before groups were batched).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetFetchResponsePartition {
    /// The partition index.
    #[kafka(versions = "0-7")]
    pub partition_index: i32,
    /// The committed message offset.
    #[kafka(versions = "0-7")]
    pub committed_offset: i64,
    /// The leader epoch.
    #[kafka(versions = "5-7", default = -1, ignorable)]
    pub committed_leader_epoch: i32,
    /// The partition metadata.
    #[kafka(versions = "0-7", nullable = "0-7")]
    pub metadata: Option<KafkaString>,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0-7")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The committed offsets of one group.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetFetchResponseGroup {
    /// The group ID.
    #[kafka(versions = "8+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The responses per topic.
    #[kafka(versions = "8+")]
    pub topics: Vec<OffsetFetchResponseTopics>,
    /// The group-level error code, or 0 if there was no error.
    #[kafka(versions = "8+", default = 0)]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The committed offsets of one topic, within a group.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetFetchResponseTopics {
    /// The topic name.
    #[kafka(versions = "8-9", ignorable, entity_type = "topicName")]
    pub name: KafkaString,
    /// The topic ID.
    #[kafka(versions = "10+", ignorable)]
    pub topic_id: Uuid,
    /// The responses per partition.
    #[kafka(versions = "8+")]
    pub partitions: Vec<OffsetFetchResponsePartitions>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The committed offset of one partition, within a group.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetFetchResponsePartitions {
    /// The partition index.
    #[kafka(versions = "8+")]
    pub partition_index: i32,
    /// The committed message offset.
    #[kafka(versions = "8+")]
    pub committed_offset: i64,
    /// The leader epoch.
    #[kafka(versions = "8+", default = -1, ignorable)]
    pub committed_leader_epoch: i32,
    /// The partition metadata.
    #[kafka(versions = "8+", nullable = "8+")]
    pub metadata: Option<KafkaString>,
    /// The partition-level error code, or 0 if there was no error.
    #[kafka(versions = "8+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
