//! CreateAcls (API key 30): creates ACL bindings.

use kwire::{KafkaString, UnknownTaggedFields};

/// CreateAcls request: the ACLs to create.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 30, kind = request, response = CreateAclsResponse, versions = "1-3",
        flexible = "2+", listeners = "broker, controller")]
pub struct CreateAclsRequest {
    /// The ACLs that we want to create.
    #[kafka(versions = "0+")]
    pub creations: Vec<AclCreation>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One ACL to create.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AclCreation {
    /// The type of the resource.
    #[kafka(versions = "0+")]
    pub resource_type: i8,
    /// The resource name for the ACL.
    #[kafka(versions = "0+")]
    pub resource_name: KafkaString,
    /// The pattern type for the ACL.
    #[kafka(versions = "1+", default = 3)]
    pub resource_pattern_type: i8,
    /// The principal for the ACL.
    #[kafka(versions = "0+")]
    pub principal: KafkaString,
    /// The host for the ACL.
    #[kafka(versions = "0+")]
    pub host: KafkaString,
    /// The operation type for the ACL (read, write, etc.).
    #[kafka(versions = "0+")]
    pub operation: i8,
    /// The permission type for the ACL (allow, deny, etc.).
    #[kafka(versions = "0+")]
    pub permission_type: i8,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// CreateAcls response: one result per requested ACL creation.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 30, kind = response, versions = "1-3", flexible = "2+")]
pub struct CreateAclsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The results for each ACL creation.
    #[kafka(versions = "0+")]
    pub results: Vec<AclCreationResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of one ACL creation.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AclCreationResult {
    /// The result error, or zero if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The result message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
