//! UnregisterController (API key 94): removes a controller's registration from a KRaft
//! cluster, for admin clients. New in Kafka 4.4.0's release (not in the pinned trunk
//! schemas, 678c0e07).

use kwire::{KafkaString, UnknownTaggedFields};

/// UnregisterController request: the ID of the controller to unregister.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 94, kind = request, response = UnregisterControllerResponse, versions = "0",
        flexible = "0+", listeners = "broker, controller")]
pub struct UnregisterControllerRequest {
    /// The controller ID to unregister.
    #[kafka(versions = "0+")]
    pub controller_id: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// UnregisterController response: whether the controller was unregistered, or why
/// not.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 94, kind = response, versions = "0", flexible = "0+")]
pub struct UnregisterControllerResponse {
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
