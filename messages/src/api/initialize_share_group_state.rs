//! InitializeShareGroupState (API key 83): the group coordinator asks the share
//! coordinator to initialize the persisted state of share-partitions.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// InitializeShareGroupState request: the share-partitions to initialize, with their
/// state epochs and start offsets.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 83, kind = request, response = InitializeShareGroupStateResponse, versions = "0",
        flexible = "0+", listeners = "broker")]
pub struct InitializeShareGroupStateRequest {
    /// The group identifier.
    #[kafka(versions = "0+")]
    pub group_id: KafkaString,
    /// The data for the topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<InitializeStateTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic whose share-partitions to initialize.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "InitializeStateData")]
pub struct InitializeStateTopic {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The data for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<InitializeStatePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A share-partition to initialize, with its new state epoch and start offset.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct InitializeStatePartition {
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

/// InitializeShareGroupState response: the outcome for each share-partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 83, kind = response, versions = "0", flexible = "0+")]
pub struct InitializeShareGroupStateResponse {
    /// The initialization results.
    #[kafka(versions = "0+")]
    pub results: Vec<InitializeStateTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The initialization results for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "InitializeStateResult")]
pub struct InitializeStateTopicResult {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The results for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<InitializeStatePartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The initialization result for one share-partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionResult")]
pub struct InitializeStatePartitionResult {
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
