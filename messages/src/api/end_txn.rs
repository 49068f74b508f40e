//! EndTxn (API key 26): commits or aborts a transaction.

use kwire::{KafkaString, UnknownTaggedFields};

/// EndTxn request: asks the transaction coordinator to commit or abort.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 26, kind = request, response = EndTxnResponse, versions = "0-5", flexible = "3+",
        listeners = "broker")]
pub struct EndTxnRequest {
    /// The ID of the transaction to end.
    #[kafka(versions = "0+", entity_type = "transactionalId")]
    pub transactional_id: KafkaString,
    /// The producer ID.
    #[kafka(versions = "0+", entity_type = "producerId")]
    pub producer_id: i64,
    /// The current epoch associated with the producer.
    #[kafka(versions = "0+")]
    pub producer_epoch: i16,
    /// True if the transaction was committed, false if it was aborted.
    #[kafka(versions = "0+")]
    pub committed: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// EndTxn response: the outcome, and from version 5 the producer ID and epoch to use next.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 26, kind = response, versions = "0-5", flexible = "3+")]
pub struct EndTxnResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The producer ID.
    #[kafka(versions = "5+", entity_type = "producerId", default = -1, ignorable)]
    pub producer_id: i64,
    /// The current epoch associated with the producer.
    #[kafka(versions = "5+", default = -1, ignorable)]
    pub producer_epoch: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
