//! The compression codecs of record batches: what the records section of a batch
//! holds when its attributes name a codec, read and written the way Kafka's clients
//! do.
//!
//! | codec | feature | reads | writes |
//! | --- | --- | --- | --- |
//! | gzip | `gzip` | gzip members, one or more (RFC 1952, CRC-32 and length checked) | one gzip member, deflate level 6 (Kafka's default) |
//! | snappy | `snappy` | the xerial framing, or one raw snappy block when the xerial magic is absent | the xerial framing, 32 KiB of input per block |
//! | lz4 | `lz4` | LZ4 frames, one or more (any block size, linked or independent blocks, checksums verified when present) | one LZ4 frame: 64 KiB blocks, independent, no checksums, no content size |
//! | zstd | `zstd` | Zstandard frames, one or more (skippable frames skipped) | one Zstandard frame, level 3 (Kafka's default) |
//!
//! **The xerial framing** is what Kafka's Java client writes for snappy
//! (`org.xerial.snappy.SnappyOutputStream`), and librdkafka too: a 16-byte header
//! (the magic `82 53 4e 41 50 50 59 00`, "\x82SNAPPY\0", then a big-endian int32
//! version, 1, and an int32 compatible version, 1), then blocks, each a big-endian
//! int32 length and a raw snappy block of that many bytes. There is no end marker.
//! Kafka's reader (`SnappyInputStream`) falls back to one raw snappy block when the
//! magic is absent, and skips the header of another stream concatenated after the
//! first; so does [`decompress`].
//!
//! **Decompression is bounded**: no codec allocates from a size that the input only
//! claims (a gzip member's ISIZE, a zstd frame's content size, a snappy block's
//! length). gzip, lz4 and zstd are read as streams, taking at most one byte more
//! than the limit, into a buffer that grows with what actually came out; a snappy
//! block's claimed length is checked against what is left of the limit, and against
//! what its compressed bytes could possibly expand to, before its output is
//! allocated; a zstd frame's window is capped by the limit too (see [`decompress`]).
//!
//! Every compressed codec refuses empty input as
//! [`RecordsError::Corrupt`](super::RecordsError::Corrupt): each writes at least a
//! header, even for no records.

mod budget;
mod dispatch;
mod error;
#[cfg(feature = "gzip")]
mod gzip;
mod limit;
#[cfg(feature = "lz4")]
mod lz4;
#[cfg(feature = "snappy")]
mod snappy;
#[cfg(test)]
mod test_support;
#[cfg(feature = "zstd")]
mod zstd;

pub use budget::DecompressionBudget;
pub use dispatch::{compress, decompress};
pub use limit::DEFAULT_MAX_DECOMPRESSED;
