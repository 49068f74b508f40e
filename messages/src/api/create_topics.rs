//! CreateTopics (API key 19): creates topics, with their partitions, replicas and configs.

use crate::BrokerIds;
use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// CreateTopics request: asks the cluster to create topics.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 19, kind = request, response = CreateTopicsResponse, versions = "2-7",
        flexible = "5+", listeners = "broker, controller")]
pub struct CreateTopicsRequest {
    /// The topics to create.
    #[kafka(versions = "0+")]
    pub topics: Vec<CreatableTopic>,
    /// How long to wait in milliseconds before timing out the request.
    #[kafka(versions = "0+", name = "timeoutMs", default = 60000)]
    pub timeout_ms: i32,
    /// If true, check that the topics can be created as specified, but don't create
    /// anything.
    #[kafka(versions = "1+", name = "validateOnly", default = false)]
    pub validate_only: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic to create.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CreatableTopic {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The number of partitions to create in the topic, or -1 if we are either
    /// specifying a manual partition assignment or using the default partitions.
    #[kafka(versions = "0+")]
    pub num_partitions: i32,
    /// The number of replicas to create for each partition in the topic, or -1 if we are
    /// either specifying a manual partition assignment or using the default replication
    /// factor.
    #[kafka(versions = "0+")]
    pub replication_factor: i16,
    /// The manual partition assignment, or the empty array if we are using automatic
    /// assignment.
    #[kafka(versions = "0+")]
    pub assignments: Vec<CreatableReplicaAssignment>,
    /// The custom topic configurations to set.
    #[kafka(versions = "0+")]
    pub configs: Vec<CreatableTopicConfig>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The brokers a partition of a new topic is placed on.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CreatableReplicaAssignment {
    /// The partition index.
    #[kafka(versions = "0+", map_key)]
    pub partition_index: i32,
    /// The brokers to place the partition on.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub broker_ids: BrokerIds,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A custom configuration for a new topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CreatableTopicConfig {
    /// The configuration name.
    #[kafka(versions = "0+", map_key)]
    pub name: KafkaString,
    /// The configuration value.
    #[kafka(versions = "0+", nullable = "0+")]
    pub value: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// CreateTopics response: the outcome for each topic, with its settings from version 5.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 19, kind = response, versions = "2-7", flexible = "5+")]
pub struct CreateTopicsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "2+", ignorable)]
    pub throttle_time_ms: i32,
    /// Results for each topic we tried to create.
    #[kafka(versions = "0+")]
    pub topics: Vec<CreatableTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of creating one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CreatableTopicResult {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The unique topic ID.
    #[kafka(versions = "7+", ignorable)]
    pub topic_id: Uuid,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "1+", nullable = "0+", ignorable)]
    pub error_message: Option<KafkaString>,
    /// Optional topic config error returned if configs are not returned in the response.
    #[kafka(versions = "5+", tag = 0, tagged = "5+", ignorable)]
    pub topic_config_error_code: i16,
    /// Number of partitions of the topic.
    #[kafka(versions = "5+", default = -1, ignorable)]
    pub num_partitions: i32,
    /// Replication factor of the topic.
    #[kafka(versions = "5+", default = -1, ignorable)]
    pub replication_factor: i16,
    /// Configuration of the topic.
    #[kafka(versions = "5+", nullable = "5+", ignorable)]
    pub configs: Option<Vec<CreatableTopicConfigs>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One configuration of a created topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CreatableTopicConfigs {
    /// The configuration name.
    #[kafka(versions = "5+")]
    pub name: KafkaString,
    /// The configuration value.
    #[kafka(versions = "5+", nullable = "5+")]
    pub value: Option<KafkaString>,
    /// True if the configuration is read-only.
    #[kafka(versions = "5+")]
    pub read_only: bool,
    /// The configuration source.
    #[kafka(versions = "5+", default = -1, ignorable)]
    pub config_source: i8,
    /// True if this configuration is sensitive.
    #[kafka(versions = "5+")]
    pub is_sensitive: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
