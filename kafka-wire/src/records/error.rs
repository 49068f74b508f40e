//! Why records could not be read or written.

/// Why a record batch could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordsError {
    /// The batch's stored CRC-32C does not match its bytes.
    #[error("batch at base offset {base_offset}: CRC-32C is {actual:#010x}, the batch says {stored:#010x}")]
    CrcMismatch {
        /// The batch's base offset.
        base_offset: i64,
        /// The CRC the batch carries.
        stored: u32,
        /// The CRC of its bytes.
        actual: u32,
    },
    /// A batch in a format other than magic 2: legacy message sets (magic 0 and 1)
    /// are recognised and reported, not read.
    #[error("batch at base offset {base_offset} has magic {magic}; only magic 2 (RecordBatch v2) is read")]
    UnsupportedMagic {
        /// The batch's base offset.
        base_offset: i64,
        /// Its magic byte.
        magic: i8,
    },
    /// A length that does not fit the bytes present (or is negative where it may
    /// not be).
    #[error("{what}: length {len} does not fit the {available} bytes present")]
    BadLength {
        /// Which length.
        what: &'static str,
        /// The length read.
        len: i64,
        /// The bytes there were.
        available: usize,
    },
    /// The bytes ended inside a value.
    #[error("{what}: the bytes end {needed} bytes early")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// How many more bytes it needed.
        needed: usize,
    },
    /// A varint longer than its type allows.
    #[error("{what}: varint longer than {max_bytes} bytes")]
    VarintTooLong {
        /// What was being read.
        what: &'static str,
        /// The most bytes the varint may take.
        max_bytes: usize,
    },
    /// The batch says it holds a different number of records than its bytes do.
    #[error("batch at base offset {base_offset} says {declared} records, its bytes hold {found}")]
    RecordCount {
        /// The batch's base offset.
        base_offset: i64,
        /// The count in the header.
        declared: i32,
        /// The records read (at least; reading may stop early).
        found: usize,
    },
    /// Bytes left after a record's declared length or after the last record.
    #[error("{what}: {left} bytes left over")]
    TrailingBytes {
        /// Where.
        what: &'static str,
        /// How many.
        left: usize,
    },
    /// The compression codec bits name no codec (5, 6 or 7).
    #[error("unknown compression codec {0}")]
    UnknownCompression(u8),
    /// The codec is known but its cargo feature is not enabled.
    #[error("{0} compression needs the `{1}` feature of kafka-wire")]
    CodecNotEnabled(&'static str, &'static str),
    /// Decompressing would give more bytes than allowed.
    #[error("decompressed {codec} data exceeds the limit of {limit} bytes")]
    DecompressedTooLarge {
        /// The codec.
        codec: &'static str,
        /// The limit.
        limit: usize,
    },
    /// The compressed data is corrupt.
    #[error("corrupt {codec} data: {reason}")]
    Corrupt {
        /// The codec.
        codec: &'static str,
        /// What its decoder said.
        reason: String,
    },
    /// A value too large for the field Kafka writes it in.
    #[error("{what} is too large for the batch format")]
    TooLarge {
        /// What.
        what: &'static str,
    },
    /// A record offset delta outside the int32 a record carries it in, or negative:
    /// a record's offset is never below its batch's base offset.
    #[error("record offset delta {offset_delta} is outside 0..={max}", max = i32::MAX)]
    OffsetDeltaOutOfRange {
        /// The offset delta asked for.
        offset_delta: i64,
    },
    /// A record offset delta not above the one before it: offsets within a batch
    /// strictly increase (Kafka's builder: "Offsets must increase monotonically").
    #[error("record offset delta {offset_delta} does not follow {previous}: offset deltas strictly increase")]
    OffsetDeltaNotAscending {
        /// The offset delta asked for.
        offset_delta: i64,
        /// The previous record's offset delta.
        previous: i32,
    },
    /// A batch's last offset delta below its last record's offset delta, or
    /// negative.
    #[error("last offset delta {last_offset_delta} is below {least}, the least the batch allows")]
    LastOffsetDeltaTooSmall {
        /// The last offset delta asked for.
        last_offset_delta: i32,
        /// The last record's offset delta (0 for an empty batch).
        least: i32,
    },
    /// Batch settings that contradict each other: no batch Kafka writes has them
    /// together.
    #[error("inconsistent record batch: {0}")]
    InconsistentBatch(&'static str),
    /// One of a server's [`DecodeLimits`](crate::DecodeLimits) was exceeded
    /// (see [`DecompressionBudget`](super::DecompressionBudget)).
    #[error("{limit} of {value} is over the limit of {max}")]
    LimitExceeded {
        /// The limit.
        limit: crate::Limit,
        /// The value asked for (for decompression: the bytes decompressed when it
        /// was stopped, one past the limit).
        value: u64,
        /// The limit's value.
        max: u64,
    },
}
