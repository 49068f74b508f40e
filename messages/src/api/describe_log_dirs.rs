//! DescribeLogDirs (API key 35): lists a broker's log directories and what they hold.

use kwire::{KafkaString, UnknownTaggedFields};

/// DescribeLogDirs request: the partitions to describe, or null for all.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 35, kind = request, response = DescribeLogDirsResponse, versions = "1-5",
        flexible = "2+", listeners = "broker")]
pub struct DescribeLogDirsRequest {
    /// Each topic that we want to describe log directories for, or null for all topics.
    #[kafka(versions = "0+", nullable = "0+")]
    pub topics: Option<Vec<DescribableLogDirTopic>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic and the partitions of it to describe.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribableLogDirTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName", map_key)]
    pub topic: KafkaString,
    /// The partition indexes.
    #[kafka(versions = "0+")]
    pub partitions: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeLogDirs response: each log directory with its partitions and space.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 35, kind = response, versions = "1-5", flexible = "2+")]
pub struct DescribeLogDirsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "3+", ignorable)]
    pub error_code: i16,
    /// The log directories.
    #[kafka(versions = "0+")]
    pub results: Vec<DescribeLogDirsResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One log directory: its topics, space and state.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeLogDirsResult {
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The absolute log directory path.
    #[kafka(versions = "0+")]
    pub log_dir: KafkaString,
    /// The topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<DescribeLogDirsTopic>,
    /// The total size in bytes of the volume the log directory is in. This value does
    /// not include the size of data stored in remote storage.
    #[kafka(versions = "4+", ignorable, default = -1)]
    pub total_bytes: i64,
    /// The usable size in bytes of the volume the log directory is in. This value does
    /// not include the size of data stored in remote storage.
    #[kafka(versions = "4+", ignorable, default = -1)]
    pub usable_bytes: i64,
    /// True if this log directory is cordoned.
    #[kafka(versions = "5+", ignorable, default = false)]
    pub is_cordoned: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic in a log directory, with its partitions there.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeLogDirsTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// The partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<DescribeLogDirsPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A partition's log in a log directory: its size and lag.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeLogDirsPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The size of the log segments in this partition in bytes.
    #[kafka(versions = "0+")]
    pub partition_size: i64,
    /// The lag of the log's LEO w.r.t. partition's HW (if it is the current log for the
    /// partition) or current replica's LEO (if it is the future log for the partition).
    #[kafka(versions = "0+")]
    pub offset_lag: i64,
    /// True if this log is created by AlterReplicaLogDirsRequest and will replace the
    /// current log of the replica in the future.
    #[kafka(versions = "0+")]
    pub is_future_key: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
