//! The extremes of every type, drawn from a seed: what a codec written against
//! the common case gets wrong.

use kwire::schema::{FieldSchema, TypeSchema};

use super::{Choices, Random};

/// Kafka's longest string, in bytes (its length is an int16).
pub const LONGEST_STRING: usize = 32767;

/// How long the one long array of an encoding is.
const LONG_ARRAY: usize = 300;

/// Values at the edges, from a seed: integers at their type's minimum and maximum
/// (and 0, -1, or any bit pattern), floats at NaN, the infinities, -0.0 and the
/// subnormals, all-zero and all-ones UUIDs, empty strings, strings of multi-byte
/// UTF-8 and, at most once per encoding, one of 32767 bytes; empty arrays and, at
/// most once per encoding, a long one at the top level; half the tagged fields
/// written, some nullable fields null, some unknown tags.
#[derive(Debug, Clone)]
pub struct Edges {
    random: Random,
    long_string_left: bool,
    long_array_left: bool,
}

impl Edges {
    /// The generator for `seed`.
    pub fn seeded(seed: u64) -> Self {
        Edges {
            random: Random::seeded(seed),
            long_string_left: true,
            long_array_left: true,
        }
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.random.below(from.len() as u64) as usize]
    }
}

/// The type of the values a field holds: an array's element type.
fn scalar(ty: &TypeSchema) -> &TypeSchema {
    match ty {
        TypeSchema::Array(element) => scalar(element),
        other => other,
    }
}

impl Choices for Edges {
    fn is_null(&mut self, _: &FieldSchema) -> bool {
        self.random.below(100) < 30
    }

    fn writes_tagged(&mut self, _: &FieldSchema) -> bool {
        self.random.below(2) == 1
    }

    fn unknown_tagged(&mut self, known: u32) -> Vec<(u32, Vec<u8>)> {
        self.random.unknown_tagged(known)
    }

    fn array_len(&mut self, _: &FieldSchema, depth: u32) -> usize {
        if depth == 0 && self.long_array_left && self.random.below(8) == 0 {
            self.long_array_left = false;
            return LONG_ARRAY;
        }
        match depth {
            0..=1 => self.pick(&[0, 1, 2, 3]),
            _ => self.pick(&[0, 1]),
        }
    }

    fn bool(&mut self, _: &FieldSchema) -> bool {
        self.random.below(2) == 1
    }

    /// The writer keeps the low bytes, so each width's own extremes are drawn.
    fn integer(&mut self, field: &FieldSchema) -> i64 {
        let (min, max) = match scalar(&field.ty) {
            TypeSchema::Int8 => (i8::MIN.into(), i8::MAX.into()),
            TypeSchema::Int16 => (i16::MIN.into(), i16::MAX.into()),
            TypeSchema::Uint16 => (0, u16::MAX.into()),
            TypeSchema::Int32 => (i32::MIN.into(), i32::MAX.into()),
            TypeSchema::Uint32 => (0, u32::MAX.into()),
            _ => (i64::MIN, i64::MAX),
        };
        match self.random.below(6) {
            0 => min,
            1 => max,
            2 => 0,
            3 => -1,
            _ => self.random.next() as i64,
        }
    }

    fn float(&mut self, _: &FieldSchema) -> f64 {
        match self.random.below(10) {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => -0.0,
            4 => f64::MIN_POSITIVE,
            5 => f64::from_bits(1),
            6 => f64::MAX,
            7 => f64::MIN,
            // Finite and normal: random exponent and mantissa.
            _ => f64::from_bits(self.random.next() & !(0x7ff << 52) | (0x3ff << 52)),
        }
    }

    fn uuid(&mut self, _: &FieldSchema) -> [u8; 16] {
        match self.random.below(4) {
            0 => [0; 16],
            1 => [0xff; 16],
            _ => self.random.uuid_bytes(),
        }
    }

    fn string(&mut self, _: &FieldSchema) -> Vec<u8> {
        if self.long_string_left && self.random.below(16) == 0 {
            self.long_string_left = false;
            // Two- and three-byte characters end on a character boundary only
            // where the byte count allows: filled with 'x' to exactly 32767.
            let mut text = "é日".repeat(LONGEST_STRING / 5).into_bytes();
            text.resize(LONGEST_STRING, b'x');
            return text;
        }
        match self.random.below(4) {
            0 => Vec::new(),
            1 => "ü€𝄞 \"\\\t\n\u{0}".as_bytes().to_vec(),
            _ => self.random.string_bytes(),
        }
    }

    fn bytes(&mut self, _: &FieldSchema) -> Vec<u8> {
        match self.random.below(4) {
            0 => Vec::new(),
            1 => self.random.bytes_below(400),
            _ => self.random.bytes_below(12),
        }
    }
}
