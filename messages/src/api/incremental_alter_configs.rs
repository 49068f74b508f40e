//! IncrementalAlterConfigs (API key 44): sets, deletes, appends to or subtracts from
//! individual configuration keys of resources.

use kwire::{KafkaString, UnknownTaggedFields};

/// IncrementalAlterConfigs request: the configuration operations for each resource.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 44, kind = request, response = IncrementalAlterConfigsResponse, versions = "0-1",
        flexible = "1+", listeners = "broker, controller")]
pub struct IncrementalAlterConfigsRequest {
    /// The incremental updates for each resource.
    #[kafka(versions = "0+")]
    pub resources: Vec<AlterConfigsResource>,
    /// True if we should validate the request, but not change the configurations.
    #[kafka(versions = "0+")]
    pub validate_only: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A resource and the configuration operations to apply to it.
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

/// One operation on a configuration key.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AlterableConfig {
    /// The configuration key name.
    #[kafka(versions = "0+", map_key)]
    pub name: KafkaString,
    /// The type (Set, Delete, Append, Subtract) of operation.
    #[kafka(versions = "0+", map_key)]
    pub config_operation: i8,
    /// The value to set for the configuration key.
    #[kafka(versions = "0+", nullable = "0+")]
    pub value: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// IncrementalAlterConfigs response: the outcome for each resource.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 44, kind = response, versions = "0-1", flexible = "1+")]
pub struct IncrementalAlterConfigsResponse {
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
