//! Vote (API key 52): a KRaft candidate asks the other voters to elect it leader (from
//! version 2 also as a non-binding PreVote).

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// Vote request: a candidate asks the voters for their vote in a new epoch.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 52, kind = request, response = VoteResponse, versions = "0-2", flexible = "0+",
        listeners = "controller")]
pub struct VoteRequest {
    /// The cluster id.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub cluster_id: Option<KafkaString>,
    /// The replica id of the voter receiving the request.
    #[kafka(versions = "1+", default = -1, ignorable, entity_type = "brokerId")]
    pub voter_id: i32,
    /// The topic data.
    #[kafka(versions = "0+")]
    pub topics: Vec<VoteRequestTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The metadata topic the election is for, with its partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct VoteRequestTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The partition data.
    #[kafka(versions = "0+")]
    pub partitions: Vec<VoteRequestPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The candidate's vote request for one partition: its epoch, ID and log end.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct VoteRequestPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The epoch of the voter sending the request
    #[kafka(versions = "0+")]
    pub replica_epoch: i32,
    /// The replica id of the voter sending the request
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub replica_id: i32,
    /// The directory id of the voter sending the request
    #[kafka(versions = "1+", ignorable)]
    pub replica_directory_id: Uuid,
    /// The directory id of the voter receiving the request
    #[kafka(versions = "1+", ignorable)]
    pub voter_directory_id: Uuid,
    /// The epoch of the last record written to the metadata log.
    #[kafka(versions = "0+")]
    pub last_offset_epoch: i32,
    /// The log end offset of the metadata log of the voter sending the request.
    #[kafka(versions = "0+")]
    pub last_offset: i64,
    /// Whether the request is a PreVote request (not persisted) or not.
    #[kafka(versions = "2+")]
    pub pre_vote: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// Vote response: whether the voter granted its vote, and the leader and epoch it knows.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 52, kind = response, versions = "0-2", flexible = "0+")]
pub struct VoteResponse {
    /// The top level error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The results for each topic.
    #[kafka(versions = "0+")]
    pub topics: Vec<VoteResponseTopic>,
    /// Endpoints for all current-leaders enumerated in PartitionData.
    #[kafka(versions = "1+", tag = 0, tagged = "1+")]
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The voter's answers for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct VoteResponseTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The results for each partition.
    #[kafka(versions = "0+")]
    pub partitions: Vec<VoteResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The voter's answer for one partition, with the leader it knows.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct VoteResponsePartition {
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
    /// True if the vote was granted and false otherwise.
    #[kafka(versions = "0+")]
    pub vote_granted: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// How to reach a node named as a current leader.
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
