//! BrokerHeartbeat (API key 63): a KRaft broker keeps its registration alive and tells
//! the controller its progress and whether it wants to be fenced or shut down.

use kwire::{UnknownTaggedFields, Uuid};

/// BrokerHeartbeat request: the broker's metadata offset and the state it wants to be in.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 63, kind = request, response = BrokerHeartbeatResponse, versions = "0-2",
        flexible = "0+", listeners = "controller")]
pub struct BrokerHeartbeatRequest {
    /// The broker ID.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub broker_id: i32,
    /// The broker epoch.
    #[kafka(versions = "0+", default = -1)]
    pub broker_epoch: i64,
    /// The highest metadata offset which the broker has reached.
    #[kafka(versions = "0+")]
    pub current_metadata_offset: i64,
    /// True if the broker wants to be fenced, false otherwise.
    #[kafka(versions = "0+")]
    pub want_fence: bool,
    /// True if the broker wants to be shut down, false otherwise.
    #[kafka(versions = "0+")]
    pub want_shut_down: bool,
    /// Log directories that failed and went offline.
    #[kafka(versions = "1+", tag = 0, tagged = "1+")]
    pub offline_log_dirs: Vec<Uuid>,
    /// List of log directories that are cordoned. This is null before the broker
    /// reaches the RECOVERY state.
    #[kafka(versions = "2+", nullable = "2+", tag = 1, tagged = "2+", default = null)]
    pub cordoned_log_dirs: Option<Vec<Uuid>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// BrokerHeartbeat response: whether the broker is caught up, fenced, and may shut down.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 63, kind = response, versions = "0-2", flexible = "0+")]
pub struct BrokerHeartbeatResponse {
    /// Duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// True if the broker has approximately caught up with the latest metadata.
    #[kafka(versions = "0+", default = false)]
    pub is_caught_up: bool,
    /// True if the broker is fenced.
    #[kafka(versions = "0+", default = true)]
    pub is_fenced: bool,
    /// True if the broker should proceed with its shutdown.
    #[kafka(versions = "0+")]
    pub should_shut_down: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
