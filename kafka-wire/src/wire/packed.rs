//! Arrays of fixed-width values (`[]int32`, `[]int64`, `[]uuid`, …) kept as their wire
//! bytes: decoding one copies a short array (a replica list) into the value itself and
//! takes a longer one as a zero-copy slice of the input. Either way there is no
//! allocation, which is most of what decoding a partition-heavy message costs.

use std::fmt;
use std::marker::PhantomData;

use bytes::{BufMut, Bytes};

use super::array::read_count;
use super::length::{self, Classic};
use super::{Cx, Nullable, Uuid, Wire};
use crate::schema::TypeSchema;
use crate::{DecodeError, EncodeError, Reader};

mod sealed {
    pub trait Sealed {}
}

/// A value with one fixed-width big-endian wire form, which a [`PackedArray`] can hold.
pub trait FixedWidth: Wire + Copy + sealed::Sealed {
    /// Bytes per value on the wire.
    const WIDTH: usize;
    /// Reads a value from exactly [`WIDTH`](FixedWidth::WIDTH) bytes.
    fn from_wire(bytes: &[u8]) -> Self;
    /// Appends the value's wire bytes.
    fn extend_wire(self, out: &mut Vec<u8>);
}

macro_rules! fixed_width {
    ($($ty:ty),*) => {$(
        impl sealed::Sealed for $ty {}
        impl FixedWidth for $ty {
            const WIDTH: usize = std::mem::size_of::<$ty>();
            #[inline]
            fn from_wire(bytes: &[u8]) -> Self {
                let mut raw = [0; std::mem::size_of::<$ty>()];
                raw.copy_from_slice(bytes);
                <$ty>::from_be_bytes(raw)
            }
            #[inline]
            fn extend_wire(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_be_bytes());
            }
        }
    )*};
}

fixed_width!(i8, i16, u16, i32, u32, i64, f64);

impl sealed::Sealed for Uuid {}
impl FixedWidth for Uuid {
    const WIDTH: usize = 16;
    #[inline]
    fn from_wire(bytes: &[u8]) -> Self {
        let mut raw = [0; 16];
        raw.copy_from_slice(bytes);
        Uuid::from_bytes(raw)
    }
    #[inline]
    fn extend_wire(self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
}

/// Wire bytes that fit in a [`PackedArray`] itself: six int32s, three int64s, one uuid.
const INLINE: usize = 24;

/// Where a [`PackedArray`] keeps its bytes.
#[derive(Clone)]
enum Storage {
    /// Up to [`INLINE`] bytes held in place: no allocation, no reference count.
    Inline { len: u8, bytes: [u8; INLINE] },
    /// A slice of a shared buffer (usually the decoded input).
    Shared(Bytes),
}

impl Storage {
    const EMPTY: Storage = Storage::Inline {
        len: 0,
        bytes: [0; INLINE],
    };

    fn from_slice(slice: &[u8]) -> Self {
        if slice.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..slice.len()].copy_from_slice(slice);
            Storage::Inline {
                len: slice.len() as u8,
                bytes,
            }
        } else {
            Storage::Shared(Bytes::copy_from_slice(slice))
        }
    }

    #[inline]
    fn as_slice(&self) -> &[u8] {
        match self {
            Storage::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Storage::Shared(bytes) => bytes,
        }
    }
}

/// An immutable array of fixed-width values held as their big-endian wire bytes.
///
/// Decoding copies a short array into the value and shares the input's buffer for a
/// long one, so it never allocates; encoding copies the bytes out in one go; values
/// are read on access. Use it in place of `Vec<T>` for a field whose decoding should
/// not allocate (replica lists, partition indexes, offsets); build one from a `Vec`,
/// an array or an iterator.
///
/// ```
/// use kafka_wire::PackedArray;
///
/// let replicas: PackedArray<i32> = vec![1, 2, 3].into();
/// assert_eq!(replicas.len(), 3);
/// assert_eq!(replicas.get(1), Some(2));
/// assert_eq!(replicas.iter().sum::<i32>(), 6);
/// assert_eq!(replicas.to_vec(), [1, 2, 3]);
/// assert_eq!(format!("{replicas:?}"), "[1, 2, 3]");
///
/// // As a field it is Kafka's `[]int32`, on the wire exactly like a `Vec<i32>`.
/// use kafka_wire::Message;
///
/// /// A partition and its replicas.
/// #[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
/// #[kafka(kind = data, versions = "0")]
/// struct Placement {
///     /// The replica broker IDs.
///     #[kafka(versions = "0+")]
///     replicas: PackedArray<i32>,
/// }
///
/// let placement = Placement { replicas };
/// let bytes = placement.encode(0).unwrap();
/// assert_eq!(&bytes[..], [0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3]);
/// assert_eq!(Placement::decode(&bytes, 0).unwrap(), placement);
/// assert_eq!(Placement::SCHEMA.body.fields[0].ty.to_string(), "[]int32");
/// ```
pub struct PackedArray<T> {
    storage: Storage,
    element: PhantomData<fn() -> T>,
}

impl<T: FixedWidth> PackedArray<T> {
    /// An empty array.
    pub const fn new() -> Self {
        PackedArray {
            storage: Storage::EMPTY,
            element: PhantomData,
        }
    }

    fn from_storage(storage: Storage) -> Self {
        PackedArray {
            storage,
            element: PhantomData,
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.as_bytes().len() / T::WIDTH
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.as_bytes().is_empty()
    }

    /// The value at `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<T> {
        let start = index.checked_mul(T::WIDTH)?;
        self.as_bytes()
            .get(start..start.checked_add(T::WIDTH)?)
            .map(T::from_wire)
    }

    /// The values in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + '_ {
        self.as_bytes().chunks_exact(T::WIDTH).map(T::from_wire)
    }

    /// The values, copied into a `Vec`.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }

    /// The wire bytes of the values (no count prefix).
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        self.storage.as_slice()
    }
}

impl<T: FixedWidth> Default for PackedArray<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Clone for PackedArray<T> {
    fn clone(&self) -> Self {
        PackedArray {
            storage: self.storage.clone(),
            element: PhantomData,
        }
    }
}

/// Equal when the wire bytes are (for `f64`, bit for bit).
impl<T> PartialEq for PackedArray<T> {
    fn eq(&self, other: &Self) -> bool {
        self.storage.as_slice() == other.storage.as_slice()
    }
}

impl<T> Eq for PackedArray<T> {}

impl<T> std::hash::Hash for PackedArray<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.storage.as_slice().hash(state);
    }
}

impl<T: FixedWidth + fmt::Debug> fmt::Debug for PackedArray<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: FixedWidth> FromIterator<T> for PackedArray<T> {
    fn from_iter<I: IntoIterator<Item = T>>(values: I) -> Self {
        let mut bytes = Vec::new();
        for value in values {
            value.extend_wire(&mut bytes);
        }
        if bytes.len() <= INLINE {
            Self::from_storage(Storage::from_slice(&bytes))
        } else {
            Self::from_storage(Storage::Shared(Bytes::from(bytes)))
        }
    }
}

impl<T: FixedWidth> From<Vec<T>> for PackedArray<T> {
    fn from(values: Vec<T>) -> Self {
        values.into_iter().collect()
    }
}

impl<T: FixedWidth> From<&[T]> for PackedArray<T> {
    fn from(values: &[T]) -> Self {
        values.iter().copied().collect()
    }
}

impl<T: FixedWidth, const N: usize> From<[T; N]> for PackedArray<T> {
    fn from(values: [T; N]) -> Self {
        values.into_iter().collect()
    }
}

impl<T: FixedWidth> PartialEq<[T]> for PackedArray<T>
where
    T: PartialEq,
{
    fn eq(&self, other: &[T]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == *b)
    }
}

impl<T: FixedWidth> Wire for PackedArray<T> {
    const TYPE: TypeSchema = TypeSchema::Array(&T::TYPE);

    #[inline]
    fn size(&self, cx: Cx) -> Result<usize, EncodeError> {
        let len = self.len();
        length::check(len, cx, Classic::Int32)?;
        Ok(length::size(Some(len), cx, Classic::Int32) + self.as_bytes().len())
    }

    #[inline]
    fn write<B: BufMut>(&self, buf: &mut B, cx: Cx) -> Result<(), EncodeError> {
        length::put(buf, Some(self.len()), cx, Classic::Int32)?;
        buf.put_slice(self.as_bytes());
        Ok(())
    }

    #[inline]
    fn read(reader: &mut Reader<'_>, cx: Cx) -> Result<Self, DecodeError> {
        Self::read_nullable(reader, cx)?.ok_or_else(|| length::unexpected_null(reader, cx))
    }

    fn schema_default() -> Self {
        Self::new()
    }
}

impl<T: FixedWidth> Nullable for PackedArray<T> {
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
        // `read_count` bounded the count by the bytes left, so this cannot overflow.
        let len = count * T::WIDTH;
        let storage = if len <= INLINE {
            // Only the first `len` bytes count; the rest of the window is ignored.
            Storage::Inline {
                len: len as u8,
                bytes: reader.read_into_array(len)?,
            }
        } else {
            Storage::Shared(reader.read_bytes(len)?)
        };
        Ok(Some(Self::from_storage(storage)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_wire_form_as_a_vec() {
        for cx in [Cx::new(0, false), Cx::new(0, true)] {
            let values = vec![7i64, -1, i64::MAX];
            let packed = PackedArray::from(values.clone());
            let (mut a, mut b) = (Vec::new(), Vec::new());
            values.write(&mut a, cx).unwrap();
            packed.write(&mut b, cx).unwrap();
            assert_eq!(a, b);
            assert_eq!(packed.size(cx).unwrap(), a.len());
            let input = Bytes::from(a);
            let read = PackedArray::<i64>::read(&mut Reader::new(&input), cx).unwrap();
            assert_eq!(read, packed);
            assert_eq!(read.to_vec(), values);
        }
    }

    #[test]
    fn short_arrays_are_held_in_place_and_long_ones_share_the_input() {
        let mut wire = vec![0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2];
        let input = Bytes::from(wire.clone());
        let short = PackedArray::<i32>::read(&mut Reader::new(&input), Cx::new(0, false)).unwrap();
        assert!(matches!(short.storage, Storage::Inline { len: 8, .. }));
        assert_eq!((short.get(1), short.get(2)), (Some(2), None));

        wire[3] = 7;
        wire.extend_from_slice(&[0; 20]);
        let input = Bytes::from(wire);
        let long = PackedArray::<i32>::read(&mut Reader::new(&input), Cx::new(0, false)).unwrap();
        assert_eq!(long.len(), 7);
        assert_eq!(long.as_bytes().as_ptr(), input[4..].as_ptr());
        let rebuilt: PackedArray<i32> = long.iter().collect();
        assert_eq!(rebuilt, long);
    }

    #[test]
    fn short_and_hostile_inputs_are_errors() {
        // Two int32s claimed, five bytes present: the count passes Kafka's rule,
        // the element bytes do not.
        let input = Bytes::from_static(&[0, 0, 0, 2, 0, 0, 0, 1, 0]);
        assert!(PackedArray::<i32>::read(&mut Reader::new(&input), Cx::new(0, false)).is_err());
        let hostile = Bytes::from_static(&[0x7f, 0xff, 0xff, 0xff, 0, 0]);
        assert!(PackedArray::<i32>::read(&mut Reader::new(&hostile), Cx::new(0, false)).is_err());
        let null = Bytes::from_static(&[0xff, 0xff, 0xff, 0xff]);
        assert!(PackedArray::<i32>::read(&mut Reader::new(&null), Cx::new(0, false)).is_err());
        let cx = Cx::new(0, false).with_nullable(true);
        assert_eq!(
            Option::<PackedArray<i32>>::read(&mut Reader::new(&null), cx).unwrap(),
            None
        );
    }
}
