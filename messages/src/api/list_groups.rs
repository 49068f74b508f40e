//! ListGroups (API key 16): lists the groups a broker coordinates.

use kwire::{KafkaString, UnknownTaggedFields};

/// ListGroups request: asks for the groups, optionally filtered by state and type.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 16, kind = request, response = ListGroupsResponse, versions = "0-5",
        flexible = "3+", listeners = "broker")]
pub struct ListGroupsRequest {
    /// The states of the groups we want to list. If empty, all groups are returned with
    /// their state.
    #[kafka(versions = "4+")]
    pub states_filter: Vec<KafkaString>,
    /// The types of the groups we want to list. If empty, all groups are returned with
    /// their type.
    #[kafka(versions = "5+")]
    pub types_filter: Vec<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ListGroups response: the groups the broker coordinates.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 16, kind = response, versions = "0-5", flexible = "3+")]
pub struct ListGroupsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "1+", ignorable)]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Each group in the response.
    #[kafka(versions = "0+")]
    pub groups: Vec<ListedGroup>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One listed group.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ListedGroup {
    /// The group ID.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The group protocol type.
    #[kafka(versions = "0+")]
    pub protocol_type: KafkaString,
    /// The group state name.
    #[kafka(versions = "4+", ignorable)]
    pub group_state: KafkaString,
    /// The group type name.
    #[kafka(versions = "5+", ignorable)]
    pub group_type: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
