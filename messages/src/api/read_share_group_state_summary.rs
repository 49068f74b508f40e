//! ReadShareGroupStateSummary (API key 87): the group coordinator reads a summary of
//! share-partition state (epochs, start offset) from the share coordinator.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// ReadShareGroupStateSummary request: the share-partitions whose summary to read.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 87, kind = request, response = ReadShareGroupStateSummaryResponse,
        versions = "0-1", flexible = "0+", listeners = "broker")]
pub struct ReadShareGroupStateSummaryRequest {
    /// The group identifier.
    #[kafka(versions = "0+")]
    pub group_id: KafkaString,
    /// The data for the topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<ReadStateSummaryTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic whose share-partition state summary to read.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "ReadStateSummaryData")]
pub struct ReadStateSummaryTopic {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The data for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ReadStateSummaryPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A share-partition whose state summary to read.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct ReadStateSummaryPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition: i32,
    /// The leader epoch of the share-partition.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ReadShareGroupStateSummary response: the epochs and start offset of each
/// share-partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 87, kind = response, versions = "0-1", flexible = "0+")]
pub struct ReadShareGroupStateSummaryResponse {
    /// The read results.
    #[kafka(versions = "0+")]
    pub results: Vec<ReadStateSummaryTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The state summaries read for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "ReadStateSummaryResult")]
pub struct ReadStateSummaryTopicResult {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The results for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ReadStateSummaryPartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The state summary of one share-partition, without its state batches.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionResult")]
pub struct ReadStateSummaryPartitionResult {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// The state epoch of the share-partition.
    #[kafka(versions = "0+")]
    pub state_epoch: i32,
    /// The leader epoch of the share-partition.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// The share-partition start offset.
    #[kafka(versions = "0+")]
    pub start_offset: i64,
    /// The number of offsets greater than or equal to share-partition start offset for
    /// which delivery has been completed.
    #[kafka(versions = "1+", default = -1, ignorable)]
    pub delivery_complete_count: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
