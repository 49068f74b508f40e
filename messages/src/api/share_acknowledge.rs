//! ShareAcknowledge (API key 79): a share consumer acknowledges records without fetching more.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// ShareAcknowledge request: the share session and the record batches to acknowledge.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 79, kind = request, response = ShareAcknowledgeResponse, versions = "1-2",
        flexible = "0+", listeners = "broker")]
pub struct ShareAcknowledgeRequest {
    /// The group identifier.
    #[kafka(versions = "0+", nullable = "0+", default = null, entity_type = "groupId")]
    pub group_id: Option<KafkaString>,
    /// The member ID.
    #[kafka(versions = "0+", nullable = "0+")]
    pub member_id: Option<KafkaString>,
    /// The current share session epoch: 0 to open a share session; -1 to close it;
    /// otherwise increments for consecutive requests.
    #[kafka(versions = "0+")]
    pub share_session_epoch: i32,
    /// Whether Renew type acknowledgements present in AcknowledgementBatches.
    #[kafka(versions = "2+", default = false)]
    pub is_renew_ack: bool,
    /// The topics containing records to acknowledge.
    #[kafka(versions = "0+")]
    pub topics: Vec<AcknowledgeTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic with records to acknowledge.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AcknowledgeTopic {
    /// The unique topic ID.
    #[kafka(versions = "0+", map_key)]
    pub topic_id: Uuid,
    /// The partitions containing records to acknowledge.
    #[kafka(versions = "0+")]
    pub partitions: Vec<AcknowledgePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A partition and the record batches to acknowledge in it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AcknowledgePartition {
    /// The partition index.
    #[kafka(versions = "0+", map_key)]
    pub partition_index: i32,
    /// Record batches to acknowledge.
    #[kafka(versions = "0+")]
    pub acknowledgement_batches: Vec<AcknowledgementBatch>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A range of offsets and how to acknowledge its records.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AcknowledgementBatch {
    /// First offset of batch of records to acknowledge.
    #[kafka(versions = "0+")]
    pub first_offset: i64,
    /// Last offset (inclusive) of batch of records to acknowledge.
    #[kafka(versions = "0+")]
    pub last_offset: i64,
    /// Array of acknowledge types - 0:Gap,1:Accept,2:Release,3:Reject,4:Renew.
    #[kafka(versions = "0+")]
    pub acknowledge_types: Vec<i8>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ShareAcknowledge response: the acknowledgement outcome for each partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 79, kind = response, versions = "1-2", flexible = "0+")]
pub struct ShareAcknowledgeResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The top level response error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// The time in milliseconds for which the acquired records are locked.
    #[kafka(versions = "2+", ignorable)]
    pub acquisition_lock_timeout_ms: i32,
    /// The response topics.
    #[kafka(versions = "0+")]
    pub responses: Vec<ShareAcknowledgeTopicResponse>,
    /// Endpoints for all current leaders enumerated in PartitionData with error
    /// NOT_LEADER_OR_FOLLOWER.
    #[kafka(versions = "0+")]
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The acknowledgement results for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ShareAcknowledgeTopicResponse {
    /// The unique topic ID.
    #[kafka(versions = "0+", map_key)]
    pub topic_id: Uuid,
    /// The topic partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ShareAcknowledgePartitionResponse>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The acknowledgement results for one partition (Kafka's `PartitionData`).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct ShareAcknowledgePartitionResponse {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// The current leader of the partition.
    #[kafka(versions = "0+")]
    pub current_leader: LeaderIdAndEpoch,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The current leader of a partition and its epoch.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct LeaderIdAndEpoch {
    /// The ID of the current leader or -1 if the leader is unknown.
    #[kafka(versions = "0+")]
    pub leader_id: i32,
    /// The latest known leader epoch.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// How to reach a broker named as a current leader.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    #[kafka(versions = "0+", map_key, entity_type = "brokerId")]
    pub node_id: i32,
    /// The node's hostname.
    #[kafka(versions = "0+")]
    pub host: KafkaString,
    /// The node's port.
    #[kafka(versions = "0+")]
    pub port: i32,
    /// The rack of the node, or null if it has not been assigned to a rack.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub rack: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
