//! DeleteShareGroupState (API key 86): the group coordinator asks the share
//! coordinator to delete the persisted state of share-partitions.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// DeleteShareGroupState request: the share-partitions whose state to delete.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 86, kind = request, response = DeleteShareGroupStateResponse, versions = "0",
        flexible = "0+", listeners = "broker")]
pub struct DeleteShareGroupStateRequest {
    /// The group identifier.
    #[kafka(versions = "0+")]
    pub group_id: KafkaString,
    /// The data for the topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<DeleteStateTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic whose share-partition state to delete.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "DeleteStateData")]
pub struct DeleteStateTopic {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The data for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<DeleteStatePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A share-partition whose state to delete.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct DeleteStatePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DeleteShareGroupState response: the outcome for each share-partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 86, kind = response, versions = "0", flexible = "0+")]
pub struct DeleteShareGroupStateResponse {
    /// The delete results.
    #[kafka(versions = "0+")]
    pub results: Vec<DeleteStateTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The delete results for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "DeleteStateResult")]
pub struct DeleteStateTopicResult {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The results for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<DeleteStatePartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The delete result for one share-partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionResult")]
pub struct DeleteStatePartitionResult {
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
