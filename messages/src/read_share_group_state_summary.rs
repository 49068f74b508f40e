//! ReadShareGroupStateSummary (API key 87).

use kafka_wire::{KafkaString, UnknownTaggedFields, Uuid};

/// ReadShareGroupStateSummary request.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(api_key = 87, kind = request, versions = "0-1", flexible = "0+", listeners = "broker")]
pub struct ReadShareGroupStateSummaryRequest {
    /// The group identifier.
    #[kafka(versions = "0+")]
    pub group_id: KafkaString,
    /// The data for the topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<ReadStateSummaryData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `ReadShareGroupStateSummaryRequest.Topics`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct ReadStateSummaryData {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The data for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `ReadShareGroupStateSummaryRequest.Topics[].Partitions`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct PartitionData {
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

/// ReadShareGroupStateSummary response.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(api_key = 87, kind = response, versions = "0-1", flexible = "0+")]
pub struct ReadShareGroupStateSummaryResponse {
    /// The read results.
    #[kafka(versions = "0+")]
    pub results: Vec<ReadStateSummaryResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `ReadShareGroupStateSummaryResponse.Results`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct ReadStateSummaryResult {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The results for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<PartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `ReadShareGroupStateSummaryResponse.Results[].Partitions`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct PartitionResult {
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
