//! The schema defaults: what a field holds when nothing was said about it.

use kwire::schema::{FieldSchema, TypeSchema};

use super::Choices;

/// Every field at its schema default, as the derived `Default` sets it: the
/// attribute's `default`, else zero, false or empty (null only for records).
///
/// The writer compares a tagged field's bytes with these to leave out a field that
/// holds its default, as the runtime does.
#[derive(Debug, Clone, Copy, Default)]
pub struct Defaults;

impl Defaults {
    /// The integer a field's `default` spells (`-1`, `0x7fffffff`), or 0.
    pub fn integer_of(field: &FieldSchema) -> i64 {
        field.default.and_then(parse_integer).unwrap_or(0)
    }
}

fn parse_integer(text: &str) -> Option<i64> {
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

impl Choices for Defaults {
    fn is_null(&mut self, field: &FieldSchema) -> bool {
        match field.default {
            Some(text) => text == "null",
            None => matches!(field.ty, TypeSchema::Records),
        }
    }

    fn writes_tagged(&mut self, _: &FieldSchema) -> bool {
        false
    }

    fn array_len(&mut self, _: &FieldSchema, _: u32) -> usize {
        0
    }

    fn bool(&mut self, field: &FieldSchema) -> bool {
        field.default == Some("true")
    }

    fn integer(&mut self, field: &FieldSchema) -> i64 {
        Defaults::integer_of(field)
    }

    fn float(&mut self, field: &FieldSchema) -> f64 {
        field
            .default
            .and_then(|text| text.parse().ok())
            .unwrap_or(0.0)
    }

    fn uuid(&mut self, _: &FieldSchema) -> [u8; 16] {
        [0; 16]
    }

    fn string(&mut self, field: &FieldSchema) -> Vec<u8> {
        field.default.unwrap_or_default().as_bytes().to_vec()
    }

    fn bytes(&mut self, _: &FieldSchema) -> Vec<u8> {
        Vec::new()
    }
}
