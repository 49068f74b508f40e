//! Kafka's `[]T`: an int32 count (classic) or varint count + 1 (compact), then the
//! elements. Held in a `Vec<T>`, or in a `SmallVec` when the array is usually short
//! (replica lists): up to its inline capacity, decoding one allocates nothing.

use smallvec::{Array, SmallVec};

use super::length::{self, Classic};
use super::{Cx, Nullable, Sizes, Wire, Writer};
use crate::schema::TypeSchema;
use crate::{DecodeError, DecodeErrorKind, EncodeError, Reader};

/// What an array's elements are kept in: `Vec<T>`, or `SmallVec` for short arrays
/// that should not allocate. Both share one codec, written once below.
trait Elements: Sized + Default {
    type Item: Wire;
    fn as_slice(&self) -> &[Self::Item];
    fn with_capacity(capacity: usize) -> Self;
    /// How many elements it holds without allocating.
    fn in_place() -> usize;
    fn reserve_exact(&mut self, additional: usize);
    /// How many elements its heap allocation has room for (none when it holds
    /// them in place).
    fn heap_capacity(&self) -> usize;
    /// Reads one more element onto the end; an error names its position.
    fn read_one(&mut self, reader: &mut Reader<'_>, cx: Cx) -> Result<(), DecodeError>;
}

impl<T: Wire> Elements for Vec<T> {
    type Item = T;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self
    }
    #[inline(always)]
    fn with_capacity(capacity: usize) -> Self {
        Vec::with_capacity(capacity)
    }
    #[inline(always)]
    fn in_place() -> usize {
        0
    }
    fn reserve_exact(&mut self, additional: usize) {
        Vec::reserve_exact(self, additional);
    }
    #[inline]
    fn heap_capacity(&self) -> usize {
        self.capacity()
    }
    #[inline(always)]
    fn read_one(&mut self, reader: &mut Reader<'_>, cx: Cx) -> Result<(), DecodeError> {
        // Built where it will live: a struct element is not copied out of a `Result`
        // and then again into the array.
        // Room first, so that no call separates making the default from storing it
        // and it is written where it lives: built on the stack before a possible
        // `grow`, it is copied with loads that stall on the stores just made.
        #[cfg(not(debug_assertions))]
        self.extend(core::iter::once_with(T::schema_default));
        // An unoptimised build pushes it: the same element, without the iterator's
        // generic functions for every element type (their cost is compile time
        // there, and the stall above is the optimiser's concern only).
        #[cfg(debug_assertions)]
        self.push(T::schema_default());
        let read = match self.last_mut() {
            Some(element) => element.read_in_place(reader, cx),
            None => Ok(()),
        };
        // The position is worked out only for an error, so the loop that reads the
        // elements keeps no counter alive across the element's decoder.
        read.map_err(|e| e.at_index(self.len() - 1))
    }
}

impl<A: Array> Elements for SmallVec<A>
where
    A::Item: Wire,
{
    type Item = A::Item;
    #[inline(always)]
    fn as_slice(&self) -> &[A::Item] {
        self
    }
    #[inline(always)]
    fn with_capacity(capacity: usize) -> Self {
        SmallVec::with_capacity(capacity)
    }
    #[inline(always)]
    fn in_place() -> usize {
        A::size()
    }
    fn reserve_exact(&mut self, additional: usize) {
        SmallVec::reserve_exact(self, additional);
    }
    #[inline]
    fn heap_capacity(&self) -> usize {
        if self.spilled() {
            self.capacity()
        } else {
            0
        }
    }
    #[inline(always)]
    fn read_one(&mut self, reader: &mut Reader<'_>, cx: Cx) -> Result<(), DecodeError> {
        // Pushed whole: its elements are small, and finding the last one again would
        // read the inline buffer back over the stores that just wrote it.
        let element = A::Item::read(reader, cx).map_err(|e| e.at_index(self.len()))?;
        self.push(element);
        Ok(())
    }
}

/// Implements `Wire` and `Nullable` for an [`Elements`] container by delegating to the
/// shared functions below.
macro_rules! array_wire {
    (impl[$($generics:tt)*] for $container:ty, elements: $item:ty) => {
        impl<$($generics)*> Wire for $container
        where
            $item: Wire,
        {
            const TYPE: TypeSchema = TypeSchema::Array(&<$item as Wire>::TYPE);

            #[inline]
            fn size(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError> {
                if in_line::<$item>() {
                    size(Elements::as_slice(self), cx, sizes)
                } else {
                    size_out_of_line(Elements::as_slice(self), cx, sizes)
                }
            }

            #[inline(always)]
            fn write(&self, w: &mut Writer, cx: Cx, sizes: &mut Sizes) -> Result<(), EncodeError> {
                if in_line::<$item>() {
                    write(Elements::as_slice(self), w, cx, sizes)
                } else {
                    write_out_of_line(Elements::as_slice(self), w, cx, sizes)
                }
            }

            #[inline]
            fn check_lossless(&self, cx: Cx) -> Result<(), EncodeError> {
                check_lossless(Elements::as_slice(self), cx)
            }

            #[inline]
            fn retained_size(&self) -> usize {
                retained_size(self)
            }

            #[inline]
            fn read(reader: &mut Reader<'_>, cx: Cx) -> Result<Self, DecodeError> {
                Self::read_nullable(reader, cx)?
                    .ok_or_else(|| length::unexpected_null(reader, cx))
            }

            #[inline]
            fn read_in_place(&mut self, reader: &mut Reader<'_>, cx: Cx) -> Result<(), DecodeError> {
                if in_line::<$item>() {
                    read_in_place(self, reader, cx)
                } else {
                    read_in_place_out_of_line(self, reader, cx)
                }
            }

            #[inline]
            fn schema_default() -> Self {
                <Self as Default>::default()
            }

            #[inline]
            fn is_schema_default(&self) -> bool
            where
                Self: PartialEq,
            {
                Elements::as_slice(self).is_empty()
            }
        }

        impl<$($generics)*> Nullable for $container
        where
            $item: Wire,
        {
            fn null_size(cx: Cx) -> usize {
                length::size(None, cx, Classic::Int32)
            }

            fn write_null(w: &mut Writer, cx: Cx) {
                let _ = length::put(w, None, cx, Classic::Int32);
            }

            #[inline]
            fn read_nullable(reader: &mut Reader<'_>, cx: Cx) -> Result<Option<Self>, DecodeError> {
                let mut elements: Self = Default::default();
                Ok(read_nullable_into(&mut elements, reader, cx)?.then_some(elements))
            }
        }
    };
}

array_wire!(impl[T] for Vec<T>, elements: T);
array_wire!(impl[A: Array] for SmallVec<A>, elements: A::Item);

/// True when an array of `T` is coded where it is used: arrays of fixed-width
/// values (replica lists, thousands in one message, each a few bytes). Arrays of
/// anything else are one function per element type, out of line, with the
/// element's codec inlined into its loop: a message's codec is then a chain of
/// calls of a size each, not one function holding every level of its nesting,
/// which cost the optimiser more than it bought (one call per array).
#[inline(always)]
const fn in_line<T: Wire>() -> bool {
    T::TYPE.fixed_size().is_some()
}

// The out-of-line path: one function per element type, the same code as the
// in-line one. Around the loops, the code is not generic (the count's size, its
// writing and reading, the count rule and the reservation), so that each element
// type adds little more than its loops to a build. Those helpers are calls of
// their own where nothing is inlined anyway (unoptimised builds, where the calls
// cost nothing that matters and copies of them would cost compile time), and
// inlined where the optimiser runs (a call per array measured 2 % more
// instructions for MetadataResponse v12 encode).

#[inline(never)]
fn size_out_of_line<T: Wire>(
    elements: &[T],
    cx: Cx,
    sizes: &mut Sizes,
) -> Result<usize, EncodeError> {
    size(elements, cx, sizes)
}

#[inline(never)]
fn write_out_of_line<T: Wire>(
    elements: &[T],
    buf: &mut Writer,
    cx: Cx,
    sizes: &mut Sizes,
) -> Result<(), EncodeError> {
    write(elements, buf, cx, sizes)
}

#[inline(never)]
fn read_in_place_out_of_line<E: Elements>(
    elements: &mut E,
    reader: &mut Reader<'_>,
    cx: Cx,
) -> Result<(), DecodeError> {
    read_in_place(elements, reader, cx)
}

/// The size of an array's count. Not generic.
#[cfg_attr(debug_assertions, inline(never))]
#[cfg_attr(not(debug_assertions), inline(always))]
fn count_size(len: usize, cx: Cx) -> Result<usize, EncodeError> {
    length::check(len, cx, Classic::Int32)?;
    Ok(length::size(Some(len), cx, Classic::Int32))
}

/// Writes an array's count. Not generic.
#[cfg_attr(debug_assertions, inline(never))]
#[cfg_attr(not(debug_assertions), inline(always))]
fn put_count(buf: &mut Writer, len: usize, cx: Cx) -> Result<(), EncodeError> {
    length::put(buf, Some(len), cx, Classic::Int32)
}

/// Reads an array's count (`None`: null) and plans its reading under
/// [`check_count`]'s rule: the count, and how many elements to reserve. Not
/// generic.
#[cfg_attr(debug_assertions, inline(never))]
#[cfg_attr(not(debug_assertions), inline(always))]
fn begin_read(
    reader: &mut Reader<'_>,
    cx: Cx,
    min_size: usize,
    element_size: usize,
    in_place: usize,
) -> Result<Option<(usize, usize)>, DecodeError> {
    let start = reader.position();
    let Some(count) = length::read_value_len(reader, cx, Classic::Int32)? else {
        return Ok(None);
    };
    reader.budget().take_elements(count, start)?;
    let reserved = reservation(
        count,
        start,
        reader.remaining(),
        min_size,
        in_place,
        element_size,
    )?;
    Ok(Some((count, reserved)))
}

/// Reads an array, not null, into `elements`, which it replaces.
#[inline(always)]
fn read_in_place<E: Elements>(
    elements: &mut E,
    reader: &mut Reader<'_>,
    cx: Cx,
) -> Result<(), DecodeError> {
    if read_nullable_into(elements, reader, cx)? {
        Ok(())
    } else {
        Err(length::unexpected_null(reader, cx))
    }
}

/// Reads an array into `elements`, which it replaces, under [`check_count`]'s
/// rule: the count is checked, then at most the larger of the input left and
/// [`RESERVE_FLOOR_BYTES`] is reserved (a count the container holds in place
/// costs no memory, whatever it claims). `false`, and `elements` untouched, for
/// null.
#[inline(always)]
fn read_nullable_into<E: Elements>(
    elements: &mut E,
    reader: &mut Reader<'_>,
    cx: Cx,
) -> Result<bool, DecodeError> {
    let min_size = element_min_size::<E::Item>(cx);
    let element_size = std::mem::size_of::<E::Item>();
    let Some((count, reserved)) = begin_read(reader, cx, min_size, element_size, E::in_place())?
    else {
        return Ok(false);
    };
    *elements = E::with_capacity(reserved);
    read_elements(elements, count, reserved, min_size, reader, cx)?;
    Ok(true)
}

#[inline(always)]
fn size<T: Wire>(elements: &[T], cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError> {
    let mut size = count_size(elements.len(), cx)?;
    let cx = cx.with_nullable(false);
    // Loops over arrays are plain `while` loops: an iterator is a handful of generic
    // functions for every element type, which an unoptimised build compiles each.
    let mut index = 0;
    while index < elements.len() {
        match elements[index].size(cx, sizes) {
            Ok(element_size) => size += element_size,
            Err(e) => return Err(e.at_index(index)),
        }
        index += 1;
    }
    Ok(size)
}

// Always: left to the inliner, the outer arrays of MetadataResponse stopped being
// inlined into the message's encode once the crate's decode side grew (the walker),
// and encode took 6.7 % more instructions.
#[inline(always)]
fn write<T: Wire>(
    elements: &[T],
    buf: &mut Writer,
    cx: Cx,
    sizes: &mut Sizes,
) -> Result<(), EncodeError> {
    put_count(buf, elements.len(), cx)?;
    let cx = cx.with_nullable(false);
    let mut index = 0;
    while index < elements.len() {
        if let Err(e) = elements[index].write(buf, cx, sizes) {
            return Err(e.at_index(index));
        }
        index += 1;
    }
    Ok(())
}

/// Strict encoding's pass over the elements. Elements that hold no struct have no
/// fields to drop, which the element's type says when the program compiles, so a
/// replica list is not walked.
#[inline]
fn check_lossless<T: Wire>(elements: &[T], cx: Cx) -> Result<(), EncodeError> {
    if T::TYPE.struct_schema().is_none() {
        return Ok(());
    }
    let cx = cx.with_nullable(false);
    for (index, element) in elements.iter().enumerate() {
        element.check_lossless(cx).map_err(|e| e.at_index(index))?;
    }
    Ok(())
}

/// An array's heap bytes: its allocation, and what its elements hold. Elements of
/// a fixed size (replica lists) hold nothing, which is known when the program
/// compiles: they are not walked.
fn retained_size<E: Elements>(elements: &E) -> usize {
    let own = elements
        .heap_capacity()
        .saturating_mul(std::mem::size_of::<E::Item>());
    if in_line::<E::Item>() {
        return own;
    }
    elements.as_slice().iter().fold(own, |total, element| {
        total.saturating_add(element.retained_size())
    })
}

/// The most memory an array reserves before its elements are decoded, unless more
/// input than this remains: then as much as the input that remains. Past it,
/// capacity grows with the elements actually decoded (see [`read_elements`]).
const RESERVE_FLOOR_BYTES: usize = 4 * 1024;

/// Kafka's count rule, checked before anything is reserved: a count whose elements
/// could not fit in the `remaining` bytes even at their smallest encoding at this
/// version, `min_size`, is refused at the count, which started at byte `start`
/// (Kafka's own rule, a count no larger than the bytes left, with each element's
/// true minimum). The decoder and the [schema walker](crate::walk) both check here.
#[inline(always)]
pub(crate) fn check_count(
    count: usize,
    start: usize,
    remaining: usize,
    min_size: usize,
) -> Result<(), DecodeError> {
    // A multiplication, not a division: the smallest size is known only at run
    // time for structs, and a division would cost every array of them. It cannot
    // overflow: a count comes from an int32 or a varint below 2^32, and no element
    // is 2^32 bytes at its smallest (capped so, which folds away for the fixed
    // sizes of replica lists).
    debug_assert!(count <= u32::MAX as usize);
    let least = count as u64 * min_size.min(u32::MAX as usize) as u64;
    if least > remaining as u64 {
        return Err(DecodeError::new(
            DecodeErrorKind::ArrayTooLong {
                count: count as u64,
                element_min_size: min_size,
                remaining,
            },
            start,
        ));
    }
    Ok(())
}

/// The count of an array of `element`s (`None`: null, refused where `cx` is not
/// nullable), checked by [`check_count`], for code that knows the element type only
/// at run time (the [schema walker](crate::walk)).
pub(crate) fn read_schema_count(
    reader: &mut Reader<'_>,
    cx: Cx,
    element: &'static TypeSchema,
) -> Result<Option<usize>, DecodeError> {
    let start = reader.position();
    let Some(count) = length::read_value_len(reader, cx, Classic::Int32)? else {
        return Ok(None);
    };
    // In the decoder's order: the limit, then the count rule.
    reader.budget().take_elements(count, start)?;
    check_count(count, start, reader.remaining(), type_min_size(element, cx))?;
    Ok(Some(count))
}

/// How many elements to reserve before decoding `count` of them, each at least
/// `min_size` bytes and `element_size` in memory, with `remaining` bytes of input
/// left: after [`check_count`], all of them when they fit in place, else no more
/// than the input left (or [`RESERVE_FLOOR_BYTES`]) can hold. Not generic.
#[inline]
fn reservation(
    count: usize,
    start: usize,
    remaining: usize,
    min_size: usize,
    in_place: usize,
    element_size: usize,
) -> Result<usize, DecodeError> {
    check_count(count, start, remaining, min_size)?;
    if count <= in_place {
        return Ok(count);
    }
    let budget = remaining.max(RESERVE_FLOOR_BYTES);
    Ok(count.min(budget / element_size.max(1)))
}

/// Appends `count` elements to the empty `elements`, which has room for `reserved`.
/// An array comes back through no `Result`: it fills itself where it lives, since
/// copying it out of a return value would stall on the stores that just wrote it.
///
/// The first elements fill the capacity reserved up front. If more are claimed, the
/// array grows once, by exactly as many as the claim and the bytes left (at the
/// element's smallest size) both allow, and room for one that starts and fails: no
/// element can be decoded beyond that, so capacity follows what is decoded without
/// the slack of doubling. One loop, so that the element's decoder is compiled into
/// it once.
#[inline]
fn read_elements<E: Elements>(
    elements: &mut E,
    count: usize,
    reserved: usize,
    min_size: usize,
    reader: &mut Reader<'_>,
    cx: Cx,
) -> Result<(), DecodeError> {
    let cx = cx.with_nullable(false);
    for index in 0..count {
        if index == reserved {
            elements.reserve_exact(growth(count, reserved, reader.remaining(), min_size));
        }
        elements.read_one(reader, cx)?;
    }
    Ok(())
}

/// How many more elements to make room for once the first reservation is full.
/// Out of line and not generic: reached only by arrays larger than their
/// reservation.
#[cold]
#[inline(never)]
fn growth(count: usize, reserved: usize, remaining: usize, min_size: usize) -> usize {
    (count - reserved).min(remaining / min_size.max(1) + 1)
}

/// The fewest bytes an element takes, at least one (an element of no bytes still
/// counts against the input, as in Kafka). A constant for fixed-size elements
/// (replica lists are read in place, and pay only a multiplication for the check);
/// worked out at run time, out of line, for the others.
#[inline(always)]
fn element_min_size<T: Wire>(cx: Cx) -> usize {
    match T::TYPE.fixed_size() {
        Some(size) => size,
        None => type_min_size(&T::TYPE, cx),
    }
}

/// Out of line and not generic: one copy for every element type, called once per
/// array rather than per element, where an inlined copy per element type made up a
/// twentieth of the messages crate's machine code.
#[inline(never)]
fn type_min_size(ty: &'static TypeSchema, cx: Cx) -> usize {
    ty.min_size(cx.version, cx.flexible, false).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    #[test]
    fn classic_and_compact_counts() {
        let value = vec![1i16, 2];
        let classic = super::super::written(&value, Cx::new(0, false));
        assert_eq!(classic, [0, 0, 0, 2, 0, 1, 0, 2]);
        let compact = super::super::written(&value, Cx::new(0, true));
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
                element_min_size: 4,
                remaining: 10
            }
        );
    }

    #[test]
    fn small_vectors_share_the_wire_form_and_hold_short_arrays_in_place() {
        for cx in [Cx::new(0, false), Cx::new(0, true)] {
            let short: SmallVec<[i32; 4]> = SmallVec::from_slice(&[1, 2, 3]);
            let long: SmallVec<[i32; 4]> = SmallVec::from_slice(&[1, 2, 3, 4, 5]);
            for value in [short, long] {
                let small = super::super::written(&value, cx);
                let plain = super::super::written(&value.to_vec(), cx);
                assert_eq!(small, plain);
                assert_eq!(value.size(cx, &mut Sizes::new()).unwrap(), small.len());
                let input = Bytes::from(small);
                let mut slot = SmallVec::<[i32; 4]>::schema_default();
                slot.read_in_place(&mut Reader::new(&input), cx).unwrap();
                assert_eq!(slot, value);
                assert_eq!(slot.spilled(), value.len() > 4);
            }
        }
    }

    #[test]
    fn small_vectors_refuse_hostile_counts_and_unexpected_nulls() {
        let input = Bytes::from_static(&[0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
        let err =
            SmallVec::<[i32; 4]>::read(&mut Reader::new(&input), Cx::new(0, false)).unwrap_err();
        assert!(matches!(err.kind(), DecodeErrorKind::ArrayTooLong { .. }));
        // Two elements claimed, one present.
        let short = Bytes::from_static(&[3, 0, 0, 0, 1]);
        assert!(SmallVec::<[i32; 4]>::read(&mut Reader::new(&short), Cx::new(0, true)).is_err());
        let null = Bytes::from_static(&[0]);
        let err =
            SmallVec::<[i32; 4]>::read(&mut Reader::new(&null), Cx::new(0, true)).unwrap_err();
        assert_eq!(err.kind(), &DecodeErrorKind::UnexpectedNull { version: 0 });
        let nullable = Cx::new(0, true).with_nullable(true);
        assert_eq!(
            Option::<SmallVec<[i32; 4]>>::read(&mut Reader::new(&null), nullable).unwrap(),
            None
        );
    }
}
