//! AlterShareGroupOffsets (API key 91): sets the start offsets of an empty share
//! group's share-partitions, for admin clients.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// AlterShareGroupOffsets request: the group and each partition's new start offset.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 91, kind = request, response = AlterShareGroupOffsetsResponse, versions = "0",
        flexible = "0+", listeners = "broker")]
pub struct AlterShareGroupOffsetsRequest {
    /// The group identifier.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The topics to alter offsets for.
    #[kafka(versions = "0+")]
    pub topics: Vec<AlterShareGroupOffsetsRequestTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic whose share-partition start offsets to alter.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterShareGroupOffsetsRequestTopic {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// Each partition to alter offsets for.
    #[kafka(versions = "0+")]
    pub partitions: Vec<AlterShareGroupOffsetsRequestPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A partition and its new share-partition start offset.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterShareGroupOffsetsRequestPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The share-partition start offset.
    #[kafka(versions = "0+")]
    pub start_offset: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AlterShareGroupOffsets response: the outcome for the group and each partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 91, kind = response, versions = "0", flexible = "0+")]
pub struct AlterShareGroupOffsetsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The top-level error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// The results for each topic.
    #[kafka(versions = "0+")]
    pub responses: Vec<AlterShareGroupOffsetsResponseTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The results for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterShareGroupOffsetsResponseTopic {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The unique topic ID.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    // Kafka's schema gives this field no `about`, so it has no doc.
    #[allow(missing_docs)]
    #[kafka(versions = "0+")]
    pub partitions: Vec<AlterShareGroupOffsetsResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The result for one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterShareGroupOffsetsResponsePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
