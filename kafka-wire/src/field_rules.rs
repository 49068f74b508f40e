//! Kafka's field rules: when a field is written, where, and what a version refuses.
//!
//! Every derived struct runs each of its fields through these functions, one call
//! per field and pass (through the hidden methods of [`Wire`], see there why), so the
//! rules live here once rather than in every expansion:
//!
//! - a field absent from a version is dropped when ignorable or holding its
//!   default, and refused otherwise;
//! - a tagged field is written in the tagged section, only when it differs from its
//!   default, and a known tag read in a version where its field is not tagged is
//!   refused (as Kafka's generated code refuses it);
//! - null is refused in versions where the field is not nullable;
//! - strings and bytes follow the field's own flexible versions when it has some.

use bytes::BufMut;

use crate::schema::FieldSchema;
use crate::wire::tagged::{TaggedSize, TaggedWriter};
use crate::wire::{Cx, Sizes, Wire};
use crate::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, Reader};

/// The context a field's value is coded in at `cx`.
#[inline(always)]
fn field_cx(field: &FieldSchema, cx: Cx) -> Cx {
    Cx {
        version: cx.version,
        flexible: field.is_compact_at(cx.version, cx.flexible),
        nullable: field.is_nullable_at(cx.version),
    }
}

#[inline(always)]
fn check_null<T: Wire>(value: &T, field: &FieldSchema, cx: Cx) -> Result<(), EncodeError> {
    if value.is_null() && !field.is_nullable_at(cx.version) {
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
pub(crate) fn size_field<T: Wire>(
    value: &T,
    field: &'static FieldSchema,
    cx: Cx,
    sizes: &mut Sizes,
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
        .size(field_cx(field, cx), sizes)
        .map_err(|e| e.within(field.name))
}

/// Writes a field of the body when this version has it there.
#[inline(always)]
pub(crate) fn write_field<T: Wire, B: BufMut>(
    value: &T,
    buf: &mut B,
    field: &'static FieldSchema,
    cx: Cx,
    sizes: &mut Sizes,
) -> Result<(), EncodeError> {
    if field.versions.contains(cx.version) && !field.is_tagged_at(cx.version) {
        value
            .write(buf, field_cx(field, cx), sizes)
            .map_err(|e| e.within(field.name))?;
    }
    Ok(())
}

/// Reads a field of the body into `slot` when this version has it there; otherwise
/// `slot` keeps its default.
#[inline(always)]
pub(crate) fn read_field<T: Wire>(
    slot: &mut T,
    reader: &mut Reader<'_>,
    field: &'static FieldSchema,
    cx: Cx,
) -> Result<(), DecodeError> {
    if field.versions.contains(cx.version) && !field.is_tagged_at(cx.version) {
        slot.read_in_place(reader, field_cx(field, cx))
            .map_err(|e| e.within(field.name))?;
    }
    Ok(())
}

/// Sizes a tagged field into its struct's section: present when tagged at this
/// version and not holding its default.
#[inline(always)]
pub(crate) fn size_tagged<T: Wire>(
    value: &T,
    section: &mut TaggedSize,
    field: &'static FieldSchema,
    cx: Cx,
    sizes: &mut Sizes,
    is_default: impl FnOnce(&T) -> bool,
) -> Result<(), EncodeError> {
    let present = field.is_tagged_at(cx.version) && !is_default(value);
    if present {
        check_null(value, field, cx)?;
    }
    let tag = field.tag.unwrap_or_default();
    section
        .field(tag, present, value, field_cx(field, cx), sizes)
        .map_err(|e| e.within(field.name))
}

/// Writes a tagged field's entry if sizing found it present.
#[inline(always)]
pub(crate) fn write_tagged<T: Wire, B: BufMut>(
    value: &T,
    section: &mut TaggedWriter<'_>,
    buf: &mut B,
    field: &'static FieldSchema,
    cx: Cx,
    sizes: &mut Sizes,
) -> Result<(), EncodeError> {
    let tag = field.tag.unwrap_or_default();
    section
        .field(buf, tag, value, field_cx(field, cx), sizes)
        .map_err(|e| e.within(field.name))
}

/// Reads a known tagged field, refusing it in a version where the field is not
/// tagged; `true` says the tag was this field's.
#[inline(always)]
pub(crate) fn read_tagged<T: Wire>(
    slot: &mut T,
    reader: &mut Reader<'_>,
    field: &'static FieldSchema,
    cx: Cx,
) -> Result<bool, DecodeError> {
    if !field.is_tagged_at(cx.version) {
        let tag = field.tag.unwrap_or_default();
        return Err(reader
            .error(DecodeErrorKind::TagNotInVersion {
                tag,
                version: cx.version,
            })
            .within(field.name));
    }
    slot.read_in_place(reader, field_cx(field, cx))
        .map_err(|e| e.within(field.name))?;
    Ok(true)
}
