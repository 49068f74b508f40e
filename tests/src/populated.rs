//! Encodings of fully populated messages, built from schema metadata alone.
//!
//! For a message and a version this writes the bytes of a value in which every field
//! the version has holds a non-default value and every array holds one element, by
//! walking the runtime schema, independently of the derived code. Decoding those
//! bytes with the derived struct and encoding the result again must give them back:
//! that proves every field survives the round trip at that version.

use kafka_wire::schema::{FieldSchema, MessageSchema, StructSchema, TypeSchema};
use kafka_wire::wire::varint::put_unsigned_varint;

/// Whether nullable fields get a value or null.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nulls {
    /// Every nullable field holds a value.
    Filled,
    /// Every field that may be null at this version is null.
    Null,
}

/// The body of `schema` at `version`, every field populated.
pub fn populated(schema: &MessageSchema, version: i16, nulls: Nulls) -> Vec<u8> {
    let mut out = Vec::new();
    let writer = Writer {
        version,
        flexible: schema.is_flexible(version),
        nulls,
    };
    writer.structure(&mut out, &schema.body);
    out
}

struct Writer {
    version: i16,
    flexible: bool,
    nulls: Nulls,
}

/// A small number that differs from the field's default.
fn number(field: &FieldSchema) -> i64 {
    let default = field.default.and_then(parse_int).unwrap_or(0);
    if default == 42 {
        43
    } else {
        42
    }
}

fn parse_int(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let value = match digits.strip_prefix("0x") {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None => digits.parse().ok()?,
    };
    Some(if negative { -value } else { value })
}

impl Writer {
    fn length(&self, out: &mut Vec<u8>, len: Option<usize>, compact: bool, int16: bool) {
        if compact {
            put_unsigned_varint(out, len.map_or(0, |n| n as u32 + 1));
        } else if int16 {
            out.extend_from_slice(&len.map_or(-1i16, |n| n as i16).to_be_bytes());
        } else {
            out.extend_from_slice(&len.map_or(-1i32, |n| n as i32).to_be_bytes());
        }
    }

    fn structure(&self, out: &mut Vec<u8>, schema: &StructSchema) {
        let mut tagged: Vec<(u32, Vec<u8>)> = Vec::new();
        for field in schema.fields {
            if !field.versions.contains(self.version) {
                continue;
            }
            if field.is_tagged_at(self.version) {
                // A tagged field at its default is not written; null is the only
                // default this writer can produce (in `Nulls::Null`).
                let null_here =
                    self.nulls == Nulls::Null && field.nullable_versions.contains(self.version);
                if null_here && field.default == Some("null") {
                    continue;
                }
                let mut value = Vec::new();
                self.field(&mut value, field);
                tagged.push((field.tag.unwrap_or_default(), value));
            } else {
                self.field(out, field);
            }
        }
        if self.flexible {
            tagged.sort_by_key(|(tag, _)| *tag);
            put_unsigned_varint(out, tagged.len() as u32);
            for (tag, value) in tagged {
                put_unsigned_varint(out, tag);
                put_unsigned_varint(out, value.len() as u32);
                out.extend_from_slice(&value);
            }
        }
    }

    fn field(&self, out: &mut Vec<u8>, field: &FieldSchema) {
        let compact = field.is_compact_at(self.version, self.flexible);
        let nullable = field.nullable_versions.contains(self.version);
        if nullable && self.nulls == Nulls::Null {
            match field.ty {
                TypeSchema::String => self.length(out, None, compact, true),
                TypeSchema::Struct(_) => out.push(0xff),
                _ => self.length(out, None, compact, false),
            }
            return;
        }
        if nullable && matches!(field.ty, TypeSchema::Struct(_)) {
            out.push(1);
        }
        self.value(out, &field.ty, field, compact);
    }

    fn value(&self, out: &mut Vec<u8>, ty: &TypeSchema, field: &FieldSchema, compact: bool) {
        let n = number(field);
        match ty {
            TypeSchema::Bool => out.push(u8::from(field.default != Some("true"))),
            TypeSchema::Int8 => out.push(n as u8),
            TypeSchema::Int16 => out.extend_from_slice(&(n as i16).to_be_bytes()),
            TypeSchema::Uint16 => out.extend_from_slice(&(n as u16).to_be_bytes()),
            TypeSchema::Int32 => out.extend_from_slice(&(n as i32).to_be_bytes()),
            TypeSchema::Uint32 => out.extend_from_slice(&(n as u32).to_be_bytes()),
            TypeSchema::Int64 => out.extend_from_slice(&n.to_be_bytes()),
            TypeSchema::Float64 => out.extend_from_slice(&(n as f64 + 0.5).to_be_bytes()),
            TypeSchema::Uuid => out.extend((1..=16).map(|b| b as u8)),
            TypeSchema::String => {
                let text = field.name.as_bytes();
                self.length(out, Some(text.len()), compact, true);
                out.extend_from_slice(text);
            }
            TypeSchema::Bytes | TypeSchema::Records => {
                self.length(out, Some(3), compact, false);
                out.extend_from_slice(&[1, 2, 3]);
            }
            TypeSchema::Array(element) => {
                self.length(out, Some(1), compact, false);
                self.value(out, element, field, compact);
            }
            TypeSchema::Struct(schema) => self.structure(out, schema),
        }
    }
}
