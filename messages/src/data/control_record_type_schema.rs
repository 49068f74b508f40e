//! ControlRecordTypeSchema: the key of a control record in a record batch, naming its
//! type.

/// The type of a control record (abort, commit, leader change, ...).
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0")]
pub struct ControlRecordTypeSchema {
    /// The type of the control record, such as commit or abort
    #[kafka(versions = "0+")]
    pub r#type: i16,
}
