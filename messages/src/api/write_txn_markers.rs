//! WriteTxnMarkers (API key 27): the transaction coordinator asks partition leaders to
//! write commit or abort markers.

use kwire::{KafkaString, UnknownTaggedFields};

/// WriteTxnMarkers request: the transaction markers to write.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 27, kind = request, response = WriteTxnMarkersResponse, versions = "1-2",
        flexible = "1+", listeners = "broker")]
pub struct WriteTxnMarkersRequest {
    /// The transaction markers to be written.
    #[kafka(versions = "0+")]
    pub markers: Vec<WritableTxnMarker>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One transaction's marker and the partitions to write it to.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct WritableTxnMarker {
    /// The current producer ID.
    #[kafka(versions = "0+", entity_type = "producerId")]
    pub producer_id: i64,
    /// The current epoch associated with the producer ID.
    #[kafka(versions = "0+")]
    pub producer_epoch: i16,
    /// The result of the transaction to write to the partitions (false = ABORT, true =
    /// COMMIT).
    #[kafka(versions = "0+")]
    pub transaction_result: bool,
    /// Each topic that we want to write transaction marker(s) for.
    #[kafka(versions = "0+")]
    pub topics: Vec<WritableTxnMarkerTopic>,
    /// Epoch associated with the transaction state partition hosted by this transaction
    /// coordinator.
    #[kafka(versions = "0+")]
    pub coordinator_epoch: i32,
    /// Transaction version of the marker. Ex: 0/1 = legacy (TV0/TV1), 2 = TV2 etc.
    #[kafka(versions = "2+", ignorable, default = 0)]
    pub transaction_version: i8,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic and the partitions of it to write a marker to.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct WritableTxnMarkerTopic {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// The indexes of the partitions to write transaction markers for.
    #[kafka(versions = "0+")]
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// WriteTxnMarkers response: the outcome for each partition of each marker.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 27, kind = response, versions = "1-2", flexible = "1+")]
pub struct WriteTxnMarkersResponse {
    /// The results for writing makers.
    #[kafka(versions = "0+")]
    pub markers: Vec<WritableTxnMarkerResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The results of writing one producer's marker.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct WritableTxnMarkerResult {
    /// The current producer ID in use by the transactional ID.
    #[kafka(versions = "0+", entity_type = "producerId")]
    pub producer_id: i64,
    /// The results by topic.
    #[kafka(versions = "0+")]
    pub topics: Vec<WritableTxnMarkerTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The results of writing a marker to one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct WritableTxnMarkerTopicResult {
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub name: KafkaString,
    /// The results by partition.
    #[kafka(versions = "0+")]
    pub partitions: Vec<WritableTxnMarkerPartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The result of writing a marker to one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct WritableTxnMarkerPartitionResult {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
