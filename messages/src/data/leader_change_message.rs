//! LeaderChangeMessage: a control record a newly elected KRaft leader writes to the
//! log, naming itself and the voters.

use kwire::{UnknownTaggedFields, Uuid};

/// A leader election: the new leader, the voters and those that voted for it.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
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

/// A voter of the quorum, by replica ID and directory ID.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
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
