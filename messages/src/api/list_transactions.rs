//! ListTransactions (API key 66): lists the transactions a broker coordinates, for admin clients.

use kwire::{KafkaString, UnknownTaggedFields};

/// ListTransactions request: filters by state, producer ID, duration and transactional ID pattern.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 66, kind = request, response = ListTransactionsResponse, versions = "0-2",
        flexible = "0+", listeners = "broker")]
pub struct ListTransactionsRequest {
    /// The transaction states to filter by: if empty, all transactions are returned; if
    /// non-empty, then only transactions matching one of the filtered states will be
    /// returned.
    #[kafka(versions = "0+")]
    pub state_filters: Vec<KafkaString>,
    /// The producerIds to filter by: if empty, all transactions will be returned; if
    /// non-empty, only transactions which match one of the filtered producerIds will be
    /// returned.
    #[kafka(versions = "0+", entity_type = "producerId")]
    pub producer_id_filters: Vec<i64>,
    /// Duration (in millis) to filter by: if < 0, all transactions will be returned;
    /// otherwise, only transactions running longer than this duration will be returned.
    #[kafka(versions = "1+", default = -1)]
    pub duration_filter: i64,
    /// The transactional ID regular expression pattern to filter by: if it is empty or
    /// null, all transactions are returned; Otherwise then only the transactions
    /// matching the given regular expression will be returned.
    #[kafka(versions = "2+", nullable = "2+", default = null)]
    pub transactional_id_pattern: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ListTransactions response: the matching transactions, with their producer and state.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 66, kind = response, versions = "0-2", flexible = "0+")]
pub struct ListTransactionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Set of state filters provided in the request which were unknown to the
    /// transaction coordinator.
    #[kafka(versions = "0+")]
    pub unknown_state_filters: Vec<KafkaString>,
    /// The current state of the transaction for the transactional id.
    #[kafka(versions = "0+")]
    pub transaction_states: Vec<TransactionState>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One listed transaction: its transactional ID, producer ID and state.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TransactionState {
    /// The transactional id.
    #[kafka(versions = "0+", entity_type = "transactionalId")]
    pub transactional_id: KafkaString,
    /// The producer id.
    #[kafka(versions = "0+", entity_type = "producerId")]
    pub producer_id: i64,
    /// The current transaction state of the producer.
    #[kafka(versions = "0+")]
    pub transaction_state: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
