//! DeleteShareGroupOffsets (API key 92): deletes the offsets of topics from an empty
//! share group, for admin clients.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// DeleteShareGroupOffsets request: the group and the topics whose offsets to delete.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 92, kind = request, response = DeleteShareGroupOffsetsResponse, versions = "0",
        flexible = "0+", listeners = "broker")]
pub struct DeleteShareGroupOffsetsRequest {
    /// The group identifier.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The topics to delete offsets for.
    #[kafka(versions = "0+")]
    pub topics: Vec<DeleteShareGroupOffsetsRequestTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic whose offsets to delete.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeleteShareGroupOffsetsRequestTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DeleteShareGroupOffsets response: the outcome for the group and each topic.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 92, kind = response, versions = "0", flexible = "0+")]
pub struct DeleteShareGroupOffsetsResponse {
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
    pub responses: Vec<DeleteShareGroupOffsetsResponseTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The result for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeleteShareGroupOffsetsResponseTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The unique topic ID.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The topic-level error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The topic-level error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
