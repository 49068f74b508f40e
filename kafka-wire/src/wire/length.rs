//! Length and count prefixes: int16 / int32 with -1 for null in classic versions,
//! unsigned varint of length + 1 with 0 for null in flexible ones.

use super::varint::unsigned_varint_size;
use super::{Cx, Writer};
use crate::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, Reader};

/// The width of a classic (non-flexible) length prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Classic {
    /// Strings.
    Int16,
    /// Bytes, records and arrays.
    Int32,
}

impl Classic {
    const fn max(self) -> usize {
        match self {
            Classic::Int16 => i16::MAX as usize,
            Classic::Int32 => i32::MAX as usize,
        }
    }
}

/// Size of the prefix for a value of `len` (or null).
#[inline(always)]
pub(crate) fn size(len: Option<usize>, cx: Cx, classic: Classic) -> usize {
    if cx.flexible {
        let raw = len.map_or(0, |n| n as u64 + 1);
        unsigned_varint_size(u32::try_from(raw).unwrap_or(u32::MAX))
    } else {
        match classic {
            Classic::Int16 => 2,
            Classic::Int32 => 4,
        }
    }
}

/// Checks `len` fits the prefix of this form.
#[inline(always)]
pub(crate) fn check(len: usize, cx: Cx, classic: Classic) -> Result<(), EncodeError> {
    let max = if cx.flexible {
        // A compact length is length + 1 in a u32; Kafka caps sizes at int32 anyway.
        (u32::MAX - 1) as usize
    } else {
        classic.max()
    };
    if len > max.min(i32::MAX as usize) {
        return Err(EncodeError::new(EncodeErrorKind::TooLong(len)));
    }
    Ok(())
}

/// Writes the prefix for `len` (or null). `len` must have passed [`check`].
#[inline(always)]
pub(crate) fn put(
    buf: &mut Writer,
    len: Option<usize>,
    cx: Cx,
    classic: Classic,
) -> Result<(), EncodeError> {
    if let Some(n) = len {
        check(n, cx, classic)?;
    }
    if cx.flexible {
        buf.put_unsigned_varint(len.map_or(0, |n| n as u32 + 1));
    } else {
        match classic {
            Classic::Int16 => buf.put_i16(len.map_or(-1, |n| n as i16)),
            Classic::Int32 => buf.put_i32(len.map_or(-1, |n| n as i32)),
        }
    }
    Ok(())
}

/// Reads a prefix; `None` is null.
#[inline(always)]
pub(crate) fn read(
    reader: &mut Reader<'_>,
    cx: Cx,
    classic: Classic,
) -> Result<Option<usize>, DecodeError> {
    let start = reader.position();
    let raw: i64 = if cx.flexible {
        i64::from(reader.read_unsigned_varint()?) - 1
    } else {
        match classic {
            Classic::Int16 => i64::from(i16::from_be_bytes(reader.read_array()?)),
            Classic::Int32 => i64::from(i32::from_be_bytes(reader.read_array()?)),
        }
    };
    match raw {
        -1 => Ok(None),
        n if n < -1 => Err(DecodeError::new(DecodeErrorKind::InvalidLength(n), start)),
        n => Ok(Some(n as usize)),
    }
}

/// Reads the prefix of a string, bytes, records or array value coded at `cx`:
/// `None` (null) only where `cx` is nullable, refused elsewhere. Every decoder of a
/// length-prefixed value and the [schema walker](crate::walk) read them here.
#[inline(always)]
pub(crate) fn read_value_len(
    reader: &mut Reader<'_>,
    cx: Cx,
    classic: Classic,
) -> Result<Option<usize>, DecodeError> {
    match read(reader, cx, classic)? {
        None if !cx.nullable => Err(unexpected_null(reader, cx)),
        len => Ok(len),
    }
}

/// The error for a null where the type itself cannot hold one.
#[cold]
pub(crate) fn unexpected_null(reader: &Reader<'_>, cx: Cx) -> DecodeError {
    reader.error(DecodeErrorKind::UnexpectedNull {
        version: cx.version,
    })
}
