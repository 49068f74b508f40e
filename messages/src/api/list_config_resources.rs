//! ListConfigResources (API key 74): lists the resources that have configs (version 0: client
//! metrics only), for admin clients.

use kwire::{KafkaString, UnknownTaggedFields};

/// ListConfigResources request: the resource types to list.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 74, kind = request, response = ListConfigResourcesResponse, versions = "0-1",
        flexible = "0+", listeners = "broker")]
pub struct ListConfigResourcesRequest {
    /// The list of resource type. If the list is empty, it uses default supported
    /// config resource types.
    #[kafka(versions = "1+")]
    pub resource_types: Vec<i8>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ListConfigResources response: the name and type of each config resource.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 74, kind = response, versions = "0-1", flexible = "0+")]
pub struct ListConfigResourcesResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Each config resource in the response.
    #[kafka(versions = "0+")]
    pub config_resources: Vec<ConfigResource>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A resource that has configs: its name and type.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ConfigResource {
    /// The resource name.
    #[kafka(versions = "0+")]
    pub resource_name: KafkaString,
    /// The resource type.
    #[kafka(versions = "1+", default = 16, ignorable)]
    pub resource_type: i8,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
