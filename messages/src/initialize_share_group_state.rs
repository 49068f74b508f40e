//! InitializeShareGroupState (API key 83).

use kafka_wire::{KafkaString, UnknownTaggedFields, Uuid};

/// InitializeShareGroupState request.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(api_key = 83, kind = request, versions = "0", flexible = "0+", listeners = "broker")]
pub struct InitializeShareGroupStateRequest {
    /// The group identifier.
    #[kafka(versions = "0+")]
    pub group_id: KafkaString,
    /// The data for the topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<InitializeStateData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `InitializeShareGroupStateRequest.Topics`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct InitializeStateData {
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

/// One entry of `InitializeShareGroupStateRequest.Topics[].Partitions`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct PartitionData {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition: i32,
    /// The state epoch for this share-partition.
    #[kafka(versions = "0+")]
    pub state_epoch: i32,
    /// The share-partition start offset, or -1 if the start offset is not being
    /// initialized.
    #[kafka(versions = "0+")]
    pub start_offset: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// InitializeShareGroupState response.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(api_key = 83, kind = response, versions = "0", flexible = "0+")]
pub struct InitializeShareGroupStateResponse {
    /// The initialization results.
    #[kafka(versions = "0+")]
    pub results: Vec<InitializeStateResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `InitializeShareGroupStateResponse.Results`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct InitializeStateResult {
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

/// One entry of `InitializeShareGroupStateResponse.Results[].Partitions`.
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
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
