//! SnapshotFooterRecord: the control record that ends a KRaft snapshot.

use kwire::UnknownTaggedFields;

/// The end of a snapshot.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0", flexible = "0+")]
pub struct SnapshotFooterRecord {
    /// The version of the snapshot footer record.
    #[kafka(versions = "0+")]
    pub version: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}
