//! DescribeTopicPartitions (API key 75): describes topics and their partitions, a page at a time.

use crate::BrokerIds;
use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// DescribeTopicPartitions request: the topics to describe, the page size and where to start.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 75, kind = request, response = DescribeTopicPartitionsResponse, versions = "0",
        flexible = "0+", listeners = "broker")]
pub struct DescribeTopicPartitionsRequest {
    /// The topics to fetch details for.
    #[kafka(versions = "0+")]
    pub topics: Vec<DescribeTopicPartitionsRequestTopic>,
    /// The maximum number of partitions included in the response.
    #[kafka(versions = "0+", default = 2000)]
    pub response_partition_limit: i32,
    /// The first topic and partition index to fetch details for.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub cursor: Option<Cursor>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic to describe, by name (Kafka's `TopicRequest`).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicRequest")]
pub struct DescribeTopicPartitionsRequestTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A position in the described topics: a topic and a partition index in it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct Cursor {
    /// The name for the first topic to process.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The partition index to start with.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeTopicPartitions response: the described topics and partitions, and where to continue.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 75, kind = response, versions = "0", flexible = "0+")]
pub struct DescribeTopicPartitionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+", ignorable)]
    pub throttle_time_ms: i32,
    /// Each topic in the response.
    #[kafka(versions = "0+")]
    pub topics: Vec<DescribeTopicPartitionsResponseTopic>,
    /// The next topic and partition index to fetch details for.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub next_cursor: Option<Cursor>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One described topic and its partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeTopicPartitionsResponseTopic {
    /// The topic error, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The topic name.
    #[kafka(versions = "0+", nullable = "0+", map_key, entity_type = "topicName")]
    pub name: Option<KafkaString>,
    /// The topic id.
    #[kafka(versions = "0+", ignorable)]
    pub topic_id: Uuid,
    /// True if the topic is internal.
    #[kafka(versions = "0+", default = false, ignorable)]
    pub is_internal: bool,
    /// Each partition in the topic.
    #[kafka(versions = "0+")]
    pub partitions: Vec<DescribeTopicPartitionsResponsePartition>,
    /// 32-bit bitfield to represent authorized operations for this topic.
    #[kafka(versions = "0+", default = -2147483648)]
    pub topic_authorized_operations: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One described partition: its leader, replicas, ISR and ELR.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeTopicPartitionsResponsePartition {
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
    #[kafka(versions = "0+", default = -1, ignorable)]
    pub leader_epoch: i32,
    /// The set of all nodes that host this partition.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub replica_nodes: BrokerIds,
    /// The set of nodes that are in sync with the leader for this partition.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub isr_nodes: BrokerIds,
    /// The new eligible leader replicas otherwise.
    #[kafka(versions = "0+", nullable = "0+", default = null, entity_type = "brokerId")]
    pub eligible_leader_replicas: Option<BrokerIds>,
    /// The last known ELR.
    #[kafka(versions = "0+", nullable = "0+", default = null, entity_type = "brokerId")]
    pub last_known_elr: Option<BrokerIds>,
    /// The set of offline replicas of this partition.
    #[kafka(versions = "0+", ignorable, entity_type = "brokerId")]
    pub offline_replicas: BrokerIds,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
