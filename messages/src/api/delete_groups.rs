//! DeleteGroups (API key 42): deletes empty groups.

use kwire::{KafkaString, UnknownTaggedFields};

/// DeleteGroups request: names the groups to delete.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 42, kind = request, response = DeleteGroupsResponse, versions = "0-3",
        flexible = "2+", listeners = "broker")]
pub struct DeleteGroupsRequest {
    /// The group names to delete.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub groups_names: Vec<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DeleteGroups response: the outcome for each group.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 42, kind = response, versions = "0-3", flexible = "2+")]
pub struct DeleteGroupsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The deletion results.
    #[kafka(versions = "0+")]
    pub results: Vec<DeletableGroupResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The deletion outcome for one group.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DeletableGroupResult {
    /// The group id.
    #[kafka(versions = "0+", map_key, entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The deletion error, or 0 if the deletion succeeded.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "3+", nullable = "3+", default = null, ignorable)]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
