//! AssignReplicasToDirs (API key 73).

use kafka_wire::{UnknownTaggedFields, Uuid};

/// AssignReplicasToDirs request.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(api_key = 73, kind = request, versions = "0", flexible = "0+", listeners = "controller")]
pub struct AssignReplicasToDirsRequest {
    /// The ID of the requesting broker.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub broker_id: i32,
    /// The epoch of the requesting broker.
    #[kafka(versions = "0+", default = -1)]
    pub broker_epoch: i64,
    /// The directories to which replicas should be assigned.
    #[kafka(versions = "0+")]
    pub directories: Vec<DirectoryData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `AssignReplicasToDirsRequest.Directories`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct DirectoryData {
    /// The ID of the directory.
    #[kafka(versions = "0+")]
    pub id: Uuid,
    /// The topics assigned to the directory.
    #[kafka(versions = "0+")]
    pub topics: Vec<TopicData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `AssignReplicasToDirsRequest.Directories[].Topics`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct TopicData {
    /// The ID of the assigned topic.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The partitions assigned to the directory.
    #[kafka(versions = "0+")]
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `AssignReplicasToDirsRequest.Directories[].Topics[].Partitions`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct PartitionData {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AssignReplicasToDirs response.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
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
    pub directories: Vec<ResponseDirectoryData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `AssignReplicasToDirsResponse.Directories`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
#[kafka(name = "DirectoryData")]
pub struct ResponseDirectoryData {
    /// The ID of the directory.
    #[kafka(versions = "0+")]
    pub id: Uuid,
    /// The list of topics and their assigned partitions.
    #[kafka(versions = "0+")]
    pub topics: Vec<ResponseTopicData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `AssignReplicasToDirsResponse.Directories[].Topics`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct ResponseTopicData {
    /// The ID of the assigned topic.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The list of assigned partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ResponsePartitionData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `AssignReplicasToDirsResponse.Directories[].Topics[].Partitions`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct ResponsePartitionData {
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
