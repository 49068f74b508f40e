//! ConsumerProtocolAssignment: the partitions a consumer group leader assigns to a
//! member, carried as the assignment bytes of SyncGroup.

use bytes::Bytes;
use kwire::KafkaString;

/// A consumer's assignment: its topic-partitions and the assignor's user data.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0-3")]
pub struct ConsumerProtocolAssignment {
    /// The list of topics and partitions assigned to this consumer.
    #[kafka(versions = "0+")]
    pub assigned_partitions: Vec<TopicPartition>,
    /// User data.
    #[kafka(versions = "0+", nullable = "0+", default = null, zero_copy)]
    pub user_data: Option<Bytes>,
}

/// A topic and the partitions of it assigned to the consumer.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TopicPartition {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub topic: KafkaString,
    /// The list of partitions assigned to this consumer.
    #[kafka(versions = "0+")]
    pub partitions: Vec<i32>,
}
