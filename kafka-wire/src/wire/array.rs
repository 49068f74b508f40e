//! Kafka's `[]T`: an int32 count (classic) or varint count + 1 (compact), then the
//! elements.

use bytes::BufMut;

use super::length::{self, Classic};
use super::{Cx, Nullable, Wire};
use crate::schema::TypeSchema;
use crate::{DecodeError, DecodeErrorKind, EncodeError, Reader};

impl<T: Wire> Wire for Vec<T> {
    const TYPE: TypeSchema = TypeSchema::Array(&T::TYPE);
    const MIN_TAGGED_VERSION: i16 = T::MIN_TAGGED_VERSION;

    #[inline]
    fn size(&self, cx: Cx) -> Result<usize, EncodeError> {
        length::check(self.len(), cx, Classic::Int32)?;
        let mut size = length::size(Some(self.len()), cx, Classic::Int32);
        let cx = cx.with_nullable(false);
        for element in self {
            size += element.size(cx).map_err(|e| e.within("[]"))?;
        }
        Ok(size)
    }

    #[inline]
    fn write<B: BufMut>(&self, buf: &mut B, cx: Cx) -> Result<(), EncodeError> {
        length::put(buf, Some(self.len()), cx, Classic::Int32)?;
        let cx = cx.with_nullable(false);
        for element in self {
            element.write(buf, cx)?;
        }
        Ok(())
    }

    #[inline]
    fn read(reader: &mut Reader<'_>, cx: Cx) -> Result<Self, DecodeError> {
        Self::read_nullable(reader, cx)?.ok_or_else(|| length::unexpected_null(reader, cx))
    }

    fn schema_default() -> Self {
        Vec::new()
    }
}

impl<T: Wire> Nullable for Vec<T> {
    fn null_size(cx: Cx) -> usize {
        length::size(None, cx, Classic::Int32)
    }

    fn write_null<B: BufMut>(buf: &mut B, cx: Cx) {
        let _ = length::put(buf, None, cx, Classic::Int32);
    }

    #[inline]
    fn read_nullable(reader: &mut Reader<'_>, cx: Cx) -> Result<Option<Self>, DecodeError> {
        let start = reader.position();
        let Some(count) = length::read(reader, cx, Classic::Int32)? else {
            return Ok(None);
        };
        // Kafka's own rule: a count larger than the bytes left is refused before any
        // allocation, so a hostile count costs nothing.
        let remaining = reader.remaining();
        if count > remaining {
            return Err(DecodeError::new(
                DecodeErrorKind::ArrayTooLong {
                    count: count as u64,
                    remaining,
                },
                start,
            ));
        }
        let mut elements = Vec::with_capacity(count.min(remaining / T::MIN_SIZE.max(1)));
        let cx = cx.with_nullable(false);
        for _ in 0..count {
            elements.push(T::read(reader, cx).map_err(|e| e.within("[]"))?);
        }
        Ok(Some(elements))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    #[test]
    fn classic_and_compact_counts() {
        let value = vec![1i16, 2];
        let mut classic = Vec::new();
        value.write(&mut classic, Cx::new(0, false)).unwrap();
        assert_eq!(classic, [0, 0, 0, 2, 0, 1, 0, 2]);
        let mut compact = Vec::new();
        value.write(&mut compact, Cx::new(0, true)).unwrap();
        assert_eq!(compact, [3, 0, 1, 0, 2]);
        let input = Bytes::from(compact);
        assert_eq!(
            Vec::<i16>::read(&mut Reader::new(&input), Cx::new(0, true)).unwrap(),
            value
        );
    }

    #[test]
    fn hostile_counts_fail_before_allocating() {
        let input = Bytes::from_static(&[0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let err = Vec::<i32>::read(&mut Reader::new(&input), Cx::new(0, false)).unwrap_err();
        assert_eq!(
            err.kind(),
            &DecodeErrorKind::ArrayTooLong {
                count: 0x7fff_ffff,
                remaining: 10
            }
        );
    }
}
