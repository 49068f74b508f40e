//! DeleteTopics (API key 20): deletes topics, by name or, from version 6, by topic ID.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// DeleteTopics request: asks the cluster to delete topics.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 20, kind = request, response = DeleteTopicsResponse, versions = "1-6",
        flexible = "4+", listeners = "broker, controller")]
pub struct DeleteTopicsRequest {
    /// The name or topic ID of the topic.
    #[kafka(versions = "6+")]
    pub topics: Vec<DeleteTopicState>,
    /// The names of the topics to delete.
    #[kafka(versions = "0-5", entity_type = "topicName", ignorable)]
    pub topic_names: Vec<KafkaString>,
    /// The length of time in milliseconds to wait for the deletions to complete.
    #[kafka(versions = "0+")]
    pub timeout_ms: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic to delete, named or identified by its ID.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeleteTopicState {
    /// The topic name.
    #[kafka(versions = "6+", nullable = "6+", default = null, entity_type = "topicName")]
    pub name: Option<KafkaString>,
    /// The unique topic ID.
    #[kafka(versions = "6+")]
    pub topic_id: Uuid,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DeleteTopics response: the outcome for each topic.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 20, kind = response, versions = "1-6", flexible = "4+")]
pub struct DeleteTopicsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "1+", ignorable)]
    pub throttle_time_ms: i32,
    /// The results for each topic we tried to delete.
    #[kafka(versions = "0+")]
    pub responses: Vec<DeletableTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of deleting one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeletableTopicResult {
    /// The topic name.
    #[kafka(versions = "0+", nullable = "6+", map_key, entity_type = "topicName")]
    pub name: Option<KafkaString>,
    /// The unique topic ID.
    #[kafka(versions = "6+", ignorable)]
    pub topic_id: Uuid,
    /// The deletion error, or 0 if the deletion succeeded.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "5+", nullable = "5+", ignorable, default = null)]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
