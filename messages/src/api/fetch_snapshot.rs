//! FetchSnapshot (API key 59): a KRaft follower or observer fetches a metadata snapshot
//! from the leader, in chunks.

use kwire::{KafkaString, Records, UnknownTaggedFields, Uuid};

/// FetchSnapshot request: which snapshot to fetch, and from which byte position.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 59, kind = request, response = FetchSnapshotResponse, versions = "0-1",
        flexible = "0+", listeners = "controller")]
pub struct FetchSnapshotRequest {
    /// The clusterId if known, this is used to validate metadata fetches prior to
    /// broker registration.
    #[kafka(versions = "0+", nullable = "0+", tag = 0, tagged = "0+", default = null)]
    pub cluster_id: Option<KafkaString>,
    /// The broker ID of the follower.
    #[kafka(versions = "0+", default = -1, entity_type = "brokerId")]
    pub replica_id: i32,
    /// The maximum bytes to fetch from all of the snapshots.
    #[kafka(versions = "0+", default = 0x7fffffff)]
    pub max_bytes: i32,
    /// The topics to fetch.
    #[kafka(versions = "0+")]
    pub topics: Vec<FetchSnapshotRequestTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic to fetch snapshots of.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicSnapshot")]
pub struct FetchSnapshotRequestTopic {
    /// The name of the topic to fetch.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// The partitions to fetch.
    #[kafka(versions = "0+")]
    pub partitions: Vec<FetchSnapshotRequestPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A partition's snapshot to fetch, and where in it to start.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionSnapshot")]
pub struct FetchSnapshotRequestPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition: i32,
    /// The current leader epoch of the partition, -1 for unknown leader epoch.
    #[kafka(versions = "0+")]
    pub current_leader_epoch: i32,
    /// The snapshot endOffset and epoch to fetch.
    #[kafka(versions = "0+")]
    pub snapshot_id: SnapshotId,
    /// The byte position within the snapshot to start fetching from.
    #[kafka(versions = "0+")]
    pub position: i64,
    /// The directory id of the follower fetching.
    #[kafka(versions = "1+", tag = 0, tagged = "1+", ignorable)]
    pub replica_directory_id: Uuid,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The end offset and epoch that name the snapshot to fetch.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct SnapshotId {
    /// The end offset of the snapshot.
    #[kafka(versions = "0+")]
    pub end_offset: i64,
    /// The epoch of the snapshot.
    #[kafka(versions = "0+")]
    pub epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// FetchSnapshot response: a chunk of each snapshot, with its total size and position.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 59, kind = response, versions = "0-1", flexible = "0+")]
pub struct FetchSnapshotResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+", ignorable)]
    pub throttle_time_ms: i32,
    /// The top level response error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The topics to fetch.
    #[kafka(versions = "0+")]
    pub topics: Vec<FetchSnapshotResponseTopic>,
    /// Endpoints for all current-leaders enumerated in PartitionSnapshot.
    #[kafka(versions = "1+", tag = 0, tagged = "1+")]
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The snapshot chunks of one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicSnapshot")]
pub struct FetchSnapshotResponseTopic {
    /// The name of the topic to fetch.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// The partitions to fetch.
    #[kafka(versions = "0+")]
    pub partitions: Vec<FetchSnapshotResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A chunk of one partition's snapshot, or why not.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionSnapshot")]
pub struct FetchSnapshotResponsePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub index: i32,
    /// The error code, or 0 if there was no fetch error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The snapshot endOffset and epoch fetched.
    #[kafka(versions = "0+")]
    pub snapshot_id: FetchedSnapshotId,
    /// The leader of the partition at the time of the snapshot.
    #[kafka(versions = "0+", tag = 0, tagged = "0+")]
    pub current_leader: LeaderIdAndEpoch,
    /// The total size of the snapshot.
    #[kafka(versions = "0+")]
    pub size: i64,
    /// The starting byte position within the snapshot included in the Bytes field.
    #[kafka(versions = "0+")]
    pub position: i64,
    /// Snapshot data in records format which may not be aligned on an offset boundary.
    #[kafka(versions = "0+")]
    pub unaligned_records: Records,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The end offset and epoch that name the fetched snapshot.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "SnapshotId")]
pub struct FetchedSnapshotId {
    /// The snapshot end offset.
    #[kafka(versions = "0+")]
    pub end_offset: i64,
    /// The snapshot epoch.
    #[kafka(versions = "0+")]
    pub epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The current leader of a partition and its epoch.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct LeaderIdAndEpoch {
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
