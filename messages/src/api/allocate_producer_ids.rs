//! AllocateProducerIds (API key 67): a broker gets a block of producer IDs from the controller.

use kwire::UnknownTaggedFields;

/// AllocateProducerIds request: the broker asking for producer IDs, and its epoch.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 67, kind = request, response = AllocateProducerIdsResponse, versions = "0",
        flexible = "0+", listeners = "controller")]
pub struct AllocateProducerIdsRequest {
    /// The ID of the requesting broker.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub broker_id: i32,
    /// The epoch of the requesting broker.
    #[kafka(versions = "0+", default = -1)]
    pub broker_epoch: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AllocateProducerIds response: the allocated block, as first producer ID and count.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 67, kind = response, versions = "0", flexible = "0+")]
pub struct AllocateProducerIdsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The top level response error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The first producer ID in this range, inclusive.
    #[kafka(versions = "0+", entity_type = "producerId")]
    pub producer_id_start: i64,
    /// The number of producer IDs in this range.
    #[kafka(versions = "0+")]
    pub producer_id_len: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
