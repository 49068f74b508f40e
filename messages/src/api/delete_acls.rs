//! DeleteAcls (API key 31): deletes the ACLs that match filters.

use kwire::{KafkaString, UnknownTaggedFields};

/// DeleteAcls request: the filters selecting the ACLs to delete.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 31, kind = request, response = DeleteAclsResponse, versions = "1-3",
        flexible = "2+", listeners = "broker, controller")]
pub struct DeleteAclsRequest {
    /// The filters to use when deleting ACLs.
    #[kafka(versions = "0+")]
    pub filters: Vec<DeleteAclsFilter>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One filter selecting ACLs to delete.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeleteAclsFilter {
    /// The resource type.
    #[kafka(versions = "0+")]
    pub resource_type_filter: i8,
    /// The resource name, or null to match any resource name.
    #[kafka(versions = "0+", nullable = "0+")]
    pub resource_name_filter: Option<KafkaString>,
    /// The pattern type.
    #[kafka(versions = "1+", default = 3)]
    pub pattern_type_filter: i8,
    /// The principal filter, or null to accept all principals.
    #[kafka(versions = "0+", nullable = "0+")]
    pub principal_filter: Option<KafkaString>,
    /// The host filter, or null to accept all hosts.
    #[kafka(versions = "0+", nullable = "0+")]
    pub host_filter: Option<KafkaString>,
    /// The ACL operation.
    #[kafka(versions = "0+")]
    pub operation: i8,
    /// The permission type.
    #[kafka(versions = "0+")]
    pub permission_type: i8,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DeleteAcls response: per filter, the ACLs it matched and whether they were deleted.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 31, kind = response, versions = "1-3", flexible = "2+")]
pub struct DeleteAclsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The results for each filter.
    #[kafka(versions = "0+")]
    pub filter_results: Vec<DeleteAclsFilterResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of one delete filter.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeleteAclsFilterResult {
    /// The error code, or 0 if the filter succeeded.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if the filter succeeded.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// The ACLs which matched this filter.
    #[kafka(versions = "0+")]
    pub matching_acls: Vec<DeleteAclsMatchingAcl>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One ACL matched by a delete filter, and the outcome of its deletion.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeleteAclsMatchingAcl {
    /// The deletion error code, or 0 if the deletion succeeded.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The deletion error message, or null if the deletion succeeded.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// The ACL resource type.
    #[kafka(versions = "0+")]
    pub resource_type: i8,
    /// The ACL resource name.
    #[kafka(versions = "0+")]
    pub resource_name: KafkaString,
    /// The ACL resource pattern type.
    #[kafka(versions = "1+", default = 3)]
    pub pattern_type: i8,
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
