//! KRaftVersionRecord: the finalized kraft.version, a control record in the KRaft
//! log and its snapshots.

use kwire::UnknownTaggedFields;

/// The kraft.version feature level in effect from this point of the log.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0", flexible = "0+")]
pub struct KRaftVersionRecord {
    /// The version of the kraft version record.
    #[kafka(versions = "0+")]
    pub version: i16,
    /// The kraft protocol version.
    #[kafka(versions = "0+", name = "KRaftVersion")]
    pub kraft_version: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
