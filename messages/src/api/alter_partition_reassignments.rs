//! AlterPartitionReassignments (API key 45): starts or cancels partition reassignments.

use crate::BrokerIds;
use kwire::{KafkaString, UnknownTaggedFields};

/// AlterPartitionReassignments request: the new replica sets of partitions.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 45, kind = request, response = AlterPartitionReassignmentsResponse,
        versions = "0-1", flexible = "0+", listeners = "broker, controller")]
pub struct AlterPartitionReassignmentsRequest {
    /// The time in ms to wait for the request to complete.
    #[kafka(versions = "0+", default = 60000)]
    pub timeout_ms: i32,
    /// The option indicating whether changing the replication factor of any given
    /// partition as part of this request is a valid move.
    #[kafka(versions = "1+", default = true)]
    pub allow_replication_factor_change: bool,
    /// The topics to reassign.
    #[kafka(versions = "0+")]
    pub topics: Vec<ReassignableTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic with partitions to reassign.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ReassignableTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// The partitions to reassign.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ReassignablePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A partition and its target replicas.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ReassignablePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The replicas to place the partitions on, or null to cancel a pending
    /// reassignment for this partition.
    #[kafka(versions = "0+", nullable = "0+", default = null, entity_type = "brokerId")]
    pub replicas: Option<BrokerIds>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AlterPartitionReassignments response: the outcome for each partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 45, kind = response, versions = "0-1", flexible = "0+")]
pub struct AlterPartitionReassignmentsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The option indicating whether changing the replication factor of any given
    /// partition as part of the request was allowed.
    #[kafka(versions = "1+", default = true, ignorable)]
    pub allow_replication_factor_change: bool,
    /// The top-level error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// The responses to topics to reassign.
    #[kafka(versions = "0+")]
    pub responses: Vec<ReassignableTopicResponse>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome for one topic's partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ReassignableTopicResponse {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// The responses to partitions to reassign.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ReassignablePartitionResponse>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome for one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ReassignablePartitionResponse {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The error code for this partition, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message for this partition, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
