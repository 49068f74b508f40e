//! DescribeQuorum (API key 55): the state of the KRaft metadata quorum (leader, voters,
//! observers and their progress), for admin clients.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// DescribeQuorum request: the quorum partitions to describe.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 55, kind = request, response = DescribeQuorumResponse, versions = "0-2",
        flexible = "0+", listeners = "broker, controller")]
pub struct DescribeQuorumRequest {
    /// The topics to describe.
    #[kafka(versions = "0+")]
    pub topics: Vec<DescribeQuorumRequestTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A metadata topic and the partitions of it to describe.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct DescribeQuorumRequestTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The partitions to describe.
    #[kafka(versions = "0+")]
    pub partitions: Vec<DescribeQuorumRequestPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A partition to describe.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct DescribeQuorumRequestPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeQuorum response: the leader, voters and observers of each partition, and the nodes.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 55, kind = response, versions = "0-2", flexible = "0+")]
pub struct DescribeQuorumResponse {
    /// The top level error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "2+", nullable = "2+", ignorable)]
    pub error_message: Option<KafkaString>,
    /// The response from the describe quorum API.
    #[kafka(versions = "0+")]
    pub topics: Vec<DescribeQuorumResponseTopic>,
    /// The nodes in the quorum.
    #[kafka(versions = "2+")]
    pub nodes: Vec<DescribeQuorumNode>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The quorum state of one topic's partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct DescribeQuorumResponseTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The partition data.
    #[kafka(versions = "0+")]
    pub partitions: Vec<DescribeQuorumResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The quorum state of one partition: leader, high watermark, voters and observers.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct DescribeQuorumResponsePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The partition error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "2+", nullable = "2+", ignorable)]
    pub error_message: Option<KafkaString>,
    /// The ID of the current leader or -1 if the leader is unknown.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub leader_id: i32,
    /// The latest known leader epoch.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// The high water mark.
    #[kafka(versions = "0+")]
    pub high_watermark: i64,
    /// The current voters of the partition.
    #[kafka(versions = "0+")]
    pub current_voters: Vec<ReplicaState>,
    /// The observers of the partition.
    #[kafka(versions = "0+")]
    pub observers: Vec<ReplicaState>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A voter or observer of the quorum and how far it has replicated.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ReplicaState {
    /// The ID of the replica.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub replica_id: i32,
    /// The replica directory ID of the replica.
    #[kafka(versions = "2+")]
    pub replica_directory_id: Uuid,
    /// The last known log end offset of the follower or -1 if it is unknown.
    #[kafka(versions = "0+")]
    pub log_end_offset: i64,
    /// The last known leader wall clock time time when a follower fetched from the
    /// leader. This is reported as -1 both for the current leader or if it is unknown
    /// for a voter.
    #[kafka(versions = "1+", default = -1, ignorable)]
    pub last_fetch_timestamp: i64,
    /// The leader wall clock append time of the offset for which the follower made the
    /// most recent fetch request. This is reported as the current time for the leader
    /// and -1 if unknown for a voter.
    #[kafka(versions = "1+", default = -1, ignorable)]
    pub last_caught_up_timestamp: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A node of the quorum and its listeners.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "Node")]
pub struct DescribeQuorumNode {
    /// The ID of the associated node.
    #[kafka(versions = "2+", map_key, entity_type = "brokerId")]
    pub node_id: i32,
    /// The listeners of this controller.
    #[kafka(versions = "2+")]
    pub listeners: Vec<Listener>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One listener of a node: its name, host and port.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct Listener {
    /// The name of the endpoint.
    #[kafka(versions = "2+", map_key)]
    pub name: KafkaString,
    /// The hostname.
    #[kafka(versions = "2+")]
    pub host: KafkaString,
    /// The port.
    #[kafka(versions = "2+")]
    pub port: u16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
