//! Produce (API key 0): writes record batches to the leaders of topic partitions.

use kwire::{KafkaString, Records, UnknownTaggedFields, Uuid};

/// Produce request: record batches to append to partitions.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 0, kind = request, response = ProduceResponse, versions = "3-13", flexible = "9+",
        listeners = "broker")]
pub struct ProduceRequest {
    /// The transactional ID, or null if the producer is not transactional.
    #[kafka(versions = "3+", nullable = "3+", default = null, entity_type = "transactionalId")]
    pub transactional_id: Option<KafkaString>,
    /// The number of acknowledgments the producer requires the leader to have received
    /// before considering a request complete. Allowed values: 0 for no acknowledgments,
    /// 1 for only the leader and -1 for the full ISR.
    #[kafka(versions = "0+")]
    pub acks: i16,
    /// The timeout to await a response in milliseconds.
    #[kafka(versions = "0+")]
    pub timeout_ms: i32,
    /// Each topic to produce to.
    #[kafka(versions = "0+")]
    pub topic_data: Vec<TopicProduceData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The record batches for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TopicProduceData {
    /// The topic name.
    #[kafka(versions = "0-12", ignorable, map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The unique topic ID
    #[kafka(versions = "13+", ignorable, map_key)]
    pub topic_id: Uuid,
    /// Each partition to produce to.
    #[kafka(versions = "0+")]
    pub partition_data: Vec<PartitionProduceData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The record batches for one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct PartitionProduceData {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub index: i32,
    /// The record data to be produced.
    #[kafka(versions = "0+", nullable = "0+")]
    pub records: Option<Records>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// Produce response: where each partition's records were appended, or why not.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 0, kind = response, versions = "3-13", flexible = "9+")]
pub struct ProduceResponse {
    /// Each produce response.
    #[kafka(versions = "0+")]
    pub responses: Vec<TopicProduceResponse>,
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "1+", default = 0, ignorable)]
    pub throttle_time_ms: i32,
    /// Endpoints for all current-leaders enumerated in PartitionProduceResponses, with
    /// errors NOT_LEADER_OR_FOLLOWER.
    #[kafka(versions = "10+", tag = 0, tagged = "10+")]
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The produce results for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TopicProduceResponse {
    /// The topic name.
    #[kafka(versions = "0-12", ignorable, map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The unique topic ID
    #[kafka(versions = "13+", ignorable, map_key)]
    pub topic_id: Uuid,
    /// Each partition that we produced to within the topic.
    #[kafka(versions = "0+")]
    pub partition_responses: Vec<PartitionProduceResponse>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The produce result for one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct PartitionProduceResponse {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub index: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The base offset.
    #[kafka(versions = "0+")]
    pub base_offset: i64,
    /// The timestamp returned by broker after appending the messages. If CreateTime is
    /// used for the topic, the timestamp will be -1.  If LogAppendTime is used for the
    /// topic, the timestamp will be the broker local time when the messages are appended.
    #[kafka(versions = "2+", default = -1, ignorable)]
    pub log_append_time_ms: i64,
    /// The log start offset.
    #[kafka(versions = "5+", default = -1, ignorable)]
    pub log_start_offset: i64,
    /// The batch indices of records that caused the batch to be dropped.
    #[kafka(versions = "8+", ignorable)]
    pub record_errors: Vec<BatchIndexAndErrorMessage>,
    /// The global error message summarizing the common root cause of the records that
    /// caused the batch to be dropped.
    #[kafka(versions = "8+", nullable = "8+", default = null, ignorable)]
    pub error_message: Option<KafkaString>,
    /// The leader broker that the producer should use for future requests.
    #[kafka(versions = "10+", tag = 0, tagged = "10+")]
    pub current_leader: LeaderIdAndEpoch,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A record in the batch that caused the whole batch to be dropped.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct BatchIndexAndErrorMessage {
    /// The batch index of the record that caused the batch to be dropped.
    #[kafka(versions = "8+")]
    pub batch_index: i32,
    /// The error message of the record that caused the batch to be dropped.
    #[kafka(versions = "8+", nullable = "8+", default = null)]
    pub batch_index_error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The current leader of a partition and its epoch.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct LeaderIdAndEpoch {
    /// The ID of the current leader or -1 if the leader is unknown.
    #[kafka(versions = "10+", default = -1, entity_type = "brokerId")]
    pub leader_id: i32,
    /// The latest known leader epoch.
    #[kafka(versions = "10+", default = -1)]
    pub leader_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// How to reach a broker named as a current leader.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    #[kafka(versions = "10+", map_key, entity_type = "brokerId")]
    pub node_id: i32,
    /// The node's hostname.
    #[kafka(versions = "10+")]
    pub host: KafkaString,
    /// The node's port.
    #[kafka(versions = "10+")]
    pub port: i32,
    /// The rack of the node, or null if it has not been assigned to a rack.
    #[kafka(versions = "10+", nullable = "10+", default = null)]
    pub rack: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
