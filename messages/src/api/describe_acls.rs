//! DescribeAcls (API key 29): lists the ACLs that match a filter.

use kwire::{KafkaString, UnknownTaggedFields};

/// DescribeAcls request: a filter selecting the ACLs to describe.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 29, kind = request, response = DescribeAclsResponse, versions = "1-3",
        flexible = "2+", listeners = "broker, controller")]
pub struct DescribeAclsRequest {
    /// The resource type.
    #[kafka(versions = "0+")]
    pub resource_type_filter: i8,
    /// The resource name, or null to match any resource name.
    #[kafka(versions = "0+", nullable = "0+")]
    pub resource_name_filter: Option<KafkaString>,
    /// The resource pattern to match.
    #[kafka(versions = "1+", default = 3)]
    pub pattern_type_filter: i8,
    /// The principal to match, or null to match any principal.
    #[kafka(versions = "0+", nullable = "0+")]
    pub principal_filter: Option<KafkaString>,
    /// The host to match, or null to match any host.
    #[kafka(versions = "0+", nullable = "0+")]
    pub host_filter: Option<KafkaString>,
    /// The operation to match.
    #[kafka(versions = "0+")]
    pub operation: i8,
    /// The permission type to match.
    #[kafka(versions = "0+")]
    pub permission_type: i8,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeAcls response: the matching ACLs, grouped by resource.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 29, kind = response, versions = "1-3", flexible = "2+")]
pub struct DescribeAclsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// Each Resource that is referenced in an ACL.
    #[kafka(versions = "0+")]
    pub resources: Vec<DescribeAclsResource>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A resource referenced by the matching ACLs, with those ACLs.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeAclsResource {
    /// The resource type.
    #[kafka(versions = "0+")]
    pub resource_type: i8,
    /// The resource name.
    #[kafka(versions = "0+")]
    pub resource_name: KafkaString,
    /// The resource pattern type.
    #[kafka(versions = "1+", default = 3)]
    pub pattern_type: i8,
    /// The ACLs.
    #[kafka(versions = "0+")]
    pub acls: Vec<AclDescription>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One ACL on a resource.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct AclDescription {
    /// The ACL principal.
    #[kafka(versions = "0+")]
    pub principal: KafkaString,
    /// The ACL host.
    #[kafka(versions = "0+")]
    pub host: KafkaString,
    /// The ACL operation.
    #[kafka(versions = "0+")]
    pub operation: i8,
    /// The ACL permission type.
    #[kafka(versions = "0+")]
    pub permission_type: i8,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
