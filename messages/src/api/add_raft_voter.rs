//! AddRaftVoter (API key 80): adds a voter to the KRaft controller quorum, sent by
//! admin clients.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// AddRaftVoter request: the voter to add, with its directory ID and listeners.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 80, kind = request, response = AddRaftVoterResponse, versions = "0-1",
        flexible = "0+", listeners = "controller, broker")]
pub struct AddRaftVoterRequest {
    /// The cluster id.
    #[kafka(versions = "0+", nullable = "0+")]
    pub cluster_id: Option<KafkaString>,
    /// The maximum time to wait for the request to complete before returning.
    #[kafka(versions = "0+")]
    pub timeout_ms: i32,
    /// The replica id of the voter getting added to the topic partition.
    #[kafka(versions = "0+")]
    pub voter_id: i32,
    /// The directory id of the voter getting added to the topic partition.
    #[kafka(versions = "0+")]
    pub voter_directory_id: Uuid,
    /// The endpoints that can be used to communicate with the voter.
    #[kafka(versions = "0+")]
    pub listeners: Vec<Listener>,
    /// When true, return a response after the new voter set is committed. Otherwise,
    /// return after the leader writes the changes locally.
    #[kafka(versions = "1+", default = true)]
    pub ack_when_committed: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A named endpoint on which the new voter can be reached.
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

/// AddRaftVoter response: whether the voter was added.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 80, kind = response, versions = "0-1", flexible = "0+")]
pub struct AddRaftVoterResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", ignorable)]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
