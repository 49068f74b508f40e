//! The decode limits a server sets: one small `Copy` value, handed to the frame
//! splitter, the frame decoders, the message [`Reader`](crate::Reader) and the
//! records layer, so that no length or count a peer sends sizes memory beyond what
//! the server chose.

use std::fmt;

/// The bounds every decode keeps to: the largest frame, string, bytes value and
/// array, and per request (per [`Reader`](crate::Reader), i.e. per decoded
/// message) the array elements, records and decompressed bytes in all.
///
/// [`Default`] is this crate's behaviour without limits: frames up to 100 MiB
/// (Kafka's `socket.request.max.bytes`), strings up to Kafka's 32767 bytes,
/// decompression up to [`DEFAULT_MAX_DECOMPRESSED`](crate::records::DEFAULT_MAX_DECOMPRESSED)
/// per batch and per request, and no bound on the rest beyond the one decoding
/// always keeps (a count no larger than the bytes left can hold).
///
/// Each limit is checked where the length or count is read, before anything is
/// sized by it; exceeding one is
/// [`DecodeErrorKind::LimitExceeded`](crate::DecodeErrorKind::LimitExceeded)
/// (or the frame layer's and records layer's own typed errors), naming the
/// [`Limit`], the value asked for and the maximum.
///
/// A server sets its limits once and decodes every request with them:
///
/// ```
/// use kwire::bytes::Bytes;
/// use kwire::{DecodeErrorKind, DecodeLimits, Limit, Message, Reader, UnknownTaggedFields};
///
/// /// A request naming topics.
/// #[derive(Debug, Clone, PartialEq, kwire::Message)]
/// #[kafka(kind = data, versions = "0")]
/// struct Topics {
///     /// The topics' names.
///     #[kafka(versions = "0+")]
///     names: Vec<kwire::KafkaString>,
/// }
///
/// let limits = DecodeLimits::default()
///     .with_max_frame_size(1 << 20)
///     .with_max_string_len(255)
///     .with_max_array_len(1000)
///     .with_max_array_elements(10_000)
///     .with_max_records(100_000)
///     .with_max_decompressed_bytes(16 << 20);
///
/// let request = Topics { names: vec!["orders".into(), "payments".into()] };
/// let bytes = request.encode(0).unwrap();
/// assert_eq!(Topics::decode_with_limits(&bytes, 0, &limits).unwrap(), request);
///
/// // One name too many for a stricter server: refused at the count, before the
/// // array is allocated.
/// let strict = limits.with_max_array_len(1);
/// let err = Topics::decode_with_limits(&bytes, 0, &strict).unwrap_err();
/// assert_eq!(
///     err.kind(),
///     &DecodeErrorKind::LimitExceeded { limit: Limit::ArrayLength, value: 2, max: 1 }
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DecodeLimits {
    max_frame_size: usize,
    max_string_len: usize,
    max_bytes_len: usize,
    max_array_len: usize,
    max_array_elements: usize,
    max_records: usize,
    max_decompressed_bytes: usize,
}

/// Kafka caps every string at the int16 maximum: no limit can raise it.
pub(crate) const KAFKA_MAX_STRING_LEN: usize = i16::MAX as usize;

impl DecodeLimits {
    /// Today's bounds: see [`DecodeLimits`]. The same as `DecodeLimits::default()`,
    /// usable in a `const`.
    ///
    /// ```
    /// use kwire::DecodeLimits;
    ///
    /// const LIMITS: DecodeLimits = DecodeLimits::DEFAULT;
    /// assert_eq!(LIMITS, DecodeLimits::default());
    /// assert_eq!(LIMITS.max_frame_size(), 100 * 1024 * 1024);
    /// ```
    pub const DEFAULT: DecodeLimits = DecodeLimits {
        max_frame_size: 100 * 1024 * 1024,
        max_string_len: KAFKA_MAX_STRING_LEN,
        max_bytes_len: usize::MAX,
        max_array_len: usize::MAX,
        max_array_elements: usize::MAX,
        max_records: usize::MAX,
        max_decompressed_bytes: crate::records::DEFAULT_MAX_DECOMPRESSED,
    };

    /// The largest frame, in bytes after its length prefix (Kafka's
    /// `socket.request.max.bytes`). Read by the frame splitters and the frame
    /// decoders of `kwire-net` and `kwire-messages`.
    ///
    /// ```
    /// use kwire::DecodeLimits;
    ///
    /// let limits = DecodeLimits::default().with_max_frame_size(1024);
    /// assert_eq!(limits.max_frame_size(), 1024);
    /// ```
    pub const fn with_max_frame_size(mut self, bytes: usize) -> Self {
        self.max_frame_size = bytes;
        self
    }

    /// The longest string, in bytes. Kafka's own cap, 32767, stays: a larger value
    /// is taken as 32767.
    ///
    /// ```
    /// use kwire::DecodeLimits;
    ///
    /// assert_eq!(DecodeLimits::default().with_max_string_len(64).max_string_len(), 64);
    /// assert_eq!(DecodeLimits::default().with_max_string_len(1 << 20).max_string_len(), 32767);
    /// ```
    pub const fn with_max_string_len(mut self, bytes: usize) -> Self {
        self.max_string_len = if bytes < KAFKA_MAX_STRING_LEN {
            bytes
        } else {
            KAFKA_MAX_STRING_LEN
        };
        self
    }

    /// The longest `bytes` or `records` value, in bytes.
    ///
    /// ```
    /// use kwire::DecodeLimits;
    ///
    /// assert_eq!(DecodeLimits::default().with_max_bytes_len(4096).max_bytes_len(), 4096);
    /// ```
    pub const fn with_max_bytes_len(mut self, bytes: usize) -> Self {
        self.max_bytes_len = bytes;
        self
    }

    /// The most elements one array may claim.
    ///
    /// ```
    /// use kwire::DecodeLimits;
    ///
    /// assert_eq!(DecodeLimits::default().with_max_array_len(100).max_array_len(), 100);
    /// ```
    pub const fn with_max_array_len(mut self, elements: usize) -> Self {
        self.max_array_len = elements;
        self
    }

    /// The most array elements one decoded message may claim in all its arrays
    /// together (nested ones included): what bounds the memory of its `Vec`s.
    ///
    /// ```
    /// use kwire::DecodeLimits;
    ///
    /// let limits = DecodeLimits::default().with_max_array_elements(50_000);
    /// assert_eq!(limits.max_array_elements(), 50_000);
    /// ```
    pub const fn with_max_array_elements(mut self, elements: usize) -> Self {
        self.max_array_elements = elements;
        self
    }

    /// The most records one decoded message may carry in all its `records` fields
    /// together: the sum of its record batches' `recordsCount`, checked as each
    /// `records` field is decoded (before any record is read or decompressed).
    ///
    /// ```
    /// use kwire::DecodeLimits;
    ///
    /// assert_eq!(DecodeLimits::default().with_max_records(10_000).max_records(), 10_000);
    /// ```
    pub const fn with_max_records(mut self, records: usize) -> Self {
        self.max_records = records;
        self
    }

    /// The most bytes the record batches of one request may decompress to, all
    /// together (see [`DecompressionBudget`](crate::records::DecompressionBudget)).
    ///
    /// ```
    /// use kwire::DecodeLimits;
    ///
    /// let limits = DecodeLimits::default().with_max_decompressed_bytes(8 << 20);
    /// assert_eq!(limits.max_decompressed_bytes(), 8 << 20);
    /// ```
    pub const fn with_max_decompressed_bytes(mut self, bytes: usize) -> Self {
        self.max_decompressed_bytes = bytes;
        self
    }

    /// The largest frame, in bytes after the length prefix.
    ///
    /// ```
    /// let limits = kwire::DecodeLimits::default().with_max_frame_size(4096);
    /// assert_eq!(limits.max_frame_size(), 4096);
    /// ```
    pub const fn max_frame_size(&self) -> usize {
        self.max_frame_size
    }

    /// The longest string, in bytes (never above Kafka's 32767).
    ///
    /// ```
    /// let limits = kwire::DecodeLimits::default().with_max_string_len(100);
    /// assert_eq!(limits.max_string_len(), 100);
    /// ```
    pub const fn max_string_len(&self) -> usize {
        self.max_string_len
    }

    /// The longest `bytes` or `records` value, in bytes.
    ///
    /// ```
    /// let limits = kwire::DecodeLimits::default().with_max_bytes_len(100);
    /// assert_eq!(limits.max_bytes_len(), 100);
    /// ```
    pub const fn max_bytes_len(&self) -> usize {
        self.max_bytes_len
    }

    /// The most elements of one array.
    ///
    /// ```
    /// let limits = kwire::DecodeLimits::default().with_max_array_len(100);
    /// assert_eq!(limits.max_array_len(), 100);
    /// ```
    pub const fn max_array_len(&self) -> usize {
        self.max_array_len
    }

    /// The most array elements of one message, all arrays together.
    ///
    /// ```
    /// let limits = kwire::DecodeLimits::default().with_max_array_elements(100);
    /// assert_eq!(limits.max_array_elements(), 100);
    /// ```
    pub const fn max_array_elements(&self) -> usize {
        self.max_array_elements
    }

    /// The most records of one message, all `records` fields together.
    ///
    /// ```
    /// let limits = kwire::DecodeLimits::default().with_max_records(100);
    /// assert_eq!(limits.max_records(), 100);
    /// ```
    pub const fn max_records(&self) -> usize {
        self.max_records
    }

    /// The most bytes one request's record batches decompress to, together.
    ///
    /// ```
    /// let limits = kwire::DecodeLimits::default().with_max_decompressed_bytes(100);
    /// assert_eq!(limits.max_decompressed_bytes(), 100);
    /// ```
    pub const fn max_decompressed_bytes(&self) -> usize {
        self.max_decompressed_bytes
    }
}

impl Default for DecodeLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Which of the [`DecodeLimits`] a value broke.
///
/// ```
/// use kwire::Limit;
///
/// assert_eq!(Limit::StringLength.to_string(), "string length");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// [`DecodeLimits::max_frame_size`].
    FrameSize,
    /// [`DecodeLimits::max_string_len`].
    StringLength,
    /// [`DecodeLimits::max_bytes_len`].
    BytesLength,
    /// [`DecodeLimits::max_array_len`].
    ArrayLength,
    /// [`DecodeLimits::max_array_elements`].
    ArrayElements,
    /// [`DecodeLimits::max_records`].
    Records,
    /// [`DecodeLimits::max_decompressed_bytes`].
    DecompressedBytes,
}

impl Limit {
    /// The limit's name, as errors print it.
    ///
    /// ```
    /// assert_eq!(kwire::Limit::ArrayElements.name(), "array elements per message");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Limit::FrameSize => "frame size",
            Limit::StringLength => "string length",
            Limit::BytesLength => "bytes length",
            Limit::ArrayLength => "array length",
            Limit::ArrayElements => "array elements per message",
            Limit::Records => "records per message",
            Limit::DecompressedBytes => "decompressed bytes per request",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_todays_bounds() {
        let limits = DecodeLimits::default();
        assert_eq!(limits.max_frame_size(), 104_857_600);
        assert_eq!(limits.max_string_len(), 32767);
        assert_eq!(limits.max_bytes_len(), usize::MAX);
        assert_eq!(limits.max_array_len(), usize::MAX);
        assert_eq!(limits.max_array_elements(), usize::MAX);
        assert_eq!(limits.max_records(), usize::MAX);
        assert_eq!(
            limits.max_decompressed_bytes(),
            crate::records::DEFAULT_MAX_DECOMPRESSED
        );
    }
}
