//! JoinGroup (API key 11): joins a member to a group, starting or entering a rebalance.

use bytes::Bytes;
use kwire::{KafkaString, UnknownTaggedFields};

/// JoinGroup request: a member asks to join a group with the protocols it supports.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 11, kind = request, response = JoinGroupResponse, versions = "0-9",
        flexible = "6+", listeners = "broker")]
pub struct JoinGroupRequest {
    /// The group identifier.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The coordinator considers the consumer dead if it receives no heartbeat after
    /// this timeout in milliseconds.
    #[kafka(versions = "0+")]
    pub session_timeout_ms: i32,
    /// The maximum time in milliseconds that the coordinator will wait for each member
    /// to rejoin when rebalancing the group.
    #[kafka(versions = "1+", default = -1, ignorable)]
    pub rebalance_timeout_ms: i32,
    /// The member id assigned by the group coordinator.
    #[kafka(versions = "0+")]
    pub member_id: KafkaString,
    /// The unique identifier of the consumer instance provided by end user.
    #[kafka(versions = "5+", nullable = "5+", default = null)]
    pub group_instance_id: Option<KafkaString>,
    /// The unique name the for class of protocols implemented by the group we want to
    /// join.
    #[kafka(versions = "0+")]
    pub protocol_type: KafkaString,
    /// The list of protocols that the member supports.
    #[kafka(versions = "0+")]
    pub protocols: Vec<JoinGroupRequestProtocol>,
    /// The reason why the member (re-)joins the group.
    #[kafka(versions = "8+", nullable = "8+", default = null, ignorable)]
    pub reason: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A protocol the joining member supports, with its metadata.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct JoinGroupRequestProtocol {
    /// The protocol name.
    #[kafka(versions = "0+", map_key)]
    pub name: KafkaString,
    /// The protocol metadata.
    #[kafka(versions = "0+")]
    pub metadata: Bytes,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// JoinGroup response: the generation, chosen protocol, leader and (for the leader)
/// the members.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 11, kind = response, versions = "0-9", flexible = "6+")]
pub struct JoinGroupResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "2+", ignorable)]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The generation ID of the group.
    #[kafka(versions = "0+", default = -1)]
    pub generation_id: i32,
    /// The group protocol name.
    #[kafka(versions = "7+", nullable = "7+", default = null, ignorable)]
    pub protocol_type: Option<KafkaString>,
    /// The group protocol selected by the coordinator.
    #[kafka(versions = "0+", nullable = "7+")]
    pub protocol_name: Option<KafkaString>,
    /// The leader of the group.
    #[kafka(versions = "0+")]
    pub leader: KafkaString,
    /// True if the leader must skip running the assignment.
    #[kafka(versions = "9+", default = false)]
    pub skip_assignment: bool,
    /// The member ID assigned by the group coordinator.
    #[kafka(versions = "0+")]
    pub member_id: KafkaString,
    /// The group members.
    #[kafka(versions = "0+")]
    pub members: Vec<JoinGroupResponseMember>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A group member, as told to the group leader.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct JoinGroupResponseMember {
    /// The group member ID.
    #[kafka(versions = "0+")]
    pub member_id: KafkaString,
    /// The unique identifier of the consumer instance provided by end user.
    #[kafka(versions = "5+", nullable = "5+", default = null, ignorable)]
    pub group_instance_id: Option<KafkaString>,
    /// The group member metadata.
    #[kafka(versions = "0+")]
    pub metadata: Bytes,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
