//! AbortedTxn: the offset range of an aborted transaction, an entry of a log segment's
//! transaction index.

/// An aborted transaction: its producer, offset range and the last stable offset then.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0")]
pub struct AbortedTxn {
    /// The producer id associated with the aborted transaction
    #[kafka(versions = "0+")]
    pub producer_id: i64,
    /// The first offset in the aborted transaction
    #[kafka(versions = "0+")]
    pub first_offset: i64,
    /// The last offset in the aborted transaction
    #[kafka(versions = "0+")]
    pub last_offset: i64,
    /// The last stable offset at the time the transaction was aborted
    #[kafka(versions = "0+")]
    pub last_stable_offset: i64,
}
