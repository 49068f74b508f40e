//! ElectLeaders (API key 43): triggers leader elections for partitions.

use kwire::{KafkaString, UnknownTaggedFields};

/// ElectLeaders request: the election type and the partitions to elect leaders for.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 43, kind = request, response = ElectLeadersResponse, versions = "0-2",
        flexible = "2+", listeners = "broker, controller")]
pub struct ElectLeadersRequest {
    /// Type of elections to conduct for the partition. A value of '0' elects the
    /// preferred replica. A value of '1' elects the first live replica if there are no
    /// in-sync replica.
    #[kafka(versions = "1+")]
    pub election_type: i8,
    /// The topic partitions to elect leaders.
    #[kafka(versions = "0+", nullable = "0+")]
    pub topic_partitions: Option<Vec<TopicPartitions>>,
    /// The time in ms to wait for the election to complete.
    #[kafka(versions = "0+", default = 60000)]
    pub timeout_ms: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic and the partitions whose leaders should be elected.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TopicPartitions {
    /// The name of a topic.
    #[kafka(versions = "0+", entity_type = "topicName", map_key)]
    pub topic: KafkaString,
    /// The partitions of this topic whose leader should be elected.
    #[kafka(versions = "0+")]
    pub partitions: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ElectLeaders response: the election result of each partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 43, kind = response, versions = "0-2", flexible = "2+")]
pub struct ElectLeadersResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The top level response error code.
    #[kafka(versions = "1+")]
    pub error_code: i16,
    /// The election results, or an empty array if the requester did not have
    /// permission and the request asks for all partitions.
    #[kafka(versions = "0+")]
    pub replica_election_results: Vec<ReplicaElectionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The election results of one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ReplicaElectionResult {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic: KafkaString,
    /// The results for each partition.
    #[kafka(versions = "0+")]
    pub partition_result: Vec<PartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The election result of one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct PartitionResult {
    /// The partition id.
    #[kafka(versions = "0+")]
    pub partition_id: i32,
    /// The result error, or zero if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The result message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
