//! AddOffsetsToTxn (API key 25): adds a consumer group's offsets to a transaction.

use kwire::{KafkaString, UnknownTaggedFields};

/// AddOffsetsToTxn request: the group whose offsets join the transaction.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 25, kind = request, response = AddOffsetsToTxnResponse, versions = "0-4",
        flexible = "3+", listeners = "broker")]
pub struct AddOffsetsToTxnRequest {
    /// The transactional id corresponding to the transaction.
    #[kafka(versions = "0+", entity_type = "transactionalId")]
    pub transactional_id: KafkaString,
    /// Current producer id in use by the transactional id.
    #[kafka(versions = "0+", entity_type = "producerId")]
    pub producer_id: i64,
    /// Current epoch associated with the producer id.
    #[kafka(versions = "0+")]
    pub producer_epoch: i16,
    /// The unique group identifier.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AddOffsetsToTxn response: whether the group was added.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 25, kind = response, versions = "0-4", flexible = "3+")]
pub struct AddOffsetsToTxnResponse {
    /// Duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The response error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
