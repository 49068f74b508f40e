//! CreatePartitions (API key 37): adds partitions to existing topics.

use crate::BrokerIds;
use kwire::{KafkaString, UnknownTaggedFields};

/// CreatePartitions request: the new partition count of each topic.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 37, kind = request, response = CreatePartitionsResponse, versions = "0-3",
        flexible = "2+", listeners = "broker, controller")]
pub struct CreatePartitionsRequest {
    /// Each topic that we want to create new partitions inside.
    #[kafka(versions = "0+")]
    pub topics: Vec<CreatePartitionsTopic>,
    /// The time in ms to wait for the partitions to be created.
    #[kafka(versions = "0+")]
    pub timeout_ms: i32,
    /// If true, then validate the request, but don't actually increase the number of
    /// partitions.
    #[kafka(versions = "0+")]
    pub validate_only: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic, its new partition count and optionally where the new partitions go.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CreatePartitionsTopic {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The new partition count.
    #[kafka(versions = "0+")]
    pub count: i32,
    /// The new partition assignments.
    #[kafka(versions = "0+", nullable = "0+")]
    pub assignments: Option<Vec<CreatePartitionsAssignment>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The brokers that will hold the replicas of one new partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CreatePartitionsAssignment {
    /// The assigned broker IDs.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub broker_ids: BrokerIds,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// CreatePartitions response: the outcome for each topic.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 37, kind = response, versions = "0-3", flexible = "2+")]
pub struct CreatePartitionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The partition creation results for each topic.
    #[kafka(versions = "0+")]
    pub results: Vec<CreatePartitionsTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of adding partitions to one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CreatePartitionsTopicResult {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// The result error, or zero if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The result message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
