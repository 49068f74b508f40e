//! Kafka's `bytes` and `records`: raw bytes behind an int32 length (classic) or a
//! varint length + 1 (compact), handed out as zero-copy slices of the input.

use std::ops::Deref;

use bytes::{BufMut, Bytes};

use super::length::{self, Classic};
use super::{Cx, Nullable, Sizes, Wire};
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

/// Defines `Wire` and `Nullable` for a bytes-like type from its constructor.
macro_rules! bytes_like {
    ($ty:ty, $schema:ident, $from_bytes:expr, starts_null: $starts_null:expr) => {
        impl Wire for $ty {
            const TYPE: TypeSchema = TypeSchema::$schema;

            #[inline]
            fn size(&self, cx: Cx, _sizes: &mut Sizes) -> Result<usize, EncodeError> {
                let bytes: &[u8] = self.as_ref();
                length::check(bytes.len(), cx, Classic::Int32)?;
                Ok(length::size(Some(bytes.len()), cx, Classic::Int32) + bytes.len())
            }

            #[inline]
            fn write<B: BufMut>(
                &self,
                buf: &mut B,
                cx: Cx,
                _sizes: &mut Sizes,
            ) -> Result<(), EncodeError> {
                let bytes: &[u8] = self.as_ref();
                length::put(buf, Some(bytes.len()), cx, Classic::Int32)?;
                buf.put_slice(bytes);
                Ok(())
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

            fn write_null<B: BufMut>(buf: &mut B, cx: Cx) {
                let _ = length::put(buf, None, cx, Classic::Int32);
            }

            fn starts_null() -> bool {
                $starts_null
            }

            #[inline]
            fn read_nullable(reader: &mut Reader<'_>, cx: Cx) -> Result<Option<Self>, DecodeError> {
                match length::read_value_len(reader, cx, Classic::Int32)? {
                    None => Ok(None),
                    Some(len) => Ok(Some($from_bytes(reader.read_bytes(len)?))),
                }
            }
        }
    };
}

bytes_like!(Bytes, Bytes, std::convert::identity, starts_null: false);
// Kafka's generator gives records fields no empty default: they start out null.
bytes_like!(Records, Records, Records, starts_null: true);

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
        let mut out = Vec::new();
        Option::<Records>::None
            .write(&mut out, cx, &mut Sizes::new())
            .unwrap();
        Some(Records(Bytes::from_static(b"ab")))
            .write(&mut out, cx, &mut Sizes::new())
            .unwrap();
        assert_eq!(out, [0, 3, b'a', b'b']);
    }

    #[test]
    fn negative_lengths_are_errors() {
        let input = Bytes::from_static(&[0xff, 0xff, 0xff, 0xfe]);
        assert!(Bytes::read(&mut Reader::new(&input), Cx::new(0, false)).is_err());
    }
}
