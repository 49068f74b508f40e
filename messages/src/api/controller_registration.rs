//! ControllerRegistration (API key 70): a KRaft controller registers with the active controller.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// ControllerRegistration request: the controller's ID, incarnation, listeners and features.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 70, kind = request, response = ControllerRegistrationResponse, versions = "0",
        flexible = "0+", listeners = "controller")]
pub struct ControllerRegistrationRequest {
    /// The ID of the controller to register.
    #[kafka(versions = "0+")]
    pub controller_id: i32,
    /// The controller incarnation ID, which is unique to each process run.
    #[kafka(versions = "0+")]
    pub incarnation_id: Uuid,
    /// Set if the required configurations for ZK migration are present.
    #[kafka(versions = "0+")]
    pub zk_migration_ready: bool,
    /// The listeners of this controller.
    #[kafka(versions = "0+")]
    pub listeners: Vec<Listener>,
    /// The features on this controller.
    #[kafka(versions = "0+")]
    pub features: Vec<Feature>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A listener of the controller: its name, address and security protocol.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct Listener {
    /// The name of the endpoint.
    #[kafka(versions = "0+", map_key)]
    pub name: KafkaString,
    /// The hostname.
    #[kafka(versions = "0+")]
    pub host: KafkaString,
    /// The port.
    #[kafka(versions = "0+")]
    pub port: u16,
    /// The security protocol.
    #[kafka(versions = "0+")]
    pub security_protocol: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A feature the controller supports, with its range of levels.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct Feature {
    /// The feature name.
    #[kafka(versions = "0+", map_key)]
    pub name: KafkaString,
    /// The minimum supported feature level.
    #[kafka(versions = "0+")]
    pub min_supported_version: i16,
    /// The maximum supported feature level.
    #[kafka(versions = "0+")]
    pub max_supported_version: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ControllerRegistration response: whether the registration succeeded.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 70, kind = response, versions = "0", flexible = "0+")]
pub struct ControllerRegistrationResponse {
    /// Duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The response error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The response error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
