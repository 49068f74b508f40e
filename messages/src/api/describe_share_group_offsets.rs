//! DescribeShareGroupOffsets (API key 90): reads the start offsets (and lag) of share
//! groups' share-partitions, for admin clients.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// DescribeShareGroupOffsets request: the groups and topics whose offsets to describe.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 90, kind = request, response = DescribeShareGroupOffsetsResponse,
        versions = "0-1", flexible = "0+", listeners = "broker")]
pub struct DescribeShareGroupOffsetsRequest {
    /// The groups to describe offsets for.
    #[kafka(versions = "0+")]
    pub groups: Vec<DescribeShareGroupOffsetsRequestGroup>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A share group whose offsets to describe.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeShareGroupOffsetsRequestGroup {
    /// The group identifier.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The topics to describe offsets for, or null for all topic-partitions.
    #[kafka(versions = "0+", nullable = "0+")]
    pub topics: Option<Vec<DescribeShareGroupOffsetsRequestTopic>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic and the partitions of it whose offsets to describe.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeShareGroupOffsetsRequestTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeShareGroupOffsets response: the offsets of each group's share-partitions.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 90, kind = response, versions = "0-1", flexible = "0+")]
pub struct DescribeShareGroupOffsetsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The results for each group.
    #[kafka(versions = "0+")]
    pub groups: Vec<DescribeShareGroupOffsetsResponseGroup>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The offsets of one share group, or why not.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeShareGroupOffsetsResponseGroup {
    /// The group identifier.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The results for each topic.
    #[kafka(versions = "0+")]
    pub topics: Vec<DescribeShareGroupOffsetsResponseTopic>,
    /// The group-level error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The group-level error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The offsets of one topic's share-partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeShareGroupOffsetsResponseTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The unique topic ID.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    // Kafka's schema gives this field no `about`, so it has no doc.
    #[allow(missing_docs)]
    #[kafka(versions = "0+")]
    pub partitions: Vec<DescribeShareGroupOffsetsResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The start offset, leader epoch and lag of one share-partition, or why not.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeShareGroupOffsetsResponsePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The share-partition start offset.
    #[kafka(versions = "0+")]
    pub start_offset: i64,
    /// The leader epoch of the partition.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// The share-partition lag.
    #[kafka(versions = "1+", default = -1, ignorable)]
    pub lag: i64,
    /// The partition-level error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The partition-level error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
