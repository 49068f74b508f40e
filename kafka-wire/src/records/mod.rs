//! Kafka's record batches (magic 2, `RecordBatch` v2): what Produce and Fetch carry in
//! their `records` fields. Read as views over the `Bytes` they arrived in (headers
//! without touching the records, records with keys, values and headers borrowed
//! from the batch, no reference count touched per record), written byte for byte as Kafka's own writer does, compressed
//! and decompressed with every codec Kafka has (each behind a cargo feature), and
//! checked: CRC-32C, lengths against the bytes present, magic, bounded
//! decompression. A stored batch's header is rewritten in place as Kafka's broker
//! rewrites it ([`rewrite`]).

mod attributes;
pub mod batch;
pub mod builder;
pub mod compression;
pub(crate) mod count;
mod error;
pub mod record;
pub mod rewrite;

pub use attributes::{Attributes, Compression, TimestampType};
pub use batch::{Batches, RecordBatch};
pub use builder::RecordBatchBuilder;
pub use compression::{compress, decompress, DecompressionBudget, DEFAULT_MAX_DECOMPRESSED};
pub use error::RecordsError;
pub use record::{Header, Headers, Record, RecordIter};
