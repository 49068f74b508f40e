//! The wire rules, applied while walking a schema: the one place the tests' own
//! encoder knows how Kafka lays a message out.

use kwire::schema::{FieldSchema, MessageSchema, StructSchema, TypeSchema};
use kwire::wire::varint::put_unsigned_varint;

use super::{Choices, Defaults};

pub(super) fn message(schema: &MessageSchema, version: i16, choices: &mut impl Choices) -> Vec<u8> {
    let mut out = Vec::new();
    Walker::new(version, schema.is_flexible(version), choices).structure(&mut out, &schema.body);
    out
}

/// How a classic (non-compact) length is written: strings use int16, the rest int32.
#[derive(Clone, Copy)]
enum Classic {
    Int16,
    Int32,
}

/// A length or count prefix; `None` is null.
fn prefix(out: &mut Vec<u8>, len: Option<usize>, compact: bool, classic: Classic) {
    match (compact, classic) {
        (true, _) => put_unsigned_varint(out, len.map_or(0, |n| n as u32 + 1)),
        (false, Classic::Int16) => out.extend(len.map_or(-1, |n| n as i16).to_be_bytes()),
        (false, Classic::Int32) => out.extend(len.map_or(-1, |n| n as i32).to_be_bytes()),
    }
}

struct Walker<'c, C> {
    version: i16,
    /// Whether the message is flexible at `version`; fields may override it for
    /// their own length prefixes.
    flexible: bool,
    depth: u32,
    choices: &'c mut C,
}

impl<'c, C: Choices> Walker<'c, C> {
    fn new(version: i16, flexible: bool, choices: &'c mut C) -> Self {
        Walker {
            version,
            flexible,
            depth: 0,
            choices,
        }
    }

    fn structure(&mut self, out: &mut Vec<u8>, schema: &StructSchema) {
        let mut tagged: Vec<(u32, Vec<u8>)> = Vec::new();
        for field in schema.fields {
            if !field.versions.contains(self.version) {
                continue;
            }
            if !field.is_tagged_at(self.version) {
                self.field(out, field);
            } else if let Some(value) = self.tagged_value(field) {
                tagged.push((field.tag.unwrap_or_default(), value));
            }
        }
        if !self.flexible {
            return;
        }
        tagged.sort_by_key(|(tag, _)| *tag);
        if schema.keeps_unknown_tags {
            // The derive checks that a struct's tags are exactly `0..count`.
            let known = schema.fields.iter().filter(|f| f.tag.is_some()).count();
            tagged.extend(self.choices.unknown_tagged(known as u32));
        }
        put_unsigned_varint(out, tagged.len() as u32);
        for (tag, value) in tagged {
            put_unsigned_varint(out, tag);
            put_unsigned_varint(out, value.len() as u32);
            out.extend(value);
        }
    }

    /// The bytes of a tagged field, or `None` when it is left out: by choice, or
    /// because it holds its default, which the runtime never writes.
    fn tagged_value(&mut self, field: &FieldSchema) -> Option<Vec<u8>> {
        if !self.choices.writes_tagged(field) {
            return None;
        }
        let mut value = Vec::new();
        self.field(&mut value, field);
        let mut default = Vec::new();
        Walker::new(self.version, self.flexible, &mut Defaults).field(&mut default, field);
        (value != default).then_some(value)
    }

    fn field(&mut self, out: &mut Vec<u8>, field: &FieldSchema) {
        let compact = field.is_compact_at(self.version, self.flexible);
        let nullable = field.nullable_versions.contains(self.version);
        if nullable && self.choices.is_null(field) {
            match field.ty {
                TypeSchema::String => prefix(out, None, compact, Classic::Int16),
                TypeSchema::Struct(_) => out.push(0xff),
                _ => prefix(out, None, compact, Classic::Int32),
            }
            return;
        }
        if nullable && matches!(field.ty, TypeSchema::Struct(_)) {
            out.push(1);
        }
        self.value(out, &field.ty, field, compact);
    }

    /// A present value of type `ty`: `field`'s own, or one element of its array.
    fn value(&mut self, out: &mut Vec<u8>, ty: &TypeSchema, field: &FieldSchema, compact: bool) {
        match ty {
            TypeSchema::Int8 => self.integer(out, field, 1),
            TypeSchema::Int16 | TypeSchema::Uint16 => self.integer(out, field, 2),
            TypeSchema::Int32 | TypeSchema::Uint32 => self.integer(out, field, 4),
            TypeSchema::Int64 => self.integer(out, field, 8),
            TypeSchema::Bool => out.push(u8::from(self.choices.bool(field))),
            TypeSchema::Float64 => out.extend(self.choices.float(field).to_be_bytes()),
            TypeSchema::Uuid => out.extend(self.choices.uuid(field)),
            TypeSchema::String => {
                let text = self.choices.string(field);
                prefix(out, Some(text.len()), compact, Classic::Int16);
                out.extend(text);
            }
            TypeSchema::Bytes | TypeSchema::Records => {
                let data = self.choices.bytes(field);
                prefix(out, Some(data.len()), compact, Classic::Int32);
                out.extend(data);
            }
            TypeSchema::Array(element) => {
                let count = self.choices.array_len(field, self.depth);
                prefix(out, Some(count), compact, Classic::Int32);
                self.depth += 1;
                for _ in 0..count {
                    self.value(out, element, field, compact);
                }
                self.depth -= 1;
            }
            TypeSchema::Struct(schema) => {
                self.depth += 1;
                self.structure(out, schema);
                self.depth -= 1;
            }
            other => panic!("the schema writer does not know the type {other}"),
        }
    }

    /// An integer `width` bytes wide, big-endian: the low bytes of the choice.
    fn integer(&mut self, out: &mut Vec<u8>, field: &FieldSchema, width: usize) {
        let bytes = self.choices.integer(field).to_be_bytes();
        out.extend_from_slice(&bytes[bytes.len() - width..]);
    }
}
