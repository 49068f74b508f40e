//! VotersRecord: the set of KRaft voters with their endpoints, a control record in
//! the KRaft log and its snapshots.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// The voters of the KRaft quorum from this point of the log.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0", flexible = "0+")]
pub struct VotersRecord {
    /// The version of the voters record.
    #[kafka(versions = "0+")]
    pub version: i16,
    /// The set of voters in the quorum for this epoch.
    #[kafka(versions = "0+")]
    pub voters: Vec<Voter>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A voter: its IDs, endpoints and supported KRaft versions.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct Voter {
    /// The replica id of the voter in the topic partition.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub voter_id: i32,
    /// The directory id of the voter in the topic partition.
    #[kafka(versions = "0+")]
    pub voter_directory_id: Uuid,
    /// The endpoint that can be used to communicate with the voter.
    #[kafka(versions = "0+")]
    pub endpoints: Vec<Endpoint>,
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
pub struct Endpoint {
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
