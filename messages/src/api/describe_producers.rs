//! DescribeProducers (API key 61): the active idempotent and transactional producers of
//! partitions, asked of the partition leaders by admin clients.

use kwire::{KafkaString, UnknownTaggedFields};

/// DescribeProducers request: the partitions whose producers to list.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 61, kind = request, response = DescribeProducersResponse, versions = "0",
        flexible = "0+", listeners = "broker")]
pub struct DescribeProducersRequest {
    /// The topics to list producers for.
    #[kafka(versions = "0+")]
    pub topics: Vec<DescribeProducersRequestTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic and the partitions of it to list producers for.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicRequest")]
pub struct DescribeProducersRequestTopic {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The indexes of the partitions to list producers for.
    #[kafka(versions = "0+")]
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeProducers response: the active producers of each partition, or why not.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 61, kind = response, versions = "0", flexible = "0+")]
pub struct DescribeProducersResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// Each topic in the response.
    #[kafka(versions = "0+")]
    pub topics: Vec<DescribeProducersResponseTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The producers of one topic's partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicResponse")]
pub struct DescribeProducersResponseTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// Each partition in the response.
    #[kafka(versions = "0+")]
    pub partitions: Vec<DescribeProducersResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The active producers of one partition, or why they could not be listed.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionResponse")]
pub struct DescribeProducersResponsePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The partition error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The partition error message, which may be null if no additional details are
    /// available.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// The active producers for the partition.
    #[kafka(versions = "0+")]
    pub active_producers: Vec<ProducerState>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// An active producer of a partition: its epoch, last write and open transaction.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ProducerState {
    /// The producer id.
    #[kafka(versions = "0+", entity_type = "producerId")]
    pub producer_id: i64,
    /// The producer epoch.
    #[kafka(versions = "0+")]
    pub producer_epoch: i32,
    /// The last sequence number sent by the producer.
    #[kafka(versions = "0+", default = -1)]
    pub last_sequence: i32,
    /// The last timestamp sent by the producer.
    #[kafka(versions = "0+", default = -1)]
    pub last_timestamp: i64,
    /// The current epoch of the producer group.
    #[kafka(versions = "0+")]
    pub coordinator_epoch: i32,
    /// The current transaction start offset of the producer.
    #[kafka(versions = "0+", default = -1)]
    pub current_txn_start_offset: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
