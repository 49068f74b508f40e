//! UpdateRaftVoter (API key 82): a KRaft voter tells the quorum leader its current
//! listeners and supported kraft.version range.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// UpdateRaftVoter request: the voter's identity, endpoints and supported KRaft
/// versions.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 82, kind = request, response = UpdateRaftVoterResponse, versions = "0",
        flexible = "0+", listeners = "controller")]
pub struct UpdateRaftVoterRequest {
    /// The cluster id.
    #[kafka(versions = "0+", nullable = "0+")]
    pub cluster_id: Option<KafkaString>,
    /// The current leader epoch of the partition, -1 for unknown leader epoch.
    #[kafka(versions = "0+")]
    pub current_leader_epoch: i32,
    /// The replica id of the voter getting updated in the topic partition.
    #[kafka(versions = "0+")]
    pub voter_id: i32,
    /// The directory id of the voter getting updated in the topic partition.
    #[kafka(versions = "0+")]
    pub voter_directory_id: Uuid,
    /// The endpoint that can be used to communicate with the leader.
    #[kafka(versions = "0+")]
    pub listeners: Vec<Listener>,
    /// The range of versions of the protocol that the replica supports.
    #[kafka(versions = "0+", name = "KRaftVersionFeature")]
    pub kraft_version_feature: KRaftVersionFeature,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A named endpoint on which the voter can be reached.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct Listener {
    /// The name of the endpoint.
    #[kafka(versions = "0+", map_key)]
    pub name: KafkaString,
    /// The hostname.
    #[kafka(versions = "0+")]
    pub host: KafkaString,
    /// The port.
    #[kafka(versions = "0+")]
    pub port: u16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The range of KRaft protocol versions the voter supports.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct KRaftVersionFeature {
    /// The minimum supported KRaft protocol version.
    #[kafka(versions = "0+")]
    pub min_supported_version: i16,
    /// The maximum supported KRaft protocol version.
    #[kafka(versions = "0+")]
    pub max_supported_version: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// UpdateRaftVoter response: whether the update was accepted, and the current leader.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 82, kind = response, versions = "0", flexible = "0+")]
pub struct UpdateRaftVoterResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Details of the current Raft cluster leader.
    #[kafka(versions = "0+", tag = 0, tagged = "0+")]
    pub current_leader: CurrentLeader,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The current quorum leader, its epoch and how to reach it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CurrentLeader {
    /// The replica id of the current leader or -1 if the leader is unknown.
    #[kafka(versions = "0+", default = -1, entity_type = "brokerId")]
    pub leader_id: i32,
    /// The latest known leader epoch.
    #[kafka(versions = "0+", default = -1)]
    pub leader_epoch: i32,
    /// The node's hostname.
    #[kafka(versions = "0+")]
    pub host: KafkaString,
    /// The node's port.
    #[kafka(versions = "0+")]
    pub port: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
