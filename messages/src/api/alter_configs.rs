//! AlterConfigs (API key 33): replaces the whole configuration of resources.

use kwire::{KafkaString, UnknownTaggedFields};

/// AlterConfigs request: the new configuration of each resource.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 33, kind = request, response = AlterConfigsResponse, versions = "0-2",
        flexible = "2+", listeners = "broker, controller")]
pub struct AlterConfigsRequest {
    /// The updates for each resource.
    #[kafka(versions = "0+")]
    pub resources: Vec<AlterConfigsResource>,
    /// True if we should validate the request, but not change the configurations.
    #[kafka(versions = "0+")]
    pub validate_only: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A resource and the configuration to give it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterConfigsResource {
    /// The resource type.
    #[kafka(versions = "0+", map_key)]
    pub resource_type: i8,
    /// The resource name.
    #[kafka(versions = "0+", map_key)]
    pub resource_name: KafkaString,
    /// The configurations.
    #[kafka(versions = "0+")]
    pub configs: Vec<AlterableConfig>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One configuration key and its new value.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterableConfig {
    /// The configuration key name.
    #[kafka(versions = "0+", map_key)]
    pub name: KafkaString,
    /// The value to set for the configuration key.
    #[kafka(versions = "0+", nullable = "0+")]
    pub value: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AlterConfigs response: the outcome for each resource.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 33, kind = response, versions = "0-2", flexible = "2+")]
pub struct AlterConfigsResponse {
    /// Duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The responses for each resource.
    #[kafka(versions = "0+")]
    pub responses: Vec<AlterConfigsResourceResponse>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of altering one resource's configuration.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterConfigsResourceResponse {
    /// The resource error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The resource error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// The resource type.
    #[kafka(versions = "0+")]
    pub resource_type: i8,
    /// The resource name.
    #[kafka(versions = "0+")]
    pub resource_name: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
