//! InitProducerId (API key 22): obtains a producer ID and epoch for idempotent or
//! transactional producing.

use kwire::{KafkaString, UnknownTaggedFields};

/// InitProducerId request: asks for a producer ID and epoch.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 22, kind = request, response = InitProducerIdResponse, versions = "0-6",
        flexible = "2+", listeners = "broker", latest_version_unstable)]
pub struct InitProducerIdRequest {
    /// The transactional id, or null if the producer is not transactional.
    #[kafka(versions = "0+", nullable = "0+", entity_type = "transactionalId")]
    pub transactional_id: Option<KafkaString>,
    /// The time in ms to wait before aborting idle transactions sent by this producer.
    /// This is only relevant if a TransactionalId has been defined.
    #[kafka(versions = "0+")]
    pub transaction_timeout_ms: i32,
    /// The producer id. This is used to disambiguate requests if a transactional id is
    /// reused following its expiration.
    #[kafka(versions = "3+", default = -1, entity_type = "producerId")]
    pub producer_id: i64,
    /// The producer's current epoch. This will be checked against the producer epoch on
    /// the broker, and the request will return an error if they do not match.
    #[kafka(versions = "3+", default = -1)]
    pub producer_epoch: i16,
    /// True if the client wants to enable two-phase commit (2PC) protocol for
    /// transactions.
    #[kafka(versions = "6+", default = false)]
    pub enable2_pc: bool,
    /// True if the client wants to keep the currently ongoing transaction instead of
    /// aborting it.
    #[kafka(versions = "6+", default = false)]
    pub keep_prepared_txn: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// InitProducerId response: the producer ID and epoch granted.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 22, kind = response, versions = "0-6", flexible = "2+")]
pub struct InitProducerIdResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+", ignorable)]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The current producer id.
    #[kafka(versions = "0+", entity_type = "producerId", default = -1)]
    pub producer_id: i64,
    /// The current epoch associated with the producer id.
    #[kafka(versions = "0+")]
    pub producer_epoch: i16,
    /// The producer id for ongoing transaction when KeepPreparedTxn is used, -1 if there
    /// is no transaction ongoing.
    #[kafka(versions = "6+", entity_type = "producerId", default = -1)]
    pub ongoing_txn_producer_id: i64,
    /// The epoch associated with the  producer id for ongoing transaction when
    /// KeepPreparedTxn is used, -1 if there is no transaction ongoing.
    #[kafka(default = -1, versions = "6+")]
    pub ongoing_txn_producer_epoch: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
