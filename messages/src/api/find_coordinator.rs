//! FindCoordinator (API key 10): locates the coordinator of a group, transaction or share
//! group.

use kwire::{KafkaString, UnknownTaggedFields};

/// FindCoordinator request: asks which broker coordinates the given keys.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 10, kind = request, response = FindCoordinatorResponse, versions = "0-6",
        flexible = "3+", listeners = "broker")]
pub struct FindCoordinatorRequest {
    /// The coordinator key.
    #[kafka(versions = "0-3")]
    pub key: KafkaString,
    /// The coordinator key type. (group, transaction, share).
    #[kafka(versions = "1+", default = 0)]
    pub key_type: i8,
    /// The coordinator keys.
    #[kafka(versions = "4+")]
    pub coordinator_keys: Vec<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// FindCoordinator response: the coordinator of each key, or why it was not found.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 10, kind = response, versions = "0-6", flexible = "3+")]
pub struct FindCoordinatorResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "1+", ignorable)]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0-3")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "1-3", nullable = "1-3", ignorable)]
    pub error_message: Option<KafkaString>,
    /// The node id.
    #[kafka(versions = "0-3", entity_type = "brokerId")]
    pub node_id: i32,
    /// The host name.
    #[kafka(versions = "0-3")]
    pub host: KafkaString,
    /// The port.
    #[kafka(versions = "0-3")]
    pub port: i32,
    /// Each coordinator result in the response.
    #[kafka(versions = "4+")]
    pub coordinators: Vec<Coordinator>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The coordinator found for one key.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct Coordinator {
    /// The coordinator key.
    #[kafka(versions = "4+")]
    pub key: KafkaString,
    /// The node id.
    #[kafka(versions = "4+", entity_type = "brokerId")]
    pub node_id: i32,
    /// The host name.
    #[kafka(versions = "4+")]
    pub host: KafkaString,
    /// The port.
    #[kafka(versions = "4+")]
    pub port: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "4+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "4+", nullable = "4+", ignorable)]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
