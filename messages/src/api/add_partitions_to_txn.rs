//! AddPartitionsToTxn (API key 24): adds partitions to a transaction, or from version 4
//! lets brokers verify them for batches of transactions.

use kwire::{KafkaString, UnknownTaggedFields};

/// AddPartitionsToTxn request: the partitions to add to (or verify in) transactions.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 24, kind = request, response = AddPartitionsToTxnResponse, versions = "0-5",
        flexible = "3+", listeners = "broker")]
pub struct AddPartitionsToTxnRequest {
    /// List of transactions to add partitions to.
    #[kafka(versions = "4+")]
    pub transactions: Vec<AddPartitionsToTxnTransaction>,
    /// The transactional id corresponding to the transaction.
    #[kafka(versions = "0-3", entity_type = "transactionalId")]
    pub v3_and_below_transactional_id: KafkaString,
    /// Current producer id in use by the transactional id.
    #[kafka(versions = "0-3", entity_type = "producerId")]
    pub v3_and_below_producer_id: i64,
    /// Current epoch associated with the producer id.
    #[kafka(versions = "0-3")]
    pub v3_and_below_producer_epoch: i16,
    /// The partitions to add to the transaction.
    #[kafka(versions = "0-3")]
    pub v3_and_below_topics: Vec<AddPartitionsToTxnTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One transaction and the partitions to add to it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AddPartitionsToTxnTransaction {
    /// The transactional id corresponding to the transaction.
    #[kafka(versions = "4+", map_key, entity_type = "transactionalId")]
    pub transactional_id: KafkaString,
    /// Current producer id in use by the transactional id.
    #[kafka(versions = "4+", entity_type = "producerId")]
    pub producer_id: i64,
    /// Current epoch associated with the producer id.
    #[kafka(versions = "4+")]
    pub producer_epoch: i16,
    /// Boolean to signify if we want to check if the partition is in the transaction
    /// rather than add it.
    #[kafka(versions = "4+", default = false)]
    pub verify_only: bool,
    /// The partitions to add to the transaction.
    #[kafka(versions = "4+")]
    pub topics: Vec<AddPartitionsToTxnTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic and the partitions of it to add to a transaction.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AddPartitionsToTxnTopic {
    /// The name of the topic.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The partition indexes to add to the transaction.
    #[kafka(versions = "0+")]
    pub partitions: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AddPartitionsToTxn response: the outcome for each partition, by transaction.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 24, kind = response, versions = "0-5", flexible = "3+")]
pub struct AddPartitionsToTxnResponse {
    /// Duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The response top level error code.
    #[kafka(versions = "4+", ignorable)]
    pub error_code: i16,
    /// Results categorized by transactional ID.
    #[kafka(versions = "4+")]
    pub results_by_transaction: Vec<AddPartitionsToTxnResult>,
    /// The results for each topic.
    #[kafka(versions = "0-3")]
    pub results_by_topic_v3_and_below: Vec<AddPartitionsToTxnTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The results of one transaction.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AddPartitionsToTxnResult {
    /// The transactional id corresponding to the transaction.
    #[kafka(versions = "4+", map_key, entity_type = "transactionalId")]
    pub transactional_id: KafkaString,
    /// The results for each topic.
    #[kafka(versions = "4+")]
    pub topic_results: Vec<AddPartitionsToTxnTopicResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The results of one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AddPartitionsToTxnTopicResult {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The results for each partition.
    #[kafka(versions = "0+")]
    pub results_by_partition: Vec<AddPartitionsToTxnPartitionResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The result of one partition.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AddPartitionsToTxnPartitionResult {
    /// The partition indexes.
    #[kafka(versions = "0+", map_key)]
    pub partition_index: i32,
    /// The response error code.
    #[kafka(versions = "0+")]
    pub partition_error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
