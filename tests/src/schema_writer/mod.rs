//! Encodings of messages written from their runtime schema alone, independently of
//! the derived code, so tests can feed the decoders bytes the derive never produced.
//!
//! [`write()`] walks a [`MessageSchema`] and applies the wire rules (which fields a
//! version has, body or tagged placement, compact or classic prefixes, struct presence
//! markers, the tagged section in tag order without fields holding their default).
//! What goes in each open place (null or not, how many elements, which bytes) is a
//! [`Choices`]: [`Populated`] sets every field to a non-default value, [`Random`]
//! draws everything from a seed, [`Edges`] draws each type's extremes from a seed,
//! and [`Defaults`] writes the schema defaults.

mod defaults;
mod edges;
mod populated;
mod random;
mod walk;

use kwire::schema::{FieldSchema, MessageSchema};

pub use defaults::Defaults;
pub use edges::Edges;
pub use populated::{Nulls, Populated};
pub use random::Random;

/// The body of `schema` at `version`, with every open value taken from `choices`.
pub fn write(schema: &MessageSchema, version: i16, choices: &mut impl Choices) -> Vec<u8> {
    walk::message(schema, version, choices)
}

/// The values of an encoding: everything the schema leaves open.
///
/// The writer asks only what the version needs (`is_null` only where the field may be
/// null, `writes_tagged` only for fields tagged at this version) and turns each answer
/// into bytes, so an implementation cannot break the wire format.
pub trait Choices {
    /// Whether `field`, which may be null at this version, is null.
    fn is_null(&mut self, field: &FieldSchema) -> bool;

    /// Whether `field`, tagged at this version, gets a value (one equal to its default
    /// is left out all the same, as the runtime leaves it out).
    fn writes_tagged(&mut self, field: &FieldSchema) -> bool;

    /// Tagged entries no field declares, for a struct whose own tags are `0..known`:
    /// `(tag, value)` in ascending tag order, every tag at least `known`. None unless
    /// an implementation says otherwise.
    fn unknown_tagged(&mut self, known: u32) -> Vec<(u32, Vec<u8>)> {
        let _ = known;
        Vec::new()
    }

    /// How many elements the array in `field` holds, `depth` structs and arrays down
    /// from the message (so nesting can be kept small).
    fn array_len(&mut self, field: &FieldSchema, depth: u32) -> usize;

    /// The value of a `bool` field.
    fn bool(&mut self, field: &FieldSchema) -> bool;

    /// The value of an integer field, of any width: the writer keeps as many low
    /// bytes as the type has.
    fn integer(&mut self, field: &FieldSchema) -> i64;

    /// The value of a `float64` field.
    fn float(&mut self, field: &FieldSchema) -> f64;

    /// The value of a `uuid` field.
    fn uuid(&mut self, field: &FieldSchema) -> [u8; 16];

    /// The UTF-8 of a `string` field (or of one element of a `[]string`).
    fn string(&mut self, field: &FieldSchema) -> Vec<u8>;

    /// The content of a `bytes` or `records` field.
    fn bytes(&mut self, field: &FieldSchema) -> Vec<u8>;
}
