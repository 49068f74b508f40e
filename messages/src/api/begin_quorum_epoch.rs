//! BeginQuorumEpoch (API key 53): a newly elected KRaft leader announces itself to the voters.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// BeginQuorumEpoch request: the new leader and its epoch, with the leader's endpoints.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 53, kind = request, response = BeginQuorumEpochResponse, versions = "0-1",
        flexible = "1+", listeners = "controller")]
pub struct BeginQuorumEpochRequest {
    /// The cluster id.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub cluster_id: Option<KafkaString>,
    /// The replica id of the voter receiving the request.
    #[kafka(versions = "1+", default = -1, ignorable, entity_type = "brokerId")]
    pub voter_id: i32,
    /// The topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<BeginQuorumEpochRequestTopic>,
    /// Endpoints for the leader.
    #[kafka(versions = "1+", ignorable)]
    pub leader_endpoints: Vec<LeaderEndpoint>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The metadata topic whose leader is announced, with its partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct BeginQuorumEpochRequestTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<BeginQuorumEpochRequestPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The new leader and epoch of one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct BeginQuorumEpochRequestPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The directory id of the receiving replica.
    #[kafka(versions = "1+", ignorable)]
    pub voter_directory_id: Uuid,
    /// The ID of the newly elected leader.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub leader_id: i32,
    /// The epoch of the newly elected leader.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
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

/// BeginQuorumEpoch response: the outcome for each partition, with the leader the voter knows.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 53, kind = response, versions = "0-1", flexible = "1+")]
pub struct BeginQuorumEpochResponse {
    /// The top level error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The topic data.
    #[kafka(versions = "0+")]
    pub topics: Vec<BeginQuorumEpochResponseTopic>,
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
pub struct BeginQuorumEpochResponseTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The partition data.
    #[kafka(versions = "0+")]
    pub partitions: Vec<BeginQuorumEpochResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The voter's result for one partition, with the leader it knows.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct BeginQuorumEpochResponsePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The error code for this partition.
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
