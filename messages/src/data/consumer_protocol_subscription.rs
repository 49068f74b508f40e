//! ConsumerProtocolSubscription: a consumer's subscribed topics and owned partitions,
//! carried as the protocol metadata of JoinGroup.

use bytes::Bytes;
use kwire::KafkaString;

/// A consumer's subscription: its topics, owned partitions, generation and rack.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0-3")]
pub struct ConsumerProtocolSubscription {
    /// The topics that the member wants to consume.
    #[kafka(versions = "0+")]
    pub topics: Vec<KafkaString>,
    /// User data that will be passed back to the consumer.
    #[kafka(versions = "0+", nullable = "0+", default = null, zero_copy)]
    pub user_data: Option<Bytes>,
    /// The partitions that the member owns.
    #[kafka(versions = "1+", ignorable)]
    pub owned_partitions: Vec<TopicPartition>,
    /// The generation id of the member.
    #[kafka(versions = "2+", default = -1, ignorable)]
    pub generation_id: i32,
    /// The rack id of the member.
    #[kafka(versions = "3+", nullable = "3+", default = null, ignorable)]
    pub rack_id: Option<KafkaString>,
}

/// A topic and the partitions of it the member owns.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TopicPartition {
    /// The topic name.
    #[kafka(versions = "1+", map_key, entity_type = "topicName")]
    pub topic: KafkaString,
    /// The partition ids.
    #[kafka(versions = "1+")]
    pub partitions: Vec<i32>,
}
