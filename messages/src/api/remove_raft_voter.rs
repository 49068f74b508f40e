//! RemoveRaftVoter (API key 81): removes a voter from the KRaft controller quorum,
//! sent by admin clients.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// RemoveRaftVoter request: the voter to remove, by replica ID and directory ID.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 81, kind = request, response = RemoveRaftVoterResponse, versions = "0",
        flexible = "0+", listeners = "controller, broker")]
pub struct RemoveRaftVoterRequest {
    /// The cluster id of the request.
    #[kafka(versions = "0+", nullable = "0+")]
    pub cluster_id: Option<KafkaString>,
    /// The replica id of the voter getting removed from the topic partition.
    #[kafka(versions = "0+")]
    pub voter_id: i32,
    /// The directory id of the voter getting removed from the topic partition.
    #[kafka(versions = "0+")]
    pub voter_directory_id: Uuid,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// RemoveRaftVoter response: whether the voter was removed.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 81, kind = response, versions = "0", flexible = "0+")]
pub struct RemoveRaftVoterResponse {
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
