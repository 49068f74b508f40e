//! OffsetCommit (API key 8): commits consumed offsets for a consumer group.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// OffsetCommit request: commits offsets of topic partitions for a group.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 8, kind = request, response = OffsetCommitResponse, versions = "2-10",
        flexible = "8+", listeners = "broker")]
pub struct OffsetCommitRequest {
    /// The unique group identifier.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The generation of the group if using the classic group protocol or the member
    /// epoch if using the consumer protocol.
    #[kafka(versions = "1+", default = -1, ignorable)]
    pub generation_id_or_member_epoch: i32,
    /// The member ID assigned by the group coordinator.
    #[kafka(versions = "1+", ignorable)]
    pub member_id: KafkaString,
    /// The unique identifier of the consumer instance provided by end user.
    #[kafka(versions = "7+", nullable = "7+", default = null)]
    pub group_instance_id: Option<KafkaString>,
    /// The time period in ms to retain the offset.
    #[kafka(versions = "2-4", default = -1, ignorable)]
    pub retention_time_ms: i64,
    /// The topics to commit offsets for.
    #[kafka(versions = "0+")]
    pub topics: Vec<OffsetCommitRequestTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic whose partition offsets are committed.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetCommitRequestTopic {
    /// The topic name.
    #[kafka(versions = "0-9", ignorable, entity_type = "topicName")]
    pub name: KafkaString,
    /// The topic ID.
    #[kafka(versions = "10+", ignorable)]
    pub topic_id: Uuid,
    /// Each partition to commit offsets for.
    #[kafka(versions = "0+")]
    pub partitions: Vec<OffsetCommitRequestPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One partition's offset to commit.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetCommitRequestPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The message offset to be committed.
    #[kafka(versions = "0+")]
    pub committed_offset: i64,
    /// The leader epoch of this partition.
    #[kafka(versions = "6+", default = -1, ignorable)]
    pub committed_leader_epoch: i32,
    /// Any associated metadata the client wants to keep.
    #[kafka(versions = "0+", nullable = "0+")]
    pub committed_metadata: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// OffsetCommit response: the outcome of the commit, per topic partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 8, kind = response, versions = "2-10", flexible = "8+")]
pub struct OffsetCommitResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "3+", ignorable)]
    pub throttle_time_ms: i32,
    /// The responses for each topic.
    #[kafka(versions = "0+")]
    pub topics: Vec<OffsetCommitResponseTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The commit outcome for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetCommitResponseTopic {
    /// The topic name.
    #[kafka(versions = "0-9", ignorable, entity_type = "topicName")]
    pub name: KafkaString,
    /// The topic ID.
    #[kafka(versions = "10+", ignorable)]
    pub topic_id: Uuid,
    /// The responses for each partition in the topic.
    #[kafka(versions = "0+")]
    pub partitions: Vec<OffsetCommitResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The commit outcome for one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OffsetCommitResponsePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
