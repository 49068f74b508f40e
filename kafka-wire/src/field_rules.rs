//! Kafka's field rules: when a field is written, where, and what a version refuses.
//!
//! Every derived struct runs each of its fields through [`FieldRules`], one call per
//! field and pass, so the codec lives here once rather than in every expansion. The
//! derive works out from the attributes, when the program compiles, which versions
//! have each field in the body and which in the tagged section, and guards each
//! call by that comparison of the version; what happens inside is the runtime's:
//!
//! - a field absent from a version is dropped when ignorable or holding its
//!   default, and refused otherwise (Kafka's presence rule, shared with the JSON
//!   form: [`presence`]); the derive emits the refusal ([`absent`]) only for fields
//!   that are neither;
//! - a tagged field is written in the tagged section, only when it differs from its
//!   default, and a known tag read in a version where its field is not tagged is
//!   refused (as Kafka's generated code refuses it: [`tag_not_in_version`]);
//! - null is refused in versions where the field is not nullable (by `Option`'s
//!   codec, which the field's context tells whether this version is one);
//! - strings and bytes follow the field's own flexible versions when it has some;
//! - strict encoding, a pass of its own before sizing, refuses an ignorable field's
//!   non-default value at a version that lacks the field, at any depth
//!   ([`presence::drops_value`]); its own pass, so that sizing and writing stay
//!   exactly what a normal encode runs.
//!
//! Generated code names a field's type only as `<T as FieldRules>`, never through
//! generic functions: a type that is not a Kafka type then fails one bound, the same
//! at every use, and rustc reports it once, with [`Wire`]'s message.

pub(crate) mod presence;
#[cfg(test)]
mod presence_tests;
#[cfg(test)]
mod strict_tests;

use crate::schema::{FieldSchema, TypeSchema};
use crate::wire::tagged::{TaggedSize, TaggedWriter};
use crate::wire::{Cx, Sizes, Wire, Writer};
use crate::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, Reader};

/// Kafka's field rules, for every Kafka type: what derived structs call for each
/// field. Not a public API (reached through `kwire::__private_<version>`).
///
/// Implemented for every [`Wire`] type and for nothing else, without `Wire` as a
/// supertrait: a field type that is not a Kafka type then fails the one bound of
/// the one impl, the same at every use, and rustc reports it once, in [`Wire`]'s
/// words.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Kafka type",
    label = "no Kafka type is written as `{Self}`",
    note = "Kafka's types are written bool, i8, i16, u16, i32, u32, i64, f64, Uuid, KafkaString or String, Bytes, Records, Vec<T> or SmallVec<[T; N]>, and Option<T> where the field is nullable",
    note = "a nested struct derives `kwire::Struct`"
)]
pub trait FieldRules: Sized {
    /// The field's Kafka type.
    const FIELD_TYPE: TypeSchema;
    /// True when the field's Rust type is an `Option`.
    const FIELD_IS_OPTION: bool;

    /// The value of the field when it has no `default` attribute.
    fn schema_default_value() -> Self;

    /// True when the field holds `default()`.
    fn is_default_value(&self, default: fn() -> Self) -> bool
    where
        Self: PartialEq;

    /// True when the field holds [`schema_default_value`](FieldRules::schema_default_value).
    fn is_schema_default_value(&self) -> bool
    where
        Self: PartialEq;

    /// Size of a field the version has in the body, in the context `cx` of its
    /// value. The struct names the field in an error.
    fn size_field(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError>;

    /// Writes a field the version has in the body.
    fn write_field(&self, w: &mut Writer, cx: Cx, sizes: &mut Sizes) -> Result<(), EncodeError>;

    /// Reads a field the version has in the body into `self`. The struct names
    /// the field in an error.
    fn read_field(&mut self, reader: &mut Reader<'_>, cx: Cx) -> Result<(), DecodeError>;

    /// The heap bytes the field's value holds ([`Wire::retained_size`]). Named
    /// through this trait, as the other passes are, so that a field of a type
    /// that is not a Kafka type is reported once, not again for this call.
    fn retained_field(&self) -> usize;

    /// Strict encoding's pass over an ignorable field: fails when this version
    /// lacks the field and its value is not the default (which Kafka's rule drops),
    /// and looks inside a value the version has. A plain function for the default,
    /// not a closure: strict encoding is not the hot path, and one copy per type
    /// is cheaper to compile than one per field.
    fn strict_ignorable(
        &self,
        field: &'static FieldSchema,
        cx: Cx,
        is_default: fn(&Self) -> bool,
    ) -> Result<(), EncodeError>;

    /// Strict encoding's pass over a field that is not ignorable: looks inside a
    /// value the version has. A value the version lacks is sizing's to refuse.
    fn strict_nested(&self, field: &'static FieldSchema, cx: Cx) -> Result<(), EncodeError>;

    /// Sizes a tagged field, `tag`, into its struct's section: `present` when the
    /// version has the field tagged and it does not hold its default.
    fn size_tagged(
        &self,
        section: &mut TaggedSize,
        tag: u32,
        present: bool,
        cx: Cx,
        sizes: &mut Sizes,
    ) -> Result<(), EncodeError>;

    /// Writes a tagged field's entry if sizing found it present.
    fn write_tagged(
        &self,
        section: &mut TaggedWriter<'_>,
        w: &mut Writer,
        tag: u32,
        cx: Cx,
        sizes: &mut Sizes,
    ) -> Result<(), EncodeError>;

    /// Reads a known tagged field at a version that has it tagged; `true` says the
    /// tag was this field's.
    fn read_tagged(
        &mut self,
        reader: &mut Reader<'_>,
        field: &'static FieldSchema,
        cx: Cx,
    ) -> Result<bool, DecodeError>;
}

impl<T: Wire> FieldRules for T {
    const FIELD_TYPE: TypeSchema = <T as Wire>::TYPE;
    const FIELD_IS_OPTION: bool = <T as Wire>::IS_OPTION;

    #[inline(always)]
    fn schema_default_value() -> Self {
        Self::schema_default()
    }

    #[inline(always)]
    fn is_default_value(&self, default: fn() -> Self) -> bool
    where
        Self: PartialEq,
    {
        *self == default()
    }

    #[inline(always)]
    fn is_schema_default_value(&self) -> bool
    where
        Self: PartialEq,
    {
        self.is_schema_default()
    }

    #[inline(always)]
    fn size_field(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError> {
        self.size(cx, sizes)
    }

    #[inline(always)]
    fn write_field(&self, w: &mut Writer, cx: Cx, sizes: &mut Sizes) -> Result<(), EncodeError> {
        self.write(w, cx, sizes)
    }

    #[inline(always)]
    fn read_field(&mut self, reader: &mut Reader<'_>, cx: Cx) -> Result<(), DecodeError> {
        self.read_in_place(reader, cx)
    }

    #[inline(always)]
    fn retained_field(&self) -> usize {
        self.retained_size()
    }

    #[inline(always)]
    fn strict_ignorable(
        &self,
        field: &'static FieldSchema,
        cx: Cx,
        is_default: fn(&Self) -> bool,
    ) -> Result<(), EncodeError> {
        if presence::drops_value(field, cx.version, || is_default(self)) {
            return Err(dropped(field, cx.version));
        }
        self.strict_nested(field, cx)
    }

    #[inline(always)]
    fn strict_nested(&self, field: &'static FieldSchema, cx: Cx) -> Result<(), EncodeError> {
        if !field.versions.contains(cx.version) {
            return Ok(());
        }
        self.check_lossless(field.value_cx(cx))
            .map_err(|e| e.within(field.name))
    }

    #[inline(always)]
    fn size_tagged(
        &self,
        section: &mut TaggedSize,
        tag: u32,
        present: bool,
        cx: Cx,
        sizes: &mut Sizes,
    ) -> Result<(), EncodeError> {
        section.field(tag, present, self, cx, sizes)
    }

    #[inline(always)]
    fn write_tagged(
        &self,
        section: &mut TaggedWriter<'_>,
        w: &mut Writer,
        tag: u32,
        cx: Cx,
        sizes: &mut Sizes,
    ) -> Result<(), EncodeError> {
        section.field(w, tag, self, cx, sizes)
    }

    #[inline(always)]
    fn read_tagged(
        &mut self,
        reader: &mut Reader<'_>,
        field: &'static FieldSchema,
        cx: Cx,
    ) -> Result<bool, DecodeError> {
        match self.read_in_place(reader, cx) {
            Ok(()) => Ok(true),
            Err(e) => Err(decode_error_in(e, field)),
        }
    }
}

/// Kafka's refusal of a field that is neither ignorable nor holding its default,
/// at a version that lacks it ("Attempted to write a non-default ... at version");
/// the struct names the field.
#[cold]
#[inline(never)]
pub fn absent(version: i16) -> EncodeError {
    EncodeError::new(EncodeErrorKind::FieldNotInVersion { version })
}

/// Kafka's refusal of a known tag read at a version where its field is not tagged
/// ("Tag N is not valid for version V").
#[cold]
#[inline(never)]
pub fn tag_not_in_version(
    reader: &Reader<'_>,
    field: &'static FieldSchema,
    version: i16,
) -> DecodeError {
    reader
        .error(DecodeErrorKind::TagNotInVersion {
            tag: field.tag.unwrap_or_default(),
            version,
        })
        .within(field.name)
}

/// An error from inside a field's value, with the field named. Out of line and
/// not generic: a struct has one exit for every field's error, this call.
#[cold]
#[inline(never)]
pub fn encode_error_in(error: EncodeError, field: &'static FieldSchema) -> EncodeError {
    error.within(field.name)
}

/// The same for decoding.
#[cold]
#[inline(never)]
pub fn decode_error_in(error: DecodeError, field: &'static FieldSchema) -> DecodeError {
    error.within(field.name)
}

/// The strict rule's refusal at `field`.
#[cold]
#[inline(never)]
fn dropped(field: &FieldSchema, version: i16) -> EncodeError {
    EncodeError::new(EncodeErrorKind::IgnorableFieldDropped { version }).within(field.name)
}
