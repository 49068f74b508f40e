//! DeleteShareGroupState (API key 86).

use kafka_wire::{KafkaString, UnknownTaggedFields, Uuid};

/// DeleteShareGroupState request.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(api_key = 86, kind = request, versions = "0", flexible = "0+", listeners = "broker")]
pub struct DeleteShareGroupStateRequest {
    /// The group identifier.
    #[kafka(versions = "0+")]
    pub group_id: KafkaString,
    /// The data for the topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<DeleteStateData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `DeleteShareGroupStateRequest.Topics`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct DeleteStateData {
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

/// One entry of `DeleteShareGroupStateRequest.Topics[].Partitions`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct PartitionData {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DeleteShareGroupState response.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(api_key = 86, kind = response, versions = "0", flexible = "0+")]
pub struct DeleteShareGroupStateResponse {
    /// The delete results.
    #[kafka(versions = "0+")]
    pub results: Vec<DeleteStateResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `DeleteShareGroupStateResponse.Results`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct DeleteStateResult {
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

/// One entry of `DeleteShareGroupStateResponse.Results[].Partitions`.
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
