//! EndTxnMarker: the value of a transaction commit or abort marker, a control record
//! written to each partition of the transaction.

/// A transaction marker's value: the epoch of the coordinator that wrote it.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0")]
pub struct EndTxnMarker {
    /// The coordinator epoch when appending the record
    #[kafka(versions = "0+")]
    pub coordinator_epoch: i32,
}
