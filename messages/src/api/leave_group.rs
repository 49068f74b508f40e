//! LeaveGroup (API key 13): removes members from a group.

use kwire::{KafkaString, UnknownTaggedFields};

/// LeaveGroup request: one or more members leave a group.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 13, kind = request, response = LeaveGroupResponse, versions = "0-5",
        flexible = "4+", listeners = "broker")]
pub struct LeaveGroupRequest {
    /// The ID of the group to leave.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The member ID to remove from the group.
    #[kafka(versions = "0-2")]
    pub member_id: KafkaString,
    /// List of leaving member identities.
    #[kafka(versions = "3+")]
    pub members: Vec<MemberIdentity>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A member leaving the group.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct MemberIdentity {
    /// The member ID to remove from the group.
    #[kafka(versions = "3+")]
    pub member_id: KafkaString,
    /// The group instance ID to remove from the group.
    #[kafka(versions = "3+", nullable = "3+", default = null)]
    pub group_instance_id: Option<KafkaString>,
    /// The reason why the member left the group.
    #[kafka(versions = "5+", nullable = "5+", default = null, ignorable)]
    pub reason: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// LeaveGroup response: the outcome for the group and for each leaving member.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 13, kind = response, versions = "0-5", flexible = "4+")]
pub struct LeaveGroupResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "1+", ignorable)]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// List of leaving member responses.
    #[kafka(versions = "3+")]
    pub members: Vec<MemberResponse>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome for one leaving member.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct MemberResponse {
    /// The member ID to remove from the group.
    #[kafka(versions = "3+")]
    pub member_id: KafkaString,
    /// The group instance ID to remove from the group.
    #[kafka(versions = "3+", nullable = "3+")]
    pub group_instance_id: Option<KafkaString>,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "3+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
