//! UnregisterBroker (API key 64): removes a broker's registration from a KRaft cluster,
//! for admin clients.

use kwire::{KafkaString, UnknownTaggedFields};

/// UnregisterBroker request: the ID of the broker to unregister.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 64, kind = request, response = UnregisterBrokerResponse, versions = "0",
        flexible = "0+", listeners = "broker, controller")]
pub struct UnregisterBrokerRequest {
    /// The broker ID to unregister.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub broker_id: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// UnregisterBroker response: whether the broker was unregistered, or why not.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 64, kind = response, versions = "0", flexible = "0+")]
pub struct UnregisterBrokerResponse {
    /// Duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The top-level error message, or `null` if there was no top-level error.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
