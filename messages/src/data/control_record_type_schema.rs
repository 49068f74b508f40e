//! ControlRecordTypeSchema.

/// ControlRecordTypeSchema, a data structure.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0")]
pub struct ControlRecordTypeSchema {
    /// The type of the control record, such as commit or abort
    #[kafka(versions = "0+")]
    pub r#type: i16,
}
