//! The tagged-field section that ends every struct in a flexible version: a varint
//! count, then `tag, size, value` entries in ascending tag order.

use bytes::{BufMut, Bytes};

use super::varint::{put_unsigned_varint, unsigned_varint_size};
use super::{Cx, Wire};
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
/// use kafka_wire::UnknownTaggedFields;
///
/// let mut unknown = UnknownTaggedFields::default();
/// unknown.insert(99, Bytes::from_static(b"hello"));
/// unknown.insert(7, Bytes::from_static(b"x"));
/// let tags: Vec<u32> = unknown.iter().map(|f| f.tag).collect();
/// assert_eq!(tags, [7, 99]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct UnknownTaggedFields(Vec<RawTaggedField>);

impl UnknownTaggedFields {
    /// Adds a field, keeping tag order (a repeated tag goes after the earlier one).
    pub fn insert(&mut self, tag: u32, data: Bytes) {
        let at = self.0.partition_point(|f| f.tag <= tag);
        self.0.insert(at, RawTaggedField { tag, data });
    }

    /// The fields, in tag order.
    pub fn iter(&self) -> std::slice::Iter<'_, RawTaggedField> {
        self.0.iter()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Removes them all.
    pub fn clear(&mut self) {
        self.0.clear()
    }

    fn as_slice(&self) -> &[RawTaggedField] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a UnknownTaggedFields {
    type Item = &'a RawTaggedField;
    type IntoIter = std::slice::Iter<'a, RawTaggedField>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[inline]
fn entry_size(tag: u32, len: usize) -> usize {
    unsigned_varint_size(tag) + unsigned_varint_size(len as u32) + len
}

/// Adds up the tagged section while a struct computes its size.
#[derive(Debug, Default)]
pub struct TaggedSize {
    count: usize,
    size: usize,
}

impl TaggedSize {
    /// Counts one known tagged field holding `value`.
    #[inline]
    pub fn add<T: Wire>(&mut self, tag: u32, value: &T, cx: Cx) -> Result<(), EncodeError> {
        let len = value.size(cx)?;
        self.count += 1;
        self.size += entry_size(tag, len);
        Ok(())
    }

    /// The section's size, unknown fields included. `known_tags` is the number of
    /// tags the struct declares (always `0..known_tags`, which the derive checks).
    #[inline]
    pub fn finish(
        mut self,
        unknown: Option<&UnknownTaggedFields>,
        known_tags: u32,
        cx: Cx,
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
        if !cx.flexible {
            if self.count > 0 {
                return Err(EncodeError::new(
                    EncodeErrorKind::TaggedFieldsNotSupported {
                        version: cx.version,
                    },
                ));
            }
            return Ok(0);
        }
        Ok(unsigned_varint_size(self.count as u32) + self.size)
    }
}

/// Writes the tagged section, merging known fields with unknown ones in tag order.
#[derive(Debug)]
pub struct TaggedWriter<'u> {
    unknown: &'u [RawTaggedField],
}

impl<'u> TaggedWriter<'u> {
    /// Starts the section: writes the count of known fields present plus unknown ones.
    #[inline]
    pub fn begin<B: BufMut>(
        buf: &mut B,
        known_present: usize,
        unknown: Option<&'u UnknownTaggedFields>,
    ) -> Self {
        let unknown = unknown.map_or(&[][..], UnknownTaggedFields::as_slice);
        put_unsigned_varint(buf, (known_present + unknown.len()) as u32);
        TaggedWriter { unknown }
    }

    /// Writes the unknown fields whose tag is below `tag` (all of them for `None`).
    fn flush_below<B: BufMut>(&mut self, buf: &mut B, tag: Option<u32>) {
        while let Some((first, rest)) = self.unknown.split_first() {
            if tag.is_some_and(|t| first.tag >= t) {
                break;
            }
            put_unsigned_varint(buf, first.tag);
            put_unsigned_varint(buf, first.data.len() as u32);
            buf.put_slice(&first.data);
            self.unknown = rest;
        }
    }

    /// Writes one known field; call in ascending tag order.
    #[inline]
    pub fn field<B: BufMut, T: Wire>(
        &mut self,
        buf: &mut B,
        tag: u32,
        value: &T,
        cx: Cx,
    ) -> Result<(), EncodeError> {
        self.flush_below(buf, Some(tag));
        put_unsigned_varint(buf, tag);
        put_unsigned_varint(buf, value.size(cx)? as u32);
        value.write(buf, cx)
    }

    /// Writes the unknown fields left.
    #[inline]
    pub fn finish<B: BufMut>(mut self, buf: &mut B) {
        self.flush_below(buf, None);
    }
}

/// Reads a tagged section. `known` reads a known tag's value and returns `true`, or
/// returns `false` without reading for a tag it does not know.
#[inline]
pub fn read_tagged_section(
    reader: &mut Reader<'_>,
    unknown: Option<&mut UnknownTaggedFields>,
    mut known: impl FnMut(u32, &mut Reader<'_>) -> Result<bool, DecodeError>,
) -> Result<(), DecodeError> {
    let count = reader.read_unsigned_varint()?;
    let mut unknown = unknown;
    for _ in 0..count {
        let tag = reader.read_unsigned_varint()?;
        let size = reader.read_unsigned_varint()? as usize;
        let start = reader.position();
        let (handled, used) = reader.limited(size, |r| known(tag, r))?;
        if handled {
            if used != size {
                return Err(DecodeError::new(
                    DecodeErrorKind::TaggedFieldSize {
                        tag,
                        declared: size,
                        used,
                    },
                    start,
                ));
            }
            continue;
        }
        let Some(keep) = unknown.as_deref_mut() else {
            return Err(reader.error(DecodeErrorKind::UnknownTagNotKept(tag)));
        };
        keep.insert(tag, reader.read_bytes(size)?);
    }
    Ok(())
}
