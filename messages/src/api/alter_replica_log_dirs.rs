//! AlterReplicaLogDirs (API key 34): moves replicas between a broker's log directories.

use kwire::{KafkaString, UnknownTaggedFields};

/// AlterReplicaLogDirs request: for each directory, the partitions to move there.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 34, kind = request, response = AlterReplicaLogDirsResponse, versions = "1-2",
        flexible = "2+", listeners = "broker")]
pub struct AlterReplicaLogDirsRequest {
    /// The alterations to make for each directory.
    #[kafka(versions = "0+")]
    pub dirs: Vec<AlterReplicaLogDir>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A log directory and the partitions to move into it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterReplicaLogDir {
    /// The absolute directory path.
    #[kafka(versions = "0+", map_key)]
    pub path: KafkaString,
    /// The topics to add to the directory.
    #[kafka(versions = "0+")]
    pub topics: Vec<AlterReplicaLogDirTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic and the partitions of it to move.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterReplicaLogDirTopic {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The partition indexes.
    #[kafka(versions = "0+")]
    pub partitions: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AlterReplicaLogDirs response: the outcome for each partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 34, kind = response, versions = "1-2", flexible = "2+")]
pub struct AlterReplicaLogDirsResponse {
    /// Duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The results for each topic.
    #[kafka(versions = "0+")]
    pub results: Vec<AlterReplicaLogDirTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcomes for one topic's partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterReplicaLogDirTopicResult {
    /// The name of the topic.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The results for each partition.
    #[kafka(versions = "0+")]
    pub partitions: Vec<AlterReplicaLogDirPartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of moving one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterReplicaLogDirPartitionResult {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
