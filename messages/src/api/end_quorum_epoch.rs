//! EndQuorumEpoch (API key 54): a resigning KRaft leader tells the voters, so that they
//! elect a new leader without waiting for a timeout.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// EndQuorumEpoch request: the resigning leader, its epoch and its preferred successors.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 54, kind = request, response = EndQuorumEpochResponse, versions = "0-1",
        flexible = "1+", listeners = "controller")]
pub struct EndQuorumEpochRequest {
    /// The cluster id.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub cluster_id: Option<KafkaString>,
    /// The topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<EndQuorumEpochRequestTopic>,
    /// Endpoints for the leader.
    #[kafka(versions = "1+", ignorable)]
    pub leader_endpoints: Vec<LeaderEndpoint>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The metadata topic whose leader resigns, with its partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct EndQuorumEpochRequestTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<EndQuorumEpochRequestPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The resigning leader of one partition and who should succeed it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct EndQuorumEpochRequestPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The current leader ID that is resigning.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub leader_id: i32,
    /// The current epoch.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// A sorted list of preferred successors to start the election.
    #[kafka(versions = "0", ignorable)]
    pub preferred_successors: Vec<i32>,
    /// A sorted list of preferred candidates to start the election.
    #[kafka(versions = "1+", ignorable)]
    pub preferred_candidates: Vec<PreferredCandidate>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A voter the resigning leader prefers as the next candidate.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "ReplicaInfo")]
pub struct PreferredCandidate {
    /// The ID of the candidate replica.
    #[kafka(versions = "1+", entity_type = "brokerId")]
    pub candidate_id: i32,
    /// The directory ID of the candidate replica.
    #[kafka(versions = "1+")]
    pub candidate_directory_id: Uuid,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One listener of the leader: its name, host and port.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct LeaderEndpoint {
    /// The name of the endpoint.
    #[kafka(versions = "1+", map_key)]
    pub name: KafkaString,
    /// The node's hostname.
    #[kafka(versions = "1+")]
    pub host: KafkaString,
    /// The node's port.
    #[kafka(versions = "1+")]
    pub port: u16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// EndQuorumEpoch response: the outcome for each partition, with the leader the voter knows.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 54, kind = response, versions = "0-1", flexible = "1+")]
pub struct EndQuorumEpochResponse {
    /// The top level error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The topic data.
    #[kafka(versions = "0+")]
    pub topics: Vec<EndQuorumEpochResponseTopic>,
    /// Endpoints for all leaders enumerated in PartitionData.
    #[kafka(versions = "1+", tag = 0, tagged = "1+")]
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The voter's results for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct EndQuorumEpochResponseTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The partition data.
    #[kafka(versions = "0+")]
    pub partitions: Vec<EndQuorumEpochResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The voter's result for one partition, with the leader it knows.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct EndQuorumEpochResponsePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The partition level error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The ID of the current leader or -1 if the leader is unknown.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub leader_id: i32,
    /// The latest known leader epoch.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// How to reach a node named as a leader.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    #[kafka(versions = "1+", map_key, entity_type = "brokerId")]
    pub node_id: i32,
    /// The node's hostname.
    #[kafka(versions = "1+")]
    pub host: KafkaString,
    /// The node's port.
    #[kafka(versions = "1+")]
    pub port: u16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
