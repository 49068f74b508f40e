//! LeaderChangeMessage.

use kafka_wire::{UnknownTaggedFields, Uuid};

/// LeaderChangeMessage, a data structure.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0-1", flexible = "0+")]
pub struct LeaderChangeMessage {
    /// The version of the leader change message.
    #[kafka(versions = "0+")]
    pub version: i16,
    /// The ID of the newly elected leader.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub leader_id: i32,
    /// The set of voters in the quorum for this epoch.
    #[kafka(versions = "0+")]
    pub voters: Vec<Voter>,
    /// The voters who voted for the leader at the time of election.
    #[kafka(versions = "0+")]
    pub granting_voters: Vec<Voter>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// Voter, a common struct of LeaderChangeMessage.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct Voter {
    /// The ID of the voter.
    #[kafka(versions = "0+")]
    pub voter_id: i32,
    /// The directory id of the voter.
    #[kafka(versions = "1+")]
    pub voter_directory_id: Uuid,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
