//! SnapshotHeaderRecord: the control record that starts a KRaft snapshot.

use kwire::UnknownTaggedFields;

/// The start of a snapshot, with the append time of the last record it contains.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0", flexible = "0+")]
pub struct SnapshotHeaderRecord {
    /// The version of the snapshot header record.
    #[kafka(versions = "0+")]
    pub version: i16,
    /// The append time of the last record from the log contained in this snapshot.
    #[kafka(versions = "0+")]
    pub last_contained_log_timestamp: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
