//! A batch's attributes: compression codec, timestamp type, transactional and
//! control bits.

use super::RecordsError;

/// The compression codec of a batch (attributes bits 0-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Compression {
    /// Uncompressed.
    #[default]
    None,
    /// gzip (feature `gzip`).
    Gzip,
    /// Snappy in the xerial framing Kafka's Java client writes (feature `snappy`).
    Snappy,
    /// LZ4 frame format (feature `lz4`).
    Lz4,
    /// Zstandard (feature `zstd`).
    Zstd,
}

impl Compression {
    /// The codec of attribute bits 0-2.
    pub fn from_bits(bits: u8) -> Result<Self, RecordsError> {
        match bits & 0x07 {
            0 => Ok(Compression::None),
            1 => Ok(Compression::Gzip),
            2 => Ok(Compression::Snappy),
            3 => Ok(Compression::Lz4),
            4 => Ok(Compression::Zstd),
            other => Err(RecordsError::UnknownCompression(other)),
        }
    }

    /// The attribute bits of this codec.
    pub const fn bits(self) -> u8 {
        match self {
            Compression::None => 0,
            Compression::Gzip => 1,
            Compression::Snappy => 2,
            Compression::Lz4 => 3,
            Compression::Zstd => 4,
        }
    }

    /// The codec's name, as Kafka's `compression.type` spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Snappy => "snappy",
            Compression::Lz4 => "lz4",
            Compression::Zstd => "zstd",
        }
    }
}

/// What a batch's timestamps mean (attributes bit 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TimestampType {
    /// Set by the producer.
    #[default]
    CreateTime,
    /// Set by the broker when it appended the batch.
    LogAppendTime,
}

/// A batch's attributes, an int16: codec (bits 0-2), timestamp type (bit 3),
/// transactional (bit 4), control (bit 5), delete horizon set (bit 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Attributes(pub i16);

impl Attributes {
    /// The compression codec.
    pub fn compression(self) -> Result<Compression, RecordsError> {
        Compression::from_bits((self.0 & 0x07) as u8)
    }

    /// The timestamp type.
    pub const fn timestamp_type(self) -> TimestampType {
        if self.0 & 0x08 != 0 {
            TimestampType::LogAppendTime
        } else {
            TimestampType::CreateTime
        }
    }

    /// True for a batch of a transaction.
    pub const fn is_transactional(self) -> bool {
        self.0 & 0x10 != 0
    }

    /// True for a control batch (transaction markers, KRaft control records).
    pub const fn is_control(self) -> bool {
        self.0 & 0x20 != 0
    }

    /// True when the base timestamp holds the delete horizon (compacted topics).
    pub const fn has_delete_horizon(self) -> bool {
        self.0 & 0x40 != 0
    }

    /// These attributes with the delete horizon bit (bit 6, KIP-534) set or cleared.
    ///
    /// ```
    /// use kwire::records::{Attributes, Compression, TimestampType};
    ///
    /// let plain = Attributes::new(Compression::None, TimestampType::CreateTime, false, false);
    /// let compacted = plain.with_delete_horizon(true);
    /// assert_eq!(compacted, Attributes(0x40));
    /// assert!(compacted.has_delete_horizon());
    /// assert_eq!(compacted.with_delete_horizon(false), plain);
    /// ```
    pub const fn with_delete_horizon(self, set: bool) -> Self {
        if set {
            Attributes(self.0 | 0x40)
        } else {
            Attributes(self.0 & !0x40)
        }
    }

    /// The attributes of the given parts.
    pub const fn new(
        compression: Compression,
        timestamp_type: TimestampType,
        transactional: bool,
        control: bool,
    ) -> Self {
        let mut bits = compression.bits() as i16;
        if matches!(timestamp_type, TimestampType::LogAppendTime) {
            bits |= 0x08;
        }
        if transactional {
            bits |= 0x10;
        }
        if control {
            bits |= 0x20;
        }
        Attributes(bits)
    }
}
