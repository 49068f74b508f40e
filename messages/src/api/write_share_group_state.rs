//! WriteShareGroupState (API key 85): a share-partition leader persists the state of
//! its share-partitions to the share coordinator.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// WriteShareGroupState request: the new state of each share-partition to persist.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 85, kind = request, response = WriteShareGroupStateResponse, versions = "0-1",
        flexible = "0+", listeners = "broker")]
pub struct WriteShareGroupStateRequest {
    /// The group identifier.
    #[kafka(versions = "0+")]
    pub group_id: KafkaString,
    /// The data for the topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<WriteStateTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic whose share-partition state to write.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "WriteStateData")]
pub struct WriteStateTopic {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The data for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<WriteStatePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The state to write for one share-partition: epochs, start offset and state batches.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct WriteStatePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition: i32,
    /// The state epoch of the share-partition.
    #[kafka(versions = "0+")]
    pub state_epoch: i32,
    /// The leader epoch of the share-partition.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// The share-partition start offset, or -1 if the start offset is not being
    /// written.
    #[kafka(versions = "0+")]
    pub start_offset: i64,
    /// The number of offsets greater than or equal to share-partition start offset for
    /// which delivery has been completed.
    #[kafka(versions = "1+", default = -1, ignorable)]
    pub delivery_complete_count: i32,
    /// The state batches for the share-partition.
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

/// WriteShareGroupState response: the outcome for each share-partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 85, kind = response, versions = "0-1", flexible = "0+")]
pub struct WriteShareGroupStateResponse {
    /// The write results.
    #[kafka(versions = "0+")]
    pub results: Vec<WriteStateTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The write results for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "WriteStateResult")]
pub struct WriteStateTopicResult {
    /// The topic identifier.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The results for the partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<WriteStatePartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The write result for one share-partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionResult")]
pub struct WriteStatePartitionResult {
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
