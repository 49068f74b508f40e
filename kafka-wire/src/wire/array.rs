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

    #[inline]
    fn read_in_place(&mut self, reader: &mut Reader<'_>, cx: Cx) -> Result<(), DecodeError> {
        match read_count(reader, cx)? {
            Some(count) => {
                *self = with_capacity_for(count, reader);
                read_elements(reader, count, cx, self)
            }
            None => Err(length::unexpected_null(reader, cx)),
        }
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
        let Some(count) = read_count(reader, cx)? else {
            return Ok(None);
        };
        let mut elements = with_capacity_for(count, reader);
        read_elements(reader, count, cx, &mut elements)?;
        Ok(Some(elements))
    }
}

/// Reads an array's element count (`None` = null). Kafka's own rule: a count larger
/// than the bytes left is refused before any allocation, so a hostile count costs
/// nothing.
#[inline]
pub(crate) fn read_count(reader: &mut Reader<'_>, cx: Cx) -> Result<Option<usize>, DecodeError> {
    let start = reader.position();
    let count = length::read(reader, cx, Classic::Int32)?;
    let remaining = reader.remaining();
    match count {
        Some(count) if count > remaining => Err(DecodeError::new(
            DecodeErrorKind::ArrayTooLong {
                count: count as u64,
                remaining,
            },
            start,
        )),
        other => Ok(other),
    }
}

/// An empty array with room for `count` elements, or for as many as the bytes left
/// could hold if that is fewer.
#[inline]
fn with_capacity_for<T: Wire>(count: usize, reader: &Reader<'_>) -> Vec<T> {
    Vec::with_capacity(count.min(reader.remaining() / T::MIN_SIZE.max(1)))
}

/// Appends `count` elements to `elements`.
#[inline]
fn read_elements<T: Wire>(
    reader: &mut Reader<'_>,
    count: usize,
    cx: Cx,
    elements: &mut Vec<T>,
) -> Result<(), DecodeError> {
    let cx = cx.with_nullable(false);
    for _ in 0..count {
        // Built where it will live: a struct element is not copied out of a `Result`
        // and then again into the array.
        elements.push(T::schema_default());
        if let Some(element) = elements.last_mut() {
            element
                .read_in_place(reader, cx)
                .map_err(|e| e.within("[]"))?;
        }
    }
    Ok(())
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
    fn reading_in_place_matches_reading() {
        let input = Bytes::from_static(&[3, 0, 1, 0, 2, 0]);
        let cx = Cx::new(0, true);
        let mut slot = vec![9i16];
        slot.read_in_place(&mut Reader::new(&input), cx).unwrap();
        assert_eq!(
            slot,
            Vec::<i16>::read(&mut Reader::new(&input), cx).unwrap()
        );
        assert_eq!(slot, [1, 2]);
        let null = Bytes::from_static(&[0]);
        let err = slot.read_in_place(&mut Reader::new(&null), cx).unwrap_err();
        assert_eq!(err.kind(), &DecodeErrorKind::UnexpectedNull { version: 0 });
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
