//! What the walker reports: runs of bytes, each with where in the message it is
//! and what it holds.

use std::fmt;
use std::ops::Range;

use bytes::Bytes;

use crate::schema::FieldSchema;
use crate::wire::tagged::TaggedEntry;
use crate::{KafkaString, Uuid};

/// Receives the spans of a walk, in the order of their bytes.
///
/// Implemented for any `FnMut(Span<'_>)`.
pub trait Visitor {
    /// One run of bytes and what it is.
    fn visit(&mut self, span: Span<'_>);
}

impl<F: FnMut(Span<'_>)> Visitor for F {
    fn visit(&mut self, span: Span<'_>) {
        self(span)
    }
}

/// One step of a span's path from the message inwards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    /// A field, with its schema.
    Field(&'static FieldSchema),
    /// The position of an element in the array of the step before it.
    Index(usize),
}

/// A run of bytes of the input and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Span<'a> {
    /// Where the bytes are in the reader's input.
    pub bytes: Range<usize>,
    /// Where in the message: empty for the message's own tagged section, otherwise
    /// the fields (and array positions) from the outside in.
    pub path: &'a [Step],
    /// What the bytes are.
    pub item: Item,
}

impl Span<'_> {
    /// The innermost field on the path, the one the bytes belong to (for an array
    /// element, the array's field).
    pub fn field(&self) -> Option<&'static FieldSchema> {
        self.path.iter().rev().find_map(|step| match step {
            Step::Field(field) => Some(*field),
            Step::Index(_) => None,
        })
    }
}

/// What a run of bytes is.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Item {
    /// A value: the whole encoding of a number, bool or uuid; the content of a
    /// string, bytes or records; or, when that content is empty, its length prefix.
    Value(Value),
    /// A null string, bytes, records or array (its length prefix), or struct (its
    /// marker).
    Null,
    /// The length prefix of a string, bytes or records whose content follows.
    Length(usize),
    /// The count of an array whose elements follow.
    Count(usize),
    /// The marker of a nullable struct that is there.
    Present,
    /// The entry count of a struct's tagged section.
    TaggedFields(u32),
    /// A tagged field's tag and size, `field` when the struct knows the tag.
    Tag {
        /// The tag.
        tag: u32,
        /// The size of its value, in bytes.
        size: usize,
        /// The field it is, if the struct has one with this tag.
        field: Option<&'static FieldSchema>,
    },
    /// The value of a tag the struct does not know, kept as it is.
    UnknownTag {
        /// The tag.
        tag: u32,
        /// Its bytes.
        data: Bytes,
    },
}

impl Item {
    pub(crate) fn tag(entry: &TaggedEntry, field: Option<&'static FieldSchema>) -> Self {
        Item::Tag {
            tag: entry.tag,
            size: entry.size,
            field,
        }
    }
}

/// A decoded value, as the schema types it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// `bool`
    Bool(bool),
    /// `int8`
    Int8(i8),
    /// `int16`
    Int16(i16),
    /// `uint16`
    Uint16(u16),
    /// `int32`
    Int32(i32),
    /// `uint32`
    Uint32(u32),
    /// `int64`
    Int64(i64),
    /// `float64`
    Float64(f64),
    /// `uuid`
    Uuid(Uuid),
    /// `string`, a slice of the input.
    String(KafkaString),
    /// `bytes`, a slice of the input.
    Bytes(Bytes),
    /// `records`, a slice of the input (see [`records`](crate::records) to read
    /// its batches).
    Records(Bytes),
}

impl fmt::Display for Value {
    /// Numbers as numbers, strings quoted, bytes and records by their length.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(v) => write!(f, "{v}"),
            Value::Int8(v) => write!(f, "{v}"),
            Value::Int16(v) => write!(f, "{v}"),
            Value::Uint16(v) => write!(f, "{v}"),
            Value::Int32(v) => write!(f, "{v}"),
            Value::Uint32(v) => write!(f, "{v}"),
            Value::Int64(v) => write!(f, "{v}"),
            Value::Float64(v) => write!(f, "{v}"),
            Value::Uuid(v) => write!(f, "{v}"),
            Value::String(v) => write!(f, "{:?}", v.as_str()),
            Value::Bytes(v) | Value::Records(v) if v.len() == 1 => f.write_str("1 byte"),
            Value::Bytes(v) | Value::Records(v) => write!(f, "{} bytes", v.len()),
        }
    }
}
