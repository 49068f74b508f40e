//! SyncGroup (API key 14): distributes the leader's partition assignment to the members.

use bytes::Bytes;
use kwire::{KafkaString, UnknownTaggedFields};

/// SyncGroup request: a member (the leader with the assignments) syncs with the group.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 14, kind = request, response = SyncGroupResponse, versions = "0-5",
        flexible = "4+", listeners = "broker")]
pub struct SyncGroupRequest {
    /// The unique group identifier.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The generation of the group.
    #[kafka(versions = "0+")]
    pub generation_id: i32,
    /// The member ID assigned by the group.
    #[kafka(versions = "0+")]
    pub member_id: KafkaString,
    /// The unique identifier of the consumer instance provided by end user.
    #[kafka(versions = "3+", nullable = "3+", default = null)]
    pub group_instance_id: Option<KafkaString>,
    /// The group protocol type.
    #[kafka(versions = "5+", nullable = "5+", default = null, ignorable)]
    pub protocol_type: Option<KafkaString>,
    /// The group protocol name.
    #[kafka(versions = "5+", nullable = "5+", default = null, ignorable)]
    pub protocol_name: Option<KafkaString>,
    /// Each assignment.
    #[kafka(versions = "0+")]
    pub assignments: Vec<SyncGroupRequestAssignment>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The assignment the leader gives one member.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct SyncGroupRequestAssignment {
    /// The ID of the member to assign.
    #[kafka(versions = "0+")]
    pub member_id: KafkaString,
    /// The member assignment.
    #[kafka(versions = "0+")]
    pub assignment: Bytes,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// SyncGroup response: this member's assignment.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 14, kind = response, versions = "0-5", flexible = "4+")]
pub struct SyncGroupResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "1+", ignorable)]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The group protocol type.
    #[kafka(versions = "5+", nullable = "5+", default = null, ignorable)]
    pub protocol_type: Option<KafkaString>,
    /// The group protocol name.
    #[kafka(versions = "5+", nullable = "5+", default = null, ignorable)]
    pub protocol_name: Option<KafkaString>,
    /// The member assignment.
    #[kafka(versions = "0+")]
    pub assignment: Bytes,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
