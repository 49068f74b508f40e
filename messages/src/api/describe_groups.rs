//! DescribeGroups (API key 15): describes the state and members of groups.

use bytes::Bytes;
use kwire::{KafkaString, UnknownTaggedFields};

/// DescribeGroups request: names the groups to describe.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 15, kind = request, response = DescribeGroupsResponse, versions = "0-6",
        flexible = "5+", listeners = "broker")]
pub struct DescribeGroupsRequest {
    /// The names of the groups to describe.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub groups: Vec<KafkaString>,
    /// Whether to include authorized operations.
    #[kafka(versions = "3+")]
    pub include_authorized_operations: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeGroups response: each group's state, protocol and members.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 15, kind = response, versions = "0-6", flexible = "5+")]
pub struct DescribeGroupsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "1+", ignorable)]
    pub throttle_time_ms: i32,
    /// Each described group.
    #[kafka(versions = "0+")]
    pub groups: Vec<DescribedGroup>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One described group.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribedGroup {
    /// The describe error, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The describe error message, or null if there was no error.
    #[kafka(versions = "6+", nullable = "6+", default = null)]
    pub error_message: Option<KafkaString>,
    /// The group ID string.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The group state string, or the empty string.
    #[kafka(versions = "0+")]
    pub group_state: KafkaString,
    /// The group protocol type, or the empty string.
    #[kafka(versions = "0+")]
    pub protocol_type: KafkaString,
    /// The group protocol data, or the empty string.
    #[kafka(versions = "0+")]
    pub protocol_data: KafkaString,
    /// The group members.
    #[kafka(versions = "0+")]
    pub members: Vec<DescribedGroupMember>,
    /// 32-bit bitfield to represent authorized operations for this group.
    #[kafka(versions = "3+", default = -2147483648)]
    pub authorized_operations: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One member of a described group.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribedGroupMember {
    /// The member id.
    #[kafka(versions = "0+")]
    pub member_id: KafkaString,
    /// The unique identifier of the consumer instance provided by end user.
    #[kafka(versions = "4+", nullable = "4+", default = null, ignorable)]
    pub group_instance_id: Option<KafkaString>,
    /// The client ID used in the member's latest join group request.
    #[kafka(versions = "0+")]
    pub client_id: KafkaString,
    /// The client host.
    #[kafka(versions = "0+")]
    pub client_host: KafkaString,
    /// The metadata corresponding to the current group protocol in use.
    #[kafka(versions = "0+")]
    pub member_metadata: Bytes,
    /// The current assignment provided by the group leader.
    #[kafka(versions = "0+")]
    pub member_assignment: Bytes,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
