//! Walking a message's runtime schema over its bytes: every run of bytes reported
//! with the field it belongs to and what it holds, for tools that annotate bytes
//! (`kwire dissect` is one).
//!
//! The walk reads as the derived decoder reads, through the same rules: where a
//! field is at a version and how it is coded ([`FieldSchema::is_in_body_at`](crate::schema::FieldSchema::is_in_body_at),
//! [`FieldSchema::value_cx`](crate::schema::FieldSchema::value_cx)), length prefixes and where null is allowed, Kafka's
//! string limit and UTF-8, the array count bound, nullable struct markers, the
//! tagged section's order, sizes and unknown tags, and the values themselves through
//! each type's [`Wire`] impl. So it stops where decoding stops, with the same
//! [`DecodeError`] (kind, byte and path), and reports nothing decoding would not
//! read.
//!
//! ```
//! use kwire::walk::{self, Item, Span, Step, Value};
//! use kwire::{KafkaString, Message, Reader};
//!
//! /// Names a thing.
//! #[derive(Debug, Clone, PartialEq, kwire::Message)]
//! #[kafka(kind = data, versions = "0")]
//! struct Named {
//!     /// The name.
//!     #[kafka(versions = "0+")]
//!     name: KafkaString,
//! }
//!
//! let bytes = Named { name: "hi".into() }.encode(0)?;
//! let mut spans = Vec::new();
//! walk::walk(&Named::SCHEMA, 0, &mut Reader::new(&bytes), &mut |span: Span<'_>| {
//!     let field = span.field().map_or("", |f| f.name);
//!     spans.push((span.bytes, field, span.item));
//! })?;
//! assert_eq!(spans, [
//!     (0..2, "Name", Item::Length(2)),
//!     (2..4, "Name", Item::Value(Value::String("hi".into()))),
//! ]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod span;

use std::ops::Range;

use bytes::Bytes;

pub use span::{Item, Span, Step, Value, Visitor};

use crate::schema::{MessageSchema, StructSchema, TypeSchema};
use crate::wire::length::{self, Classic};
use crate::wire::tagged::TaggedEntries;
use crate::wire::{array, nullable, string};
use crate::{Cx, DecodeError, Reader, Uuid, Wire};

/// Walks a whole message at `version` from the reader's position, reporting each
/// run of bytes to `visitor`, and leaves the reader after the message (as
/// [`Message::read_from`](crate::Message::read_from) does).
///
/// Fails where decoding the message fails, with the same error; the spans reported
/// until then are the bytes read until then.
pub fn walk(
    schema: &MessageSchema,
    version: i16,
    reader: &mut Reader<'_>,
    visitor: &mut dyn Visitor,
) -> Result<(), DecodeError> {
    crate::message::check_version(schema, reader, version)?;
    let cx = Cx::new(version, schema.is_flexible(version));
    let mut walk = Walk {
        visitor,
        path: Vec::new(),
    };
    walk.structure(reader, &schema.body, cx)
        .map_err(|e| e.within(schema.name))
}

struct Walk<'v> {
    visitor: &'v mut dyn Visitor,
    path: Vec<Step>,
}

impl Walk<'_> {
    fn emit(&mut self, bytes: Range<usize>, item: Item) {
        self.visitor.visit(Span {
            bytes,
            path: &self.path,
            item,
        });
    }

    /// Runs `walk` one step further in, the step taken off again whatever happens.
    fn within<T>(&mut self, step: Step, walk: impl FnOnce(&mut Self) -> T) -> T {
        self.path.push(step);
        let walked = walk(self);
        self.path.pop();
        walked
    }

    /// A struct's body fields in order, then (flexible) its tagged section.
    fn structure(
        &mut self,
        reader: &mut Reader<'_>,
        schema: &StructSchema,
        cx: Cx,
    ) -> Result<(), DecodeError> {
        for field in schema.fields {
            if !field.is_in_body_at(cx.version) {
                continue;
            }
            self.within(Step::Field(field), |walk| {
                walk.value(reader, &field.ty, field.value_cx(cx))
            })
            .map_err(|e| e.within(field.name))?;
        }
        if cx.flexible {
            self.tagged_section(reader, schema, cx)?;
        }
        Ok(())
    }

    fn value(
        &mut self,
        reader: &mut Reader<'_>,
        ty: &'static TypeSchema,
        cx: Cx,
    ) -> Result<(), DecodeError> {
        let start = reader.position();
        let value = match ty {
            TypeSchema::Bool => Value::Bool(Wire::read(reader, cx)?),
            TypeSchema::Int8 => Value::Int8(Wire::read(reader, cx)?),
            TypeSchema::Int16 => Value::Int16(Wire::read(reader, cx)?),
            TypeSchema::Uint16 => Value::Uint16(Wire::read(reader, cx)?),
            TypeSchema::Int32 => Value::Int32(Wire::read(reader, cx)?),
            TypeSchema::Uint32 => Value::Uint32(Wire::read(reader, cx)?),
            TypeSchema::Int64 => Value::Int64(Wire::read(reader, cx)?),
            TypeSchema::Float64 => Value::Float64(Wire::read(reader, cx)?),
            TypeSchema::Uuid => Value::Uuid(Uuid::read(reader, cx)?),
            TypeSchema::String => return self.string(reader, cx),
            TypeSchema::Bytes => return self.bytes(reader, cx, Value::Bytes),
            TypeSchema::Records => return self.bytes(reader, cx, Value::Records),
            TypeSchema::Array(element) => return self.array(reader, element, cx),
            TypeSchema::Struct(schema) => return self.nested(reader, schema, cx),
        };
        self.emit(start..reader.position(), Item::Value(value));
        Ok(())
    }

    fn string(&mut self, reader: &mut Reader<'_>, cx: Cx) -> Result<(), DecodeError> {
        let start = reader.position();
        let Some(len) = string::read_string_len(reader, cx)? else {
            self.emit(start..reader.position(), Item::Null);
            return Ok(());
        };
        if len > 0 {
            self.emit(start..reader.position(), Item::Length(len));
        }
        let content = if len > 0 { reader.position() } else { start };
        let text = string::read_string_content(reader, len)?;
        self.emit(content..reader.position(), Item::Value(Value::String(text)));
        Ok(())
    }

    /// Bytes or records: the length, then the bytes, as their decoder reads them.
    fn bytes(
        &mut self,
        reader: &mut Reader<'_>,
        cx: Cx,
        value: fn(Bytes) -> Value,
    ) -> Result<(), DecodeError> {
        let start = reader.position();
        let Some(len) = length::read_value_len(reader, cx, Classic::Int32)? else {
            self.emit(start..reader.position(), Item::Null);
            return Ok(());
        };
        let at = reader.position();
        reader.budget().check_bytes_len(len, at)?;
        if len > 0 {
            self.emit(start..reader.position(), Item::Length(len));
        }
        let content = if len > 0 { reader.position() } else { start };
        let bytes = reader.read_bytes(len)?;
        self.emit(content..reader.position(), Item::Value(value(bytes)));
        Ok(())
    }

    fn array(
        &mut self,
        reader: &mut Reader<'_>,
        element: &'static TypeSchema,
        cx: Cx,
    ) -> Result<(), DecodeError> {
        let start = reader.position();
        let Some(count) = array::read_schema_count(reader, cx, element)? else {
            self.emit(start..reader.position(), Item::Null);
            return Ok(());
        };
        self.emit(start..reader.position(), Item::Count(count));
        let cx = cx.with_nullable(false);
        for index in 0..count {
            self.within(Step::Index(index), |walk| walk.value(reader, element, cx))
                .map_err(|e| e.at_index(index))?;
        }
        Ok(())
    }

    fn nested(
        &mut self,
        reader: &mut Reader<'_>,
        schema: &'static StructSchema,
        cx: Cx,
    ) -> Result<(), DecodeError> {
        if cx.nullable {
            let start = reader.position();
            let present = nullable::read_struct_marker(reader)?;
            let item = if present { Item::Present } else { Item::Null };
            self.emit(start..reader.position(), item);
            if !present {
                return Ok(());
            }
        }
        self.structure(reader, schema, cx)
    }

    fn tagged_section(
        &mut self,
        reader: &mut Reader<'_>,
        schema: &StructSchema,
        cx: Cx,
    ) -> Result<(), DecodeError> {
        let start = reader.position();
        let mut entries = TaggedEntries::begin(reader)?;
        self.emit(start..reader.position(), Item::TaggedFields(entries.left()));
        while let Some(entry) = entries.next(reader)? {
            let field = schema.fields.iter().find(|f| f.tag == Some(entry.tag));
            self.emit(entry.at..entry.value_at, Item::tag(&entry, field));
            let Some(field) = field else {
                if !schema.keeps_unknown_tags {
                    return Err(entry.not_kept(reader));
                }
                let data = reader.read_bytes(entry.size)?;
                let item = Item::UnknownTag {
                    tag: entry.tag,
                    data,
                };
                self.emit(entry.value_at..reader.position(), item);
                continue;
            };
            let ((), used) = reader.limited(entry.size, |reader| {
                field
                    .check_tagged_at(reader, cx.version)
                    .and_then(|()| {
                        self.within(Step::Field(field), |walk| {
                            walk.value(reader, &field.ty, field.value_cx(cx))
                        })
                    })
                    .map_err(|e| e.within(field.name))
            })?;
            entry.check_used(used)?;
        }
        Ok(())
    }
}
