//! DescribeConfigs (API key 32): reads the configuration of resources.

use kwire::{KafkaString, UnknownTaggedFields};

/// DescribeConfigs request: the resources and configuration keys to describe.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 32, kind = request, response = DescribeConfigsResponse, versions = "1-4",
        flexible = "4+", listeners = "broker, controller")]
pub struct DescribeConfigsRequest {
    /// The resources whose configurations we want to describe.
    #[kafka(versions = "0+")]
    pub resources: Vec<DescribeConfigsResource>,
    /// True if we should include all synonyms.
    #[kafka(versions = "1+", default = false)]
    pub include_synonyms: bool,
    /// True if we should include configuration documentation.
    #[kafka(versions = "3+", default = false)]
    pub include_documentation: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A resource whose configuration to describe.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeConfigsResource {
    /// The resource type.
    #[kafka(versions = "0+")]
    pub resource_type: i8,
    /// The resource name.
    #[kafka(versions = "0+")]
    pub resource_name: KafkaString,
    /// The configuration keys to list, or null to list all configuration keys.
    #[kafka(versions = "0+", nullable = "0+")]
    pub configuration_keys: Option<Vec<KafkaString>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeConfigs response: the configuration of each requested resource.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 32, kind = response, versions = "1-4", flexible = "4+")]
pub struct DescribeConfigsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The results for each resource.
    #[kafka(versions = "0+")]
    pub results: Vec<DescribeConfigsResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The configuration of one resource, or the error describing it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeConfigsResult {
    /// The error code, or 0 if we were able to successfully describe the
    /// configurations.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if we were able to successfully describe the
    /// configurations.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// The resource type.
    #[kafka(versions = "0+")]
    pub resource_type: i8,
    /// The resource name.
    #[kafka(versions = "0+")]
    pub resource_name: KafkaString,
    /// Each listed configuration.
    #[kafka(versions = "0+")]
    pub configs: Vec<DescribeConfigsResourceResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One configuration entry of a resource.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeConfigsResourceResult {
    /// The configuration name.
    #[kafka(versions = "0+")]
    pub name: KafkaString,
    /// The configuration value.
    #[kafka(versions = "0+", nullable = "0+")]
    pub value: Option<KafkaString>,
    /// True if the configuration is read-only.
    #[kafka(versions = "0+")]
    pub read_only: bool,
    /// The configuration source.
    #[kafka(versions = "1+", default = -1, ignorable)]
    pub config_source: i8,
    /// True if this configuration is sensitive.
    #[kafka(versions = "0+")]
    pub is_sensitive: bool,
    /// The synonyms for this configuration key.
    #[kafka(versions = "1+", ignorable)]
    pub synonyms: Vec<DescribeConfigsSynonym>,
    /// The configuration data type. Type can be one of the following values - BOOLEAN,
    /// STRING, INT, SHORT, LONG, DOUBLE, LIST, CLASS, PASSWORD.
    #[kafka(versions = "3+", default = 0, ignorable)]
    pub config_type: i8,
    /// The configuration documentation.
    #[kafka(versions = "3+", nullable = "0+", ignorable)]
    pub documentation: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A synonym of a configuration key, with its value and source.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeConfigsSynonym {
    /// The synonym name.
    #[kafka(versions = "1+")]
    pub name: KafkaString,
    /// The synonym value.
    #[kafka(versions = "1+", nullable = "0+")]
    pub value: Option<KafkaString>,
    /// The synonym source.
    #[kafka(versions = "1+")]
    pub source: i8,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
