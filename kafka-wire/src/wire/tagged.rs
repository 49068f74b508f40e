//! The tagged-field section that ends every struct in a flexible version: a varint
//! count, then `tag, size, value` entries in ascending tag order.

use std::fmt;

use bytes::Bytes;

use super::varint::unsigned_varint_size;
use super::{Cx, Sizes, Wire, Writer};
use crate::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, Reader};

/// A tagged field this code does not know: its tag and raw value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RawTaggedField {
    /// The tag.
    pub tag: u32,
    /// The value's bytes, exactly as received (a slice of the input).
    pub data: Bytes,
}

/// Tagged fields a struct does not know, kept in tag order and written back unchanged.
///
/// ```
/// use bytes::Bytes;
/// use kwire::UnknownTaggedFields;
///
/// let mut unknown = UnknownTaggedFields::default();
/// unknown.insert(99, Bytes::from_static(b"hello"));
/// unknown.insert(7, Bytes::from_static(b"x"));
/// let tags: Vec<u32> = unknown.iter().map(|f| f.tag).collect();
/// assert_eq!(tags, [7, 99]);
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
#[allow(
    clippy::box_collection,
    reason = "a thin pointer: see the field's comment"
)]
pub struct UnknownTaggedFields(
    /// `None` when empty, never `Some` of an empty list (so the derived comparisons
    /// hold). Almost every struct has none: one null pointer is cheaper to create,
    /// move and drop than an empty `Vec`, and keeps every decoded struct smaller.
    Option<Box<Vec<RawTaggedField>>>,
);

impl UnknownTaggedFields {
    /// The heap bytes the list of fields holds (its box and its capacity; each
    /// field's data is a slice of the decoded input, which holds nothing of its
    /// own): see [`Wire::retained_size`](crate::Wire::retained_size).
    ///
    /// ```
    /// use bytes::Bytes;
    /// use kwire::UnknownTaggedFields;
    ///
    /// let mut unknown = UnknownTaggedFields::default();
    /// assert_eq!(unknown.retained_size(), 0);
    /// unknown.insert(7, Bytes::from_static(b"x"));
    /// assert!(unknown.retained_size() > 0);
    /// ```
    pub fn retained_size(&self) -> usize {
        self.0.as_ref().map_or(0, |fields| {
            std::mem::size_of::<Vec<RawTaggedField>>()
                + fields.capacity() * std::mem::size_of::<RawTaggedField>()
        })
    }

    /// Adds a field, keeping tag order (a repeated tag goes after the earlier one).
    pub fn insert(&mut self, tag: u32, data: Bytes) {
        let fields = self.0.get_or_insert_with(Box::default);
        let at = fields.partition_point(|f| f.tag <= tag);
        fields.insert(at, RawTaggedField { tag, data });
    }

    /// Appends a field whose tag is above every tag held: what decoding does, since
    /// it refuses tags that do not ascend. Constant time, so a section of any
    /// length decodes in linear time.
    fn push_ascending(&mut self, tag: u32, data: Bytes) {
        let fields = self.0.get_or_insert_with(Box::default);
        debug_assert!(fields.last().is_none_or(|last| last.tag < tag));
        fields.push(RawTaggedField { tag, data });
    }

    /// The fields, in tag order.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, RawTaggedField> {
        self.as_slice().iter()
    }

    /// How many there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// True when there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// Removes them all.
    pub fn clear(&mut self) {
        self.0 = None;
    }

    #[inline]
    fn as_slice(&self) -> &[RawTaggedField] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

impl Drop for UnknownTaggedFields {
    /// Small enough to inline into every struct's drop: the list, when there is
    /// one, is freed out of line.
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(fields) = self.0.take() {
            drop_fields(fields);
        }
    }
}

#[inline(never)]
#[allow(
    clippy::box_collection,
    reason = "the same thin pointer, being dropped"
)]
fn drop_fields(fields: Box<Vec<RawTaggedField>>) {
    drop(fields);
}

impl fmt::Debug for UnknownTaggedFields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UnknownTaggedFields")
            .field(&self.as_slice())
            .finish()
    }
}

impl<'a> IntoIterator for &'a UnknownTaggedFields {
    type Item = &'a RawTaggedField;
    type IntoIter = std::slice::Iter<'a, RawTaggedField>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[inline]
fn entry_size(tag: u32, len: usize) -> usize {
    unsigned_varint_size(tag) + unsigned_varint_size(len as u32) + len
}

/// Adds up a struct's tagged section while the struct computes its size, and
/// records in [`Sizes`] what writing the section needs: which known tagged fields
/// are present (a bit per tag), and how large each present value is.
#[derive(Debug)]
pub struct TaggedSize {
    /// Where the presence bits start; `Some` only for a struct that declares tags,
    /// in a flexible version.
    present: Option<usize>,
    flexible: bool,
    count: usize,
    size: usize,
}

impl TaggedSize {
    /// Starts the section of a struct declaring `known_tags` tags (always
    /// `0..known_tags`, which the derive checks).
    #[inline(always)]
    pub fn begin(known_tags: u32, cx: Cx, sizes: &mut Sizes) -> Self {
        let flexible = cx.flexible;
        TaggedSize {
            present: (flexible && known_tags > 0).then(|| sizes.reserve_bits(known_tags)),
            flexible,
            count: 0,
            size: 0,
        }
    }

    /// Sizes one known tagged field, `present` when it goes into the section.
    #[inline]
    pub(crate) fn field<T: Wire>(
        &mut self,
        tag: u32,
        present: bool,
        value: &T,
        cx: Cx,
        sizes: &mut Sizes,
    ) -> Result<(), EncodeError> {
        if !present {
            return Ok(());
        }
        self.count += 1;
        let Some(bits) = self.present else {
            // Not flexible here: refused in `finish`, once, whatever else the
            // section holds.
            return Ok(());
        };
        sizes.set_bit(bits, tag);
        let slot = sizes.reserve();
        let len = value.size(cx, sizes)?;
        sizes.fill(slot, len)?;
        self.size += entry_size(tag, len);
        Ok(())
    }

    /// The section of a struct that declares no tags: only its unknown fields.
    /// Nothing to record, and no state to build, for the common case.
    #[inline(always)]
    pub fn of_unknown_only(
        unknown: Option<&UnknownTaggedFields>,
        cx: Cx,
    ) -> Result<usize, EncodeError> {
        if unknown.is_none_or(UnknownTaggedFields::is_empty) {
            return Ok(usize::from(cx.flexible));
        }
        let section = TaggedSize {
            present: None,
            flexible: cx.flexible,
            count: 0,
            size: 0,
        };
        section.finish_with(unknown, 0, cx.version)
    }

    /// The section's size, unknown fields included, which must not reuse a known
    /// tag (`0..known_tags`) and must ascend.
    #[inline(always)]
    pub fn finish(
        self,
        unknown: Option<&UnknownTaggedFields>,
        known_tags: u32,
        version: i16,
    ) -> Result<usize, EncodeError> {
        let no_unknown = unknown.is_none_or(UnknownTaggedFields::is_empty);
        if no_unknown {
            if self.count == 0 {
                // The common case: an empty section is one zero byte, or nothing.
                return Ok(usize::from(self.flexible));
            }
            if self.flexible {
                // Known fields only: their count, then them.
                return Ok(unsigned_varint_size(self.count as u32) + self.size);
            }
        }
        self.finish_with(unknown, known_tags, version)
    }

    #[inline(never)]
    fn finish_with(
        mut self,
        unknown: Option<&UnknownTaggedFields>,
        known_tags: u32,
        version: i16,
    ) -> Result<usize, EncodeError> {
        if let Some(unknown) = unknown {
            let mut previous: Option<u32> = None;
            for field in unknown {
                if field.tag < known_tags || previous.is_some_and(|p| p >= field.tag) {
                    return Err(EncodeError::new(EncodeErrorKind::TagClash(field.tag)));
                }
                previous = Some(field.tag);
                self.count += 1;
                self.size += entry_size(field.tag, field.data.len());
            }
        }
        if !self.flexible {
            return Err(EncodeError::new(
                EncodeErrorKind::TaggedFieldsNotSupported { version },
            ));
        }
        Ok(unsigned_varint_size(self.count as u32) + self.size)
    }
}

/// Writes the tagged section that [`TaggedSize`] sized, merging known fields with
/// unknown ones in tag order.
#[derive(Debug)]
pub struct TaggedWriter<'u> {
    unknown: &'u [RawTaggedField],
    /// Where the presence bits sizing recorded start.
    present: usize,
}

impl<'u> TaggedWriter<'u> {
    /// Starts the section: writes its field count.
    #[inline]
    pub fn begin(
        buf: &mut Writer,
        known_tags: u32,
        unknown: Option<&'u UnknownTaggedFields>,
        sizes: &mut Sizes,
    ) -> Result<Self, EncodeError> {
        let unknown = unknown.map_or(&[][..], UnknownTaggedFields::as_slice);
        let (present, known) = if known_tags > 0 {
            sizes.take_bits(known_tags)?
        } else {
            (0, 0)
        };
        buf.put_unsigned_varint(known + unknown.len() as u32);
        Ok(TaggedWriter { unknown, present })
    }

    /// Writes the section of a struct that declares no tags: only its unknown
    /// fields. No writer state for the common case, an empty section (one zero
    /// byte), so an array of such structs keeps its cursor in registers.
    #[inline(always)]
    pub fn write_unknown_only(buf: &mut Writer, unknown: Option<&'u UnknownTaggedFields>) {
        match unknown {
            Some(unknown) if !unknown.is_empty() => Self::write_unknown(buf, unknown),
            _ => buf.put_u8(0),
        }
    }

    #[inline(never)]
    fn write_unknown(buf: &mut Writer, unknown: &'u UnknownTaggedFields) {
        buf.put_unsigned_varint(unknown.as_slice().len() as u32);
        TaggedWriter {
            unknown: unknown.as_slice(),
            present: 0,
        }
        .flush_unknown_below(buf, None);
    }

    /// Writes the unknown fields whose tag is below `tag` (all of them for `None`).
    #[inline(always)]
    fn flush_below(&mut self, buf: &mut Writer, tag: Option<u32>) {
        if !self.unknown.is_empty() {
            self.flush_unknown_below(buf, tag);
        }
    }

    #[inline(never)]
    fn flush_unknown_below(&mut self, buf: &mut Writer, tag: Option<u32>) {
        while let Some((first, rest)) = self.unknown.split_first() {
            if tag.is_some_and(|t| first.tag >= t) {
                break;
            }
            buf.put_unsigned_varint(first.tag);
            buf.put_unsigned_varint(first.data.len() as u32);
            buf.put_slice(&first.data);
            self.unknown = rest;
        }
    }

    /// Writes one known field if sizing found it present; call in ascending tag
    /// order, for every known tagged field.
    #[inline]
    pub(crate) fn field<T: Wire>(
        &mut self,
        buf: &mut Writer,
        tag: u32,
        value: &T,
        cx: Cx,
        sizes: &mut Sizes,
    ) -> Result<(), EncodeError> {
        if !sizes.bit(self.present, tag) {
            return Ok(());
        }
        let len = sizes.take()?;
        self.flush_below(buf, Some(tag));
        buf.put_unsigned_varint(tag);
        buf.put_unsigned_varint(len);
        value.write(buf, cx, sizes)
    }

    /// Writes the unknown fields left.
    #[inline(always)]
    pub fn finish(mut self, buf: &mut Writer) {
        self.flush_below(buf, None);
    }
}

/// What a derived struct tells the tagged-section reader: how to read each of its
/// known tags, and where to keep the others.
pub trait ReadTagged {
    /// Reads the value of `tag` if it is a known field's and returns `true`, or
    /// returns `false` without reading for a tag the struct does not know.
    fn read_tag(&mut self, tag: u32, reader: &mut Reader<'_>, cx: Cx) -> Result<bool, DecodeError>;
    /// Where unknown tags are kept; `None` refuses them.
    fn unknown_tags(&mut self) -> Option<&mut UnknownTaggedFields>;
}

/// Reads a tagged section into `target`. Tags must strictly ascend, as Kafka writes
/// them: anything else is refused, so what decodes can be encoded again, and in
/// linear time.
///
/// Only the empty section, by far the most common, is read inline; the loop over
/// entries is one function for every struct, reaching the struct through a `dyn`,
/// so that each derived struct adds its tag `match` and nothing more to a build.
#[inline(always)]
pub fn read_tagged_section(
    reader: &mut Reader<'_>,
    target: &mut dyn ReadTagged,
    cx: Cx,
) -> Result<(), DecodeError> {
    if reader.take_zero() {
        return Ok(());
    }
    read_tagged_entries(reader, target, cx)
}

#[inline(never)]
fn read_tagged_entries(
    reader: &mut Reader<'_>,
    target: &mut dyn ReadTagged,
    cx: Cx,
) -> Result<(), DecodeError> {
    let mut entries = TaggedEntries::begin(reader)?;
    while let Some(entry) = entries.next(reader)? {
        let (handled, used) = reader.limited(entry.size, |r| target.read_tag(entry.tag, r, cx))?;
        if handled {
            entry.check_used(used)?;
            continue;
        }
        let Some(keep) = target.unknown_tags() else {
            return Err(entry.not_kept(reader));
        };
        keep.push_ascending(entry.tag, reader.read_bytes(entry.size)?);
    }
    Ok(())
}

/// The entries of a tagged section, read one at a time by Kafka's rules: tags
/// strictly ascend (anything else is refused, so what decodes can be encoded again,
/// and in linear time), a known field's value fills exactly the size its entry
/// declares, and an unknown tag is refused where the struct keeps none. The
/// decoder and the [schema walker](crate::walk) both read sections here.
pub(crate) struct TaggedEntries {
    left: u32,
    previous: Option<u32>,
}

/// One entry's header: its tag, the size of its value, and where the entry starts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TaggedEntry {
    pub(crate) tag: u32,
    pub(crate) size: usize,
    /// The position of the tag.
    pub(crate) at: usize,
    /// The position of the value, just after the size.
    pub(crate) value_at: usize,
}

impl TaggedEntries {
    /// Reads the section's entry count.
    pub(crate) fn begin(reader: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(TaggedEntries {
            left: reader.read_unsigned_varint()?,
            previous: None,
        })
    }

    /// How many entries are still to be read.
    pub(crate) fn left(&self) -> u32 {
        self.left
    }

    /// Reads the next entry's tag and size, or `None` after the last. Each entry
    /// takes at least two bytes, so a lying count ends at the input's end.
    pub(crate) fn next(
        &mut self,
        reader: &mut Reader<'_>,
    ) -> Result<Option<TaggedEntry>, DecodeError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let at = reader.position();
        let tag = reader.read_unsigned_varint()?;
        if let Some(previous) = self.previous.filter(|&p| p >= tag) {
            return Err(DecodeError::new(
                DecodeErrorKind::TagsOutOfOrder { tag, previous },
                at,
            ));
        }
        self.previous = Some(tag);
        let size = reader.read_unsigned_varint()? as usize;
        Ok(Some(TaggedEntry {
            tag,
            size,
            at,
            value_at: reader.position(),
        }))
    }
}

impl TaggedEntry {
    /// Refuses a known field's value that used `used` bytes of the declared size.
    pub(crate) fn check_used(&self, used: usize) -> Result<(), DecodeError> {
        if used != self.size {
            return Err(DecodeError::new(
                DecodeErrorKind::TaggedFieldSize {
                    tag: self.tag,
                    declared: self.size,
                    used,
                },
                self.value_at,
            ));
        }
        Ok(())
    }

    /// The error for an unknown tag in a struct that keeps none.
    #[cold]
    pub(crate) fn not_kept(&self, reader: &Reader<'_>) -> DecodeError {
        reader.error(DecodeErrorKind::UnknownTagNotKept(self.tag))
    }
}
