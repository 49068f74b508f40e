//! AssignReplicasToDirs (API key 73): a broker tells the controller in which of its log directories
//! each replica lives (JBOD, KIP-858).

use kwire::{UnknownTaggedFields, Uuid};

/// AssignReplicasToDirs request: the broker's partitions, by the log directory that holds them.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 73, kind = request, response = AssignReplicasToDirsResponse, versions = "0",
        flexible = "0+", listeners = "controller")]
pub struct AssignReplicasToDirsRequest {
    /// The ID of the requesting broker.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub broker_id: i32,
    /// The epoch of the requesting broker.
    #[kafka(versions = "0+", default = -1)]
    pub broker_epoch: i64,
    /// The directories to which replicas should be assigned.
    #[kafka(versions = "0+")]
    pub directories: Vec<AssignReplicasToDirsDirectory>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A log directory and the partitions assigned to it (Kafka's `DirectoryData`).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "DirectoryData")]
pub struct AssignReplicasToDirsDirectory {
    /// The ID of the directory.
    #[kafka(versions = "0+")]
    pub id: Uuid,
    /// The topics assigned to the directory.
    #[kafka(versions = "0+")]
    pub topics: Vec<AssignReplicasToDirsTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic and the partitions of it assigned to a directory (Kafka's `TopicData`).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct AssignReplicasToDirsTopic {
    /// The ID of the assigned topic.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The partitions assigned to the directory.
    #[kafka(versions = "0+")]
    pub partitions: Vec<AssignReplicasToDirsPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A partition assigned to a directory (Kafka's `PartitionData`).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct AssignReplicasToDirsPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AssignReplicasToDirs response: the outcome for each assigned partition, by directory.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 73, kind = response, versions = "0", flexible = "0+")]
pub struct AssignReplicasToDirsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The top level response error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The list of directories and their assigned partitions.
    #[kafka(versions = "0+")]
    pub directories: Vec<AssignReplicasToDirsDirectoryResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcomes for one log directory (Kafka's response `DirectoryData`).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "DirectoryData")]
pub struct AssignReplicasToDirsDirectoryResult {
    /// The ID of the directory.
    #[kafka(versions = "0+")]
    pub id: Uuid,
    /// The list of topics and their assigned partitions.
    #[kafka(versions = "0+")]
    pub topics: Vec<AssignReplicasToDirsTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcomes for one topic's partitions (Kafka's response `TopicData`).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct AssignReplicasToDirsTopicResult {
    /// The ID of the assigned topic.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The list of assigned partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<AssignReplicasToDirsPartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of assigning one partition (Kafka's response `PartitionData`).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct AssignReplicasToDirsPartitionResult {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The partition level error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
