//! The errors every codec gives.

use crate::records::{Compression, RecordsError};

/// The error for a codec whose cargo feature is off (each feature is named as its
/// codec).
pub(super) fn not_enabled(codec: Compression) -> RecordsError {
    RecordsError::CodecNotEnabled(codec.name(), codec.name())
}

/// A decoder's error as [`RecordsError::Corrupt`].
#[cfg(any(
    feature = "gzip",
    feature = "snappy",
    feature = "lz4",
    feature = "zstd"
))]
pub(super) fn corrupt(codec: &'static str, reason: impl ToString) -> RecordsError {
    RecordsError::Corrupt {
        codec,
        reason: reason.to_string(),
    }
}
