//! ReadShareGroupState (API key 84): a share-partition leader reads the persisted
//! state of its share-partitions from the share coordinator.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// ReadShareGroupState request: the share-partitions whose state to read.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 84, kind = request, response = ReadShareGroupStateResponse, versions = "0",
        flexible = "0+", listeners = "broker")]
pub struct ReadShareGroupStateRequest {
    /// The group identifier.
    #[kafka(versions = "0+")]
    pub group_id: KafkaString,
    /// The data for the topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<ReadStateTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic whose share-partition state to read.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "ReadStateData")]
pub struct ReadStateTopic {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The data for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ReadStatePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A share-partition whose state to read, with the reader's leader epoch.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct ReadStatePartition {
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

/// ReadShareGroupState response: the persisted state of each share-partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 84, kind = response, versions = "0", flexible = "0+")]
pub struct ReadShareGroupStateResponse {
    /// The read results.
    #[kafka(versions = "0+")]
    pub results: Vec<ReadStateTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The state read for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "ReadStateResult")]
pub struct ReadStateTopicResult {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The results for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ReadStatePartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The persisted state of one share-partition: epoch, start offset and state batches.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionResult")]
pub struct ReadStatePartitionResult {
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
    /// The share-partition start offset, which can be -1 if it is not yet initialized.
    #[kafka(versions = "0+")]
    pub start_offset: i64,
    /// The state batches for this share-partition.
    #[kafka(versions = "0+")]
    pub state_batches: Vec<StateBatch>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The delivery state and count of a range of offsets in a share-partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct StateBatch {
    /// The first offset of this state batch.
    #[kafka(versions = "0+")]
    pub first_offset: i64,
    /// The last offset of this state batch.
    #[kafka(versions = "0+")]
    pub last_offset: i64,
    /// The delivery state - 0:Available,2:Acked,4:Archived.
    #[kafka(versions = "0+")]
    pub delivery_state: i8,
    /// The delivery count.
    #[kafka(versions = "0+")]
    pub delivery_count: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
