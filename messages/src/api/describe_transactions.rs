//! DescribeTransactions (API key 65): describes transactions by their IDs, for admin clients.

use kwire::{KafkaString, UnknownTaggedFields};

/// DescribeTransactions request: the transactional IDs to describe.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 65, kind = request, response = DescribeTransactionsResponse, versions = "0",
        flexible = "0+", listeners = "broker")]
pub struct DescribeTransactionsRequest {
    /// Array of transactionalIds to include in describe results. If empty, then no
    /// results will be returned.
    #[kafka(versions = "0+", entity_type = "transactionalId")]
    pub transactional_ids: Vec<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeTransactions response: the state, producer and partitions of each transaction.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 65, kind = response, versions = "0", flexible = "0+")]
pub struct DescribeTransactionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The current state of the transaction.
    #[kafka(versions = "0+")]
    pub transaction_states: Vec<TransactionState>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One described transaction: its state, timeout, start time, producer and partitions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TransactionState {
    /// The error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The transactional id.
    #[kafka(versions = "0+", entity_type = "transactionalId")]
    pub transactional_id: KafkaString,
    /// The current transaction state of the producer.
    #[kafka(versions = "0+")]
    pub transaction_state: KafkaString,
    /// The timeout in milliseconds for the transaction.
    #[kafka(versions = "0+")]
    pub transaction_timeout_ms: i32,
    /// The start time of the transaction in milliseconds.
    #[kafka(versions = "0+")]
    pub transaction_start_time_ms: i64,
    /// The current producer id associated with the transaction.
    #[kafka(versions = "0+", entity_type = "producerId")]
    pub producer_id: i64,
    /// The current epoch associated with the producer id.
    #[kafka(versions = "0+")]
    pub producer_epoch: i16,
    /// The set of partitions included in the current transaction (if active). When a
    /// transaction is preparing to commit or abort, this will include only partitions
    /// which do not have markers.
    #[kafka(versions = "0+")]
    pub topics: Vec<DescribeTransactionsTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic and the partitions of it in the transaction (Kafka's `TopicData`).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct DescribeTransactionsTopic {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub topic: KafkaString,
    /// The partition ids included in the current transaction.
    #[kafka(versions = "0+")]
    pub partitions: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
