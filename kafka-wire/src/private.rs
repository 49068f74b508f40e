//! What derived code calls. Not a public API: names here may change in any release.
//!
//! Each field costs the expansion one call per pass; Kafka's rules (versions,
//! nullability, ignorable, tagged placement) live here, once.

pub use bytes::{BufMut, Bytes};

pub use crate::message::{Message, Struct};
pub use crate::schema::{FieldSchema, MessageKind, MessageSchema, StructSchema, TypeSchema};
pub use crate::wire::tagged::{read_tagged_section, TaggedSize, TaggedWriter};
pub use crate::wire::{Cx, Nullable, UnknownTaggedFields, Wire};
pub use crate::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, Reader, VersionRange};

use crate::wire::KafkaString;

/// The context a field's value is coded in: the field's own flexibility override
/// applies to strings and bytes (e.g. `RequestHeader.ClientId`).
#[inline(always)]
fn field_cx(field: &FieldSchema, cx: Cx) -> Cx {
    Cx {
        version: cx.version,
        flexible: field.is_compact_at(cx.version, cx.flexible),
        nullable: field.nullable_versions.contains(cx.version),
    }
}

#[inline(always)]
fn check_null<T: Wire>(value: &T, field: &FieldSchema, cx: Cx) -> Result<(), EncodeError> {
    if value.is_null() && !field.nullable_versions.contains(cx.version) {
        return Err(EncodeError::new(EncodeErrorKind::NullNotAllowed {
            version: cx.version,
        })
        .within(field.name));
    }
    Ok(())
}

/// Size of a field written in the body, or 0 when it is absent or tagged at this
/// version. Fails when a non-ignorable field holding a non-default value is absent,
/// or when it is null where it may not be.
#[inline(always)]
pub fn size_field<T: Wire>(
    value: &T,
    field: &FieldSchema,
    cx: Cx,
    is_default: impl FnOnce(&T) -> bool,
) -> Result<usize, EncodeError> {
    if !field.versions.contains(cx.version) {
        if field.ignorable || is_default(value) {
            return Ok(0);
        }
        return Err(EncodeError::new(EncodeErrorKind::FieldNotInVersion {
            version: cx.version,
        })
        .within(field.name));
    }
    if field.is_tagged_at(cx.version) {
        return Ok(0);
    }
    check_null(value, field, cx)?;
    value
        .size(field_cx(field, cx))
        .map_err(|e| e.within(field.name))
}

/// True when a tagged field goes into the tagged section at this version.
#[inline(always)]
pub fn tagged_present<T: Wire>(
    value: &T,
    field: &FieldSchema,
    cx: Cx,
    is_default: impl FnOnce(&T) -> bool,
) -> bool {
    field.is_tagged_at(cx.version) && !is_default(value)
}

/// Counts a tagged field into the section size when it is present.
#[inline(always)]
pub fn size_tagged<T: Wire>(
    tagged: &mut TaggedSize,
    value: &T,
    field: &FieldSchema,
    cx: Cx,
    is_default: impl FnOnce(&T) -> bool,
) -> Result<(), EncodeError> {
    if !tagged_present(value, field, cx, is_default) {
        return Ok(());
    }
    check_null(value, field, cx)?;
    let tag = field.tag.unwrap_or_default();
    tagged
        .add(tag, value, field_cx(field, cx))
        .map_err(|e| e.within(field.name))
}

/// Writes a field of the body when this version has it there.
#[inline(always)]
pub fn write_field<T: Wire, B: BufMut>(
    buf: &mut B,
    value: &T,
    field: &FieldSchema,
    cx: Cx,
) -> Result<(), EncodeError> {
    if field.versions.contains(cx.version) && !field.is_tagged_at(cx.version) {
        value
            .write(buf, field_cx(field, cx))
            .map_err(|e| e.within(field.name))?;
    }
    Ok(())
}

/// Writes a tagged field's entry; call only when [`tagged_present`] said so.
#[inline(always)]
pub fn write_tagged<T: Wire, B: BufMut>(
    writer: &mut TaggedWriter<'_>,
    buf: &mut B,
    value: &T,
    field: &FieldSchema,
    cx: Cx,
) -> Result<(), EncodeError> {
    let tag = field.tag.unwrap_or_default();
    writer
        .field(buf, tag, value, field_cx(field, cx))
        .map_err(|e| e.within(field.name))
}

#[inline(always)]
fn read_value<T: Wire>(
    slot: &mut T,
    reader: &mut Reader<'_>,
    field: &FieldSchema,
    cx: Cx,
) -> Result<(), DecodeError> {
    slot.read_in_place(reader, field_cx(field, cx))
        .map_err(|e| e.within(field.name))
}

/// Reads a field of the body into `slot` when this version has it there; otherwise
/// `slot` keeps its default.
#[inline(always)]
pub fn read_field<T: Wire>(
    slot: &mut T,
    reader: &mut Reader<'_>,
    field: &FieldSchema,
    cx: Cx,
) -> Result<(), DecodeError> {
    if field.versions.contains(cx.version) && !field.is_tagged_at(cx.version) {
        read_value(slot, reader, field, cx)?;
    }
    Ok(())
}

/// Reads a known tagged field; `Ok(false)` when the tag is not tagged at this
/// version, so the caller keeps it as unknown.
#[inline(always)]
pub fn read_tagged<T: Wire>(
    slot: &mut T,
    reader: &mut Reader<'_>,
    field: &FieldSchema,
    cx: Cx,
) -> Result<bool, DecodeError> {
    if !field.is_tagged_at(cx.version) {
        return Ok(false);
    }
    read_value(slot, reader, field, cx)?;
    Ok(true)
}

/// The lower of two versions, for `MIN_TAGGED_VERSION` in `const` context.
pub const fn min_version(a: i16, b: i16) -> i16 {
    if a < b {
        a
    } else {
        b
    }
}

/// Checks that a nested type's tags fall within the message's flexible versions.
pub const fn nested_tags_ok(min_tagged_version: i16, flexible: VersionRange) -> bool {
    min_tagged_version == i16::MAX || flexible.contains(min_tagged_version)
}

/// Turns a string default from an attribute into a value of the field's type.
#[diagnostic::on_unimplemented(
    message = "a string default does not fit a field of type `{Self}`",
    label = "string defaults are only for string fields"
)]
pub trait StrDefault {
    /// The value for `text`.
    fn from_default(text: &'static str) -> Self;
}

impl StrDefault for KafkaString {
    fn from_default(text: &'static str) -> Self {
        KafkaString::from_static(text)
    }
}

impl StrDefault for String {
    fn from_default(text: &'static str) -> Self {
        text.to_owned()
    }
}

impl<T: StrDefault> StrDefault for Option<T> {
    fn from_default(text: &'static str) -> Self {
        Some(T::from_default(text))
    }
}

/// The null marker of a nullable struct.
pub fn write_struct_null<B: BufMut>(buf: &mut B) {
    buf.put_i8(-1);
}

/// The presence marker of a nullable struct.
pub fn write_struct_present<B: BufMut>(buf: &mut B) {
    buf.put_i8(1);
}

/// Reads a nullable struct: its marker, then the struct unless the marker says null
/// (Kafka takes any negative byte as null).
#[inline]
pub fn read_nullable_struct<T: Wire>(
    reader: &mut Reader<'_>,
    cx: Cx,
) -> Result<Option<T>, DecodeError> {
    if (reader.read_u8()? as i8) < 0 {
        return Ok(None);
    }
    T::read(reader, cx).map(Some)
}
