//! Fetch (API key 1): reads record batches from partitions, for consumers and followers.

use kwire::{KafkaString, Records, UnknownTaggedFields, Uuid};

/// Fetch request: the partitions and offsets to read from.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 1, kind = request, response = FetchResponse, versions = "4-18", flexible = "12+",
        listeners = "broker, controller")]
pub struct FetchRequest {
    /// The clusterId if known. This is used to validate metadata fetches prior to broker
    /// registration.
    #[kafka(versions = "12+", nullable = "12+", tag = 0, tagged = "12+", default = null, ignorable)]
    pub cluster_id: Option<KafkaString>,
    /// The broker ID of the follower, of -1 if this request is from a consumer.
    #[kafka(versions = "0-14", default = -1, entity_type = "brokerId")]
    pub replica_id: i32,
    /// The state of the replica in the follower.
    #[kafka(versions = "15+", tag = 1, tagged = "15+")]
    pub replica_state: ReplicaState,
    /// The maximum time in milliseconds to wait for the response.
    #[kafka(versions = "0+")]
    pub max_wait_ms: i32,
    /// The minimum bytes to accumulate in the response.
    #[kafka(versions = "0+")]
    pub min_bytes: i32,
    /// The maximum bytes to fetch.  See KIP-74 for cases where this limit may not be
    /// honored.
    #[kafka(versions = "3+", default = 0x7fffffff, ignorable)]
    pub max_bytes: i32,
    /// This setting controls the visibility of transactional records. Using
    /// READ_UNCOMMITTED (isolation_level = 0) makes all records visible. With
    /// READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED
    /// transactional records are visible. To be more concrete, READ_COMMITTED returns
    /// all data from offsets smaller than the current LSO (last stable offset), and
    /// enables the inclusion of the list of aborted transactions in the result, which
    /// allows consumers to discard ABORTED transactional records.
    #[kafka(versions = "4+", default = 0, ignorable)]
    pub isolation_level: i8,
    /// The fetch session ID.
    #[kafka(versions = "7+", default = 0, ignorable)]
    pub session_id: i32,
    /// The fetch session epoch, which is used for ordering requests in a session.
    #[kafka(versions = "7+", default = -1, ignorable)]
    pub session_epoch: i32,
    /// The topics to fetch.
    #[kafka(versions = "0+")]
    pub topics: Vec<FetchTopic>,
    /// In an incremental fetch request, the partitions to remove.
    #[kafka(versions = "7+")]
    pub forgotten_topics_data: Vec<ForgottenTopic>,
    /// Rack ID of the consumer making this request.
    #[kafka(versions = "11+", default = "", ignorable)]
    pub rack_id: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The identity of a follower replica that fetches.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ReplicaState {
    /// The replica ID of the follower, or -1 if this request is from a consumer.
    #[kafka(versions = "15+", default = -1, entity_type = "brokerId")]
    pub replica_id: i32,
    /// The epoch of this follower, or -1 if not available.
    #[kafka(versions = "15+", default = -1)]
    pub replica_epoch: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One topic to fetch from.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct FetchTopic {
    /// The name of the topic to fetch.
    #[kafka(versions = "0-12", ignorable, entity_type = "topicName")]
    pub topic: KafkaString,
    /// The unique topic ID.
    #[kafka(versions = "13+", ignorable)]
    pub topic_id: Uuid,
    /// The partitions to fetch.
    #[kafka(versions = "0+")]
    pub partitions: Vec<FetchPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One partition to fetch from, and where to start.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct FetchPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition: i32,
    /// The current leader epoch of the partition.
    #[kafka(versions = "9+", default = -1, ignorable)]
    pub current_leader_epoch: i32,
    /// The message offset.
    #[kafka(versions = "0+")]
    pub fetch_offset: i64,
    /// The epoch of the last fetched record or -1 if there is none.
    #[kafka(versions = "12+", default = -1)]
    pub last_fetched_epoch: i32,
    /// The earliest available offset of the follower replica.  The field is only used
    /// when the request is sent by the follower.
    #[kafka(versions = "5+", default = -1, ignorable)]
    pub log_start_offset: i64,
    /// The maximum bytes to fetch from this partition.  See KIP-74 for cases where this
    /// limit may not be honored.
    #[kafka(versions = "0+")]
    pub partition_max_bytes: i32,
    /// The directory id of the follower fetching.
    #[kafka(versions = "17+", tag = 0, tagged = "17+", ignorable)]
    pub replica_directory_id: Uuid,
    /// The high-watermark known by the replica. -1 if the high-watermark is not known
    /// and 9223372036854775807 if the feature is not supported.
    #[kafka(
        versions = "18+",
        tag = 1,
        tagged = "18+",
        default = 9223372036854775807,
        ignorable
    )]
    pub high_watermark: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The partitions of one topic to remove from an incremental fetch session.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ForgottenTopic {
    /// The topic name.
    #[kafka(versions = "7-12", ignorable, entity_type = "topicName")]
    pub topic: KafkaString,
    /// The unique topic ID.
    #[kafka(versions = "13+", ignorable)]
    pub topic_id: Uuid,
    /// The partitions indexes to forget.
    #[kafka(versions = "7+")]
    pub partitions: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// Fetch response: the records read from each partition, or why not.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 1, kind = response, versions = "4-18", flexible = "12+")]
pub struct FetchResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "1+", ignorable)]
    pub throttle_time_ms: i32,
    /// The top level response error code.
    #[kafka(versions = "7+", ignorable)]
    pub error_code: i16,
    /// The fetch session ID, or 0 if this is not part of a fetch session.
    #[kafka(versions = "7+", default = 0)]
    pub session_id: i32,
    /// The response topics.
    #[kafka(versions = "0+")]
    pub responses: Vec<FetchableTopicResponse>,
    /// Endpoints for all current-leaders enumerated in PartitionData, with errors
    /// NOT_LEADER_OR_FOLLOWER & FENCED_LEADER_EPOCH.
    #[kafka(versions = "16+", tag = 0, tagged = "16+")]
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The fetch results for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct FetchableTopicResponse {
    /// The topic name.
    #[kafka(versions = "0-12", ignorable, entity_type = "topicName")]
    pub topic: KafkaString,
    /// The unique topic ID.
    #[kafka(versions = "13+", ignorable)]
    pub topic_id: Uuid,
    /// The topic partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The fetch result for one partition: its offsets, state and records.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct PartitionData {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The error code, or 0 if there was no fetch error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The current high water mark.
    #[kafka(versions = "0+")]
    pub high_watermark: i64,
    /// The last stable offset (or LSO) of the partition. This is the last offset such
    /// that the state of all transactional records prior to this offset have been
    /// decided (ABORTED or COMMITTED).
    #[kafka(versions = "4+", default = -1, ignorable)]
    pub last_stable_offset: i64,
    /// The current log start offset.
    #[kafka(versions = "5+", default = -1, ignorable)]
    pub log_start_offset: i64,
    /// In case divergence is detected based on the `LastFetchedEpoch` and `FetchOffset`
    /// in the request, this field indicates the largest epoch and its end offset such
    /// that subsequent records are known to diverge.
    #[kafka(versions = "12+", tag = 0, tagged = "12+")]
    pub diverging_epoch: EpochEndOffset,
    /// The current leader of the partition.
    #[kafka(versions = "12+", tag = 1, tagged = "12+")]
    pub current_leader: LeaderIdAndEpoch,
    /// In the case of fetching an offset less than the LogStartOffset, this is the end
    /// offset and epoch that should be used in the FetchSnapshot request.
    #[kafka(versions = "12+", tag = 2, tagged = "12+")]
    pub snapshot_id: SnapshotId,
    /// The aborted transactions.
    #[kafka(versions = "4+", nullable = "4+", ignorable)]
    pub aborted_transactions: Option<Vec<AbortedTransaction>>,
    /// The preferred read replica for the consumer to use on its next fetch request.
    #[kafka(versions = "11+", default = -1, entity_type = "brokerId")]
    pub preferred_read_replica: i32,
    /// The record data.
    #[kafka(versions = "0+", nullable = "0+")]
    pub records: Option<Records>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The largest epoch and its end offset, where the follower's log diverges.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct EpochEndOffset {
    /// The largest epoch.
    #[kafka(versions = "12+", default = -1)]
    pub epoch: i32,
    /// The end offset of the epoch.
    #[kafka(versions = "12+", default = -1)]
    pub end_offset: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The current leader of a partition and its epoch.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct LeaderIdAndEpoch {
    /// The ID of the current leader or -1 if the leader is unknown.
    #[kafka(versions = "12+", default = -1, entity_type = "brokerId")]
    pub leader_id: i32,
    /// The latest known leader epoch.
    #[kafka(versions = "12+", default = -1)]
    pub leader_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The end offset and epoch of the snapshot to fetch instead.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct SnapshotId {
    /// The end offset of the epoch.
    #[kafka(versions = "0+", default = -1)]
    pub end_offset: i64,
    /// The largest epoch.
    #[kafka(versions = "0+", default = -1)]
    pub epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A transaction aborted within the fetched range.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AbortedTransaction {
    /// The producer id associated with the aborted transaction.
    #[kafka(versions = "4+", entity_type = "producerId")]
    pub producer_id: i64,
    /// The first offset in the aborted transaction.
    #[kafka(versions = "4+")]
    pub first_offset: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// How to reach a broker named as a current leader.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    #[kafka(versions = "16+", map_key, entity_type = "brokerId")]
    pub node_id: i32,
    /// The node's hostname.
    #[kafka(versions = "16+")]
    pub host: KafkaString,
    /// The node's port.
    #[kafka(versions = "16+")]
    pub port: i32,
    /// The rack of the node, or null if it has not been assigned to a rack.
    #[kafka(versions = "16+", nullable = "16+", default = null)]
    pub rack: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
