//! Fully populated values: every field differs from its default, so a round trip
//! that loses or mangles any field shows.

use kwire::schema::FieldSchema;

use super::{Choices, Defaults};

/// Whether nullable fields get a value or null.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nulls {
    /// Every nullable field holds a value.
    Filled,
    /// Every field that may be null at this version is null.
    Null,
}

/// Every field a non-default value, every tagged field written, every array one
/// element long, and nullable fields as [`Nulls`] says. Deterministic.
#[derive(Debug, Clone, Copy)]
pub struct Populated {
    /// Whether nullable fields are null.
    pub nulls: Nulls,
}

impl Choices for Populated {
    fn is_null(&mut self, _: &FieldSchema) -> bool {
        self.nulls == Nulls::Null
    }

    fn writes_tagged(&mut self, _: &FieldSchema) -> bool {
        true
    }

    fn array_len(&mut self, _: &FieldSchema, _: u32) -> usize {
        1
    }

    fn bool(&mut self, field: &FieldSchema) -> bool {
        !Defaults.bool(field)
    }

    /// A small number that differs from the field's default.
    fn integer(&mut self, field: &FieldSchema) -> i64 {
        if Defaults::integer_of(field) == 42 {
            43
        } else {
            42
        }
    }

    fn float(&mut self, field: &FieldSchema) -> f64 {
        self.integer(field) as f64 + 0.5
    }

    fn uuid(&mut self, _: &FieldSchema) -> [u8; 16] {
        std::array::from_fn(|i| i as u8 + 1)
    }

    /// The field's name, which no schema uses as a default.
    fn string(&mut self, field: &FieldSchema) -> Vec<u8> {
        field.name.as_bytes().to_vec()
    }

    fn bytes(&mut self, _: &FieldSchema) -> Vec<u8> {
        vec![1, 2, 3]
    }
}
