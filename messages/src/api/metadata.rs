//! Metadata (API key 3): the cluster's brokers, topics, partitions and their leaders.

use crate::BrokerIds;
use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// Metadata request: the topics to describe (null for all of them).
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 3, kind = request, response = MetadataResponse, versions = "0-13",
        flexible = "9+", listeners = "broker")]
pub struct MetadataRequest {
    /// The topics to fetch metadata for.
    #[kafka(versions = "0+", nullable = "1+")]
    pub topics: Option<Vec<MetadataRequestTopic>>,
    /// If this is true, the broker may auto-create topics that we requested which do not
    /// already exist, if it is configured to do so.
    #[kafka(versions = "4+", default = true)]
    pub allow_auto_topic_creation: bool,
    /// Whether to include cluster authorized operations.
    #[kafka(versions = "8-10")]
    pub include_cluster_authorized_operations: bool,
    /// Whether to include topic authorized operations.
    #[kafka(versions = "8+")]
    pub include_topic_authorized_operations: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One topic to describe, by ID or by name.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct MetadataRequestTopic {
    /// The topic id.
    #[kafka(versions = "10+", ignorable)]
    pub topic_id: Uuid,
    /// The topic name.
    #[kafka(versions = "0+", nullable = "10+", entity_type = "topicName")]
    pub name: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// Metadata response: the brokers, the controller and the requested topics.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 3, kind = response, versions = "0-13", flexible = "9+")]
pub struct MetadataResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "3+", ignorable)]
    pub throttle_time_ms: i32,
    /// A list of brokers present in the cluster.
    #[kafka(versions = "0+")]
    pub brokers: Vec<MetadataResponseBroker>,
    /// The cluster ID that responding broker belongs to.
    #[kafka(versions = "2+", nullable = "2+", default = null, ignorable)]
    pub cluster_id: Option<KafkaString>,
    /// The ID of the controller broker.
    #[kafka(versions = "1+", default = -1, ignorable, entity_type = "brokerId")]
    pub controller_id: i32,
    /// Each topic in the response.
    #[kafka(versions = "0+")]
    pub topics: Vec<MetadataResponseTopic>,
    /// 32-bit bitfield to represent authorized operations for this cluster.
    #[kafka(versions = "8-10", default = -2147483648)]
    pub cluster_authorized_operations: i32,
    /// The top-level error code, or 0 if there was no error.
    #[kafka(versions = "13+", ignorable)]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A broker of the cluster and how to reach it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct MetadataResponseBroker {
    /// The broker ID.
    #[kafka(versions = "0+", map_key, entity_type = "brokerId")]
    pub node_id: i32,
    /// The broker hostname.
    #[kafka(versions = "0+")]
    pub host: KafkaString,
    /// The broker port.
    #[kafka(versions = "0+")]
    pub port: i32,
    /// The rack of the broker, or null if it has not been assigned to a rack.
    #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
    pub rack: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The metadata of one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct MetadataResponseTopic {
    /// The topic error, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The topic name. Null for non-existing topics queried by ID. This is never null
    /// when ErrorCode is zero. One of Name and TopicId is always populated.
    #[kafka(versions = "0+", nullable = "12+", map_key, entity_type = "topicName")]
    pub name: Option<KafkaString>,
    /// The topic id. Zero for non-existing topics queried by name. This is never zero
    /// when ErrorCode is zero. One of Name and TopicId is always populated.
    #[kafka(versions = "10+", ignorable)]
    pub topic_id: Uuid,
    /// True if the topic is internal.
    #[kafka(versions = "1+", default = false, ignorable)]
    pub is_internal: bool,
    /// Each partition in the topic.
    #[kafka(versions = "0+")]
    pub partitions: Vec<MetadataResponsePartition>,
    /// 32-bit bitfield to represent authorized operations for this topic.
    #[kafka(versions = "8+", default = -2147483648)]
    pub topic_authorized_operations: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The metadata of one partition: its leader and replicas.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct MetadataResponsePartition {
    /// The partition error, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The ID of the leader broker.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub leader_id: i32,
    /// The leader epoch of this partition.
    #[kafka(versions = "7+", default = -1, ignorable)]
    pub leader_epoch: i32,
    /// The set of all nodes that host this partition.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub replica_nodes: BrokerIds,
    /// The set of nodes that are in sync with the leader for this partition.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub isr_nodes: BrokerIds,
    /// The set of offline replicas of this partition.
    #[kafka(versions = "5+", ignorable, entity_type = "brokerId")]
    pub offline_replicas: BrokerIds,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
