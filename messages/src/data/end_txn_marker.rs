//! EndTxnMarker.

/// EndTxnMarker, a data structure.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0")]
pub struct EndTxnMarker {
    /// The coordinator epoch when appending the record
    #[kafka(versions = "0+")]
    pub coordinator_epoch: i32,
}
