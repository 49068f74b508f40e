//! Kafka's `bytes` and `records`: raw bytes behind an int32 length (classic) or a
//! varint length + 1 (compact), handed out as zero-copy slices of the input.

use std::ops::Deref;

use bytes::Bytes;

use super::length::{self, Classic};
use super::{Cx, Nullable, Sizes, Wire, Writer};
use crate::schema::TypeSchema;
use crate::{DecodeError, EncodeError, Reader};

/// A record batch set, Kafka's `records` type, kept as the raw bytes of the input.
///
/// Decoding never copies or parses records; they are a slice of the received buffer.
///
/// ```
/// use bytes::Bytes;
/// use kwire::Records;
///
/// let records = Records::from(Bytes::from_static(b"batch"));
/// assert_eq!(records.len(), 5);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Records(pub Bytes);

impl Deref for Records {
    type Target = Bytes;
    fn deref(&self) -> &Bytes {
        &self.0
    }
}

impl AsRef<[u8]> for Records {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl From<Bytes> for Records {
    fn from(bytes: Bytes) -> Self {
        Records(bytes)
    }
}

/// The `Bytes` behind a bytes-like value.
trait AsBytes {
    fn as_bytes(&self) -> &Bytes;
}

impl AsBytes for Bytes {
    #[inline(always)]
    fn as_bytes(&self) -> &Bytes {
        self
    }
}

impl AsBytes for Records {
    #[inline(always)]
    fn as_bytes(&self) -> &Bytes {
        &self.0
    }
}

/// Defines `Wire` and `Nullable` for a bytes-like type from its constructor.
/// Records are zero-copy (attached, not copied, by a vectored writer) and counted
/// as such while sizing; plain bytes are zero-copy only in a `zero_copy` field.
macro_rules! bytes_like {
    ($ty:ty, $schema:ident, $from_bytes:expr, $records:literal, starts_null: $starts_null:expr, zero_copy: $zero_copy:expr) => {
        impl Wire for $ty {
            const TYPE: TypeSchema = TypeSchema::$schema;

            #[inline]
            fn size(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError> {
                let bytes: &Bytes = AsBytes::as_bytes(self);
                length::check(bytes.len(), cx, Classic::Int32)?;
                if $zero_copy {
                    sizes.add_zero_copy(bytes.len());
                }
                Ok(length::size(Some(bytes.len()), cx, Classic::Int32) + bytes.len())
            }

            #[inline]
            fn write(&self, w: &mut Writer, cx: Cx, _sizes: &mut Sizes) -> Result<(), EncodeError> {
                put_bytes(AsBytes::as_bytes(self), w, cx, $zero_copy)
            }

            #[inline]
            fn read(reader: &mut Reader<'_>, cx: Cx) -> Result<Self, DecodeError> {
                Self::read_nullable(reader, cx)?.ok_or_else(|| length::unexpected_null(reader, cx))
            }

            fn schema_default() -> Self {
                Self::default()
            }
        }

        impl Nullable for $ty {
            fn null_size(cx: Cx) -> usize {
                length::size(None, cx, Classic::Int32)
            }

            fn write_null(w: &mut Writer, cx: Cx) {
                let _ = length::put(w, None, cx, Classic::Int32);
            }

            fn starts_null() -> bool {
                $starts_null
            }

            #[inline]
            fn read_nullable(reader: &mut Reader<'_>, cx: Cx) -> Result<Option<Self>, DecodeError> {
                Ok(read_nullable_bytes::<$records>(reader, cx)?.map($from_bytes))
            }
        }
    };
}

bytes_like!(Bytes, Bytes, std::convert::identity, false, starts_null: false, zero_copy: false);
// Kafka's generator gives records fields no empty default: they start out null.
bytes_like!(Records, Records, Records, true, starts_null: true, zero_copy: true);

/// Writes bytes (attached to a vectored writer when `zero_copy`). Out of line: a
/// value of bytes costs a call, little next to its bytes, and every bytes field
/// shares this code.
#[inline(never)]
fn put_bytes(bytes: &Bytes, w: &mut Writer, cx: Cx, zero_copy: bool) -> Result<(), EncodeError> {
    length::put(w, Some(bytes.len()), cx, Classic::Int32)?;
    if zero_copy {
        w.put_zero_copy(bytes);
    } else {
        w.put_slice(bytes);
    }
    Ok(())
}

/// Reads bytes or null, as a slice of the input, within the reader's bytes
/// limit. For records (`RECORDS`), the records their batches declare are spent
/// from the reader's per-message budget too (only when it keeps one). One
/// function for both, a copy each: records cost no call more, and each kind one
/// comparison for its limits.
#[inline(never)]
fn read_nullable_bytes<const RECORDS: bool>(
    reader: &mut Reader<'_>,
    cx: Cx,
) -> Result<Option<Bytes>, DecodeError> {
    match length::read_value_len(reader, cx, Classic::Int32)? {
        None => Ok(None),
        Some(len) => {
            // Errors name the value's first byte, just after its length.
            let at = reader.position();
            if RECORDS {
                let rest = reader.rest();
                reader.budget().take_records(len, rest, at)?;
            } else {
                reader.budget().check_bytes_len(len, at)?;
            }
            Ok(Some(reader.read_bytes(len)?))
        }
    }
}

/// The codec of a `zero_copy` bytes field: its value is attached by a vectored
/// writer, as records are. Generated code names it through
/// [`ZeroCopy`](crate::attribute_types::ZeroCopy), which only bytes implement.
#[inline]
pub(crate) fn size_zero_copy(
    bytes: Option<&Bytes>,
    cx: Cx,
    sizes: &mut Sizes,
) -> Result<usize, EncodeError> {
    match bytes {
        Some(bytes) => {
            length::check(bytes.len(), cx, Classic::Int32)?;
            sizes.add_zero_copy(bytes.len());
            Ok(length::size(Some(bytes.len()), cx, Classic::Int32) + bytes.len())
        }
        None => Ok(length::size(None, cx, Classic::Int32)),
    }
}

/// Writes a `zero_copy` bytes field sized by [`size_zero_copy`].
#[inline]
pub(crate) fn write_zero_copy(
    bytes: Option<&Bytes>,
    w: &mut Writer,
    cx: Cx,
) -> Result<(), EncodeError> {
    match bytes {
        Some(bytes) => put_bytes(bytes, w, cx, true),
        None => length::put(w, None, cx, Classic::Int32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_zero_copy_slices() {
        let input = Bytes::from(vec![0, 0, 0, 2, 7, 8]);
        let value = Bytes::read(&mut Reader::new(&input), Cx::new(0, false)).unwrap();
        assert_eq!(&value[..], &[7, 8]);
        assert_eq!(value.as_ptr(), input[4..].as_ptr());
    }

    #[test]
    fn compact_null_and_value() {
        let cx = Cx::new(0, true).with_nullable(true);
        assert_eq!(super::super::written(&Option::<Records>::None, cx), [0]);
        let records = Some(Records(Bytes::from_static(b"ab")));
        assert_eq!(super::super::written(&records, cx), [3, b'a', b'b']);
    }

    #[test]
    fn records_are_counted_as_zero_copy_and_attached_by_a_vectored_writer() {
        use bytes::Buf;
        let records = Records(Bytes::from(vec![5u8; 100]));
        let cx = Cx::new(0, false);
        let mut sizes = Sizes::new();
        assert_eq!(records.size(cx, &mut sizes).unwrap(), 104);
        assert_eq!(sizes.zero_copy(), 100);
        let mut writer = Writer::vectored(4, 1);
        records.write(&mut writer, cx, &mut sizes).unwrap();
        let chunks = writer.into_chunks();
        assert_eq!(chunks.remaining(), 104);
        assert_eq!(chunks.chunks().nth(1).unwrap().as_ptr(), records.as_ptr());
        // Plain bytes are copied.
        let mut sizes = Sizes::new();
        Bytes::from_static(b"xy").size(cx, &mut sizes).unwrap();
        assert_eq!(sizes.zero_copy(), 0);
    }

    #[test]
    fn negative_lengths_are_errors() {
        let input = Bytes::from_static(&[0xff, 0xff, 0xff, 0xfe]);
        assert!(Bytes::read(&mut Reader::new(&input), Cx::new(0, false)).is_err());
    }
}
