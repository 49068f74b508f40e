//! ListPartitionReassignments (API key 46): lists ongoing partition reassignments.

use crate::BrokerIds;
use kwire::{KafkaString, UnknownTaggedFields};

/// ListPartitionReassignments request: the partitions to list reassignments for.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 46, kind = request, response = ListPartitionReassignmentsResponse, versions = "0",
        flexible = "0+", listeners = "broker, controller")]
pub struct ListPartitionReassignmentsRequest {
    /// The time in ms to wait for the request to complete.
    #[kafka(versions = "0+", default = 60000)]
    pub timeout_ms: i32,
    /// The topics to list partition reassignments for, or null to list everything.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub topics: Option<Vec<ListPartitionReassignmentsTopics>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic and the partitions to list reassignments for.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ListPartitionReassignmentsTopics {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// The partitions to list partition reassignments for.
    #[kafka(versions = "0+")]
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ListPartitionReassignments response: the ongoing reassignments.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 46, kind = response, versions = "0", flexible = "0+")]
pub struct ListPartitionReassignmentsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The top-level error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// The ongoing reassignments for each topic.
    #[kafka(versions = "0+")]
    pub topics: Vec<OngoingTopicReassignment>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The ongoing reassignments of one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OngoingTopicReassignment {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// The ongoing reassignments for each partition.
    #[kafka(versions = "0+")]
    pub partitions: Vec<OngoingPartitionReassignment>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The ongoing reassignment of one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OngoingPartitionReassignment {
    /// The index of the partition.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The current replica set.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub replicas: BrokerIds,
    /// The set of replicas we are currently adding.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub adding_replicas: BrokerIds,
    /// The set of replicas we are currently removing.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub removing_replicas: BrokerIds,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
