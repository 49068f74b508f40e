//! Heartbeat (API key 12): a consumer group member tells the coordinator it is alive.

use kwire::{KafkaString, UnknownTaggedFields};

/// Heartbeat request: the member and generation that are still alive.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 12, kind = request, response = HeartbeatResponse, versions = "0-4",
        flexible = "4+", listeners = "broker")]
pub struct HeartbeatRequest {
    /// The group id.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The generation of the group.
    #[kafka(versions = "0+")]
    pub generation_id: i32,
    /// The member ID.
    #[kafka(versions = "0+")]
    pub member_id: KafkaString,
    /// The unique identifier of the consumer instance provided by end user.
    #[kafka(versions = "3+", nullable = "3+", default = null)]
    pub group_instance_id: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// Heartbeat response: whether the member is still in good standing.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 12, kind = response, versions = "0-4", flexible = "4+")]
pub struct HeartbeatResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "1+", ignorable)]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
