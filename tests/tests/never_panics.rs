//! No input makes decoding (or re-encoding what was decoded) panic, for every message
//! in the registry at every version it has.
//!
//! Inputs come from a generator that writes valid encodings straight from each
//! message's runtime schema (so messages added to the registry are covered without
//! touching this file), then from truncations and mutations of those, and from
//! arbitrary bytes. Valid encodings must also decode and encode back, byte for byte
//! when nothing in them is dropped on the way (a known tagged field holding its
//! default is); strict prefixes of them must fail.

use std::sync::OnceLock;

use bytes::Bytes;
use kafka_wire::schema::{FieldSchema, MessageSchema, StructSchema, TypeSchema};
use kafka_wire::wire::varint::put_unsigned_varint;
use kafka_wire_messages::registry::{messages, Registered};
use proptest::prelude::*;
use proptest::sample::Index;

/// A message at one of its versions.
#[derive(Clone, Copy)]
struct Case {
    message: Registered,
    version: i16,
}

impl Case {
    fn name(&self) -> &'static str {
        self.message.schema.name
    }

    fn recode(&self, input: &[u8]) -> Option<Bytes> {
        (self.message.recode)(&Bytes::copy_from_slice(input), self.version).ok()
    }
}

/// Every registered message at every valid version.
fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut cases = Vec::new();
        for message in messages() {
            let range = message.schema.valid_versions;
            if let (Some(min), Some(max)) = (range.min(), range.max()) {
                cases.extend((min..=max).map(|version| Case { message, version }));
            }
        }
        cases
    })
}

/// SplitMix64: a small deterministic generator, so a seed names an encoding.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// Writes a random valid encoding of a message, following the same rules as the
/// runtime: which fields a version has, compact or classic lengths, nullability,
/// struct presence markers and tagged sections.
struct Generator {
    rng: Rng,
    version: i16,
    depth: u32,
    /// False once something was written that re-encoding may legitimately drop.
    exact: bool,
}

impl Generator {
    fn message(schema: &MessageSchema, version: i16, seed: u64) -> (Vec<u8>, bool) {
        let mut generator = Generator {
            rng: Rng(seed),
            version,
            depth: 0,
            exact: true,
        };
        let mut out = Vec::new();
        generator.body(&mut out, &schema.body, schema.is_flexible(version));
        (out, generator.exact)
    }

    fn body(&mut self, out: &mut Vec<u8>, schema: &StructSchema, flexible: bool) {
        for field in schema.fields {
            if field.versions.contains(self.version) && !field.is_tagged_at(self.version) {
                self.field(out, field, flexible);
            }
        }
        if flexible {
            self.tagged_section(out, schema);
        }
    }

    fn field(&mut self, out: &mut Vec<u8>, field: &FieldSchema, flexible: bool) {
        let compact = field.is_compact_at(self.version, flexible);
        let nullable = field.nullable_versions.contains(self.version);
        self.value(out, &field.ty, compact, nullable);
    }

    /// A length or count prefix (`None` = null).
    fn prefix(out: &mut Vec<u8>, len: Option<usize>, compact: bool, int16: bool) {
        match (compact, int16) {
            (true, _) => put_unsigned_varint(out, len.map_or(0, |n| n as u32 + 1)),
            (false, true) => out.extend(len.map_or(-1, |n| n as i16).to_be_bytes()),
            (false, false) => out.extend(len.map_or(-1, |n| n as i32).to_be_bytes()),
        }
    }

    fn value(&mut self, out: &mut Vec<u8>, ty: &TypeSchema, compact: bool, nullable: bool) {
        let null = nullable && self.rng.percent(20);
        match ty {
            TypeSchema::Bool => out.push(self.rng.below(2) as u8),
            TypeSchema::Int8 => out.extend(self.rng.bytes(1)),
            TypeSchema::Int16 | TypeSchema::Uint16 => out.extend(self.rng.bytes(2)),
            TypeSchema::Int32 | TypeSchema::Uint32 => out.extend(self.rng.bytes(4)),
            TypeSchema::Int64 | TypeSchema::Float64 => out.extend(self.rng.bytes(8)),
            TypeSchema::Uuid => out.extend(self.rng.bytes(16)),
            TypeSchema::String if null => Self::prefix(out, None, compact, true),
            TypeSchema::String => {
                let len = self.rng.below(8) as usize;
                Self::prefix(out, Some(len), compact, true);
                out.extend((0..len).map(|_| b'a' + self.rng.below(26) as u8));
            }
            TypeSchema::Bytes | TypeSchema::Records if null => {
                Self::prefix(out, None, compact, false)
            }
            TypeSchema::Bytes | TypeSchema::Records => {
                let data = {
                    let len = self.rng.below(12) as usize;
                    self.rng.bytes(len)
                };
                Self::prefix(out, Some(data.len()), compact, false);
                out.extend(data);
            }
            TypeSchema::Array(_) if null => Self::prefix(out, None, compact, false),
            TypeSchema::Array(element) => {
                let most = match self.depth {
                    0..=1 => 4,
                    2..=3 => 2,
                    _ => 1,
                };
                let count = self.rng.below(most) as usize;
                Self::prefix(out, Some(count), compact, false);
                self.depth += 1;
                for _ in 0..count {
                    self.value(out, element, compact, false);
                }
                self.depth -= 1;
            }
            TypeSchema::Struct(_) if null => out.push(0xff),
            TypeSchema::Struct(schema) => {
                if nullable {
                    out.push(1);
                }
                self.depth += 1;
                self.body(out, schema, compact);
                self.depth -= 1;
            }
        }
    }

    /// Some known tagged fields, some unknown tags above them, in tag order.
    fn tagged_section(&mut self, out: &mut Vec<u8>, schema: &StructSchema) {
        let mut known: Vec<(u32, &FieldSchema)> = schema
            .fields
            .iter()
            .filter_map(|f| f.tag.map(|tag| (tag, f)))
            .collect();
        known.sort_by_key(|(tag, _)| *tag);
        let known_tags = known.len() as u32;
        let mut entries: Vec<(u32, Vec<u8>)> = Vec::new();
        for (tag, field) in known {
            if field.is_tagged_at(self.version) && self.rng.percent(30) {
                let mut value = Vec::new();
                self.field(&mut value, field, true);
                entries.push((tag, value));
                // It may hold its default, which is not written back.
                self.exact = false;
            }
        }
        if self.rng.percent(15) {
            let mut tag = known_tags;
            for _ in 0..=self.rng.below(2) {
                tag += self.rng.below(4) as u32;
                let data = {
                    let len = self.rng.below(6) as usize;
                    self.rng.bytes(len)
                };
                entries.push((tag, data));
                tag += 1;
            }
        }
        put_unsigned_varint(out, entries.len() as u32);
        for (tag, data) in entries {
            put_unsigned_varint(out, tag);
            put_unsigned_varint(out, data.len() as u32);
            out.extend(data);
        }
    }
}

const SEEDS_PER_CASE: u64 = 6;

#[test]
fn the_registry_is_not_empty() {
    assert!(cases().len() >= 4, "no messages to test");
}

#[test]
fn valid_encodings_decode_and_encode_back() {
    for case in cases() {
        for seed in 0..SEEDS_PER_CASE {
            let (input, exact) = Generator::message(case.message.schema, case.version, seed);
            let output = case.recode(&input).unwrap_or_else(|| {
                let err = (case.message.recode)(&Bytes::from(input.clone()), case.version);
                panic!(
                    "{} v{} seed {seed}: valid input {input:02x?} did not recode: {err:?}",
                    case.name(),
                    case.version
                )
            });
            if exact {
                assert_eq!(
                    &output[..],
                    &input[..],
                    "{} v{} seed {seed}: recoded bytes differ",
                    case.name(),
                    case.version
                );
            }
        }
    }
}

/// The prefix lengths tried per encoding: all of a short one, an even spread of a
/// long one (keeps the run short once the registry holds every message).
fn prefix_lengths(len: usize) -> impl Iterator<Item = usize> {
    const MOST: usize = 48;
    let step = len.div_ceil(MOST).max(1);
    (0..len).filter(move |n| n % step == 0 || len - n <= 4)
}

#[test]
fn truncations_fail_without_panicking() {
    for case in cases() {
        for seed in 0..2 {
            let (input, _) = Generator::message(case.message.schema, case.version, seed);
            for len in prefix_lengths(input.len()) {
                assert!(
                    case.recode(&input[..len]).is_none(),
                    "{} v{}: a {len}-byte prefix of {input:02x?} decoded",
                    case.name(),
                    case.version
                );
            }
        }
    }
}

/// One edit of an encoding.
#[derive(Debug, Clone)]
enum Mutation {
    Flip(Index, u8),
    Set(Index, u8),
    /// Bytes that mean something to lengths and varints: null, sign, continuation.
    Boundary(Index, Index),
    Insert(Index, u8),
    Delete(Index),
    Truncate(Index),
}

const BOUNDARY_BYTES: [u8; 5] = [0x00, 0x7f, 0x80, 0xfe, 0xff];

impl Mutation {
    fn apply(&self, bytes: &mut Vec<u8>) {
        let at = |index: &Index, len: usize| index.index(len.max(1));
        match self {
            Mutation::Flip(i, mask) if !bytes.is_empty() => {
                let i = at(i, bytes.len());
                bytes[i] ^= mask | 1;
            }
            Mutation::Set(i, value) if !bytes.is_empty() => {
                let i = at(i, bytes.len());
                bytes[i] = *value;
            }
            Mutation::Boundary(i, which) if !bytes.is_empty() => {
                let i = at(i, bytes.len());
                bytes[i] = *which.get(&BOUNDARY_BYTES);
            }
            Mutation::Insert(i, value) => {
                let i = i.index(bytes.len() + 1);
                bytes.insert(i, *value);
            }
            Mutation::Delete(i) if !bytes.is_empty() => {
                let i = at(i, bytes.len());
                bytes.remove(i);
            }
            Mutation::Truncate(i) => {
                let len = i.index(bytes.len() + 1);
                bytes.truncate(len);
            }
            _ => {}
        }
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), any::<u8>()).prop_map(|(i, m)| Mutation::Flip(i, m)),
        (any::<Index>(), any::<u8>()).prop_map(|(i, v)| Mutation::Set(i, v)),
        (any::<Index>(), any::<Index>()).prop_map(|(i, w)| Mutation::Boundary(i, w)),
        (any::<Index>(), any::<u8>()).prop_map(|(i, v)| Mutation::Insert(i, v)),
        any::<Index>().prop_map(Mutation::Delete),
        any::<Index>().prop_map(Mutation::Truncate),
    ]
}

proptest! {
    // Each case decodes once; debug builds still run thousands in about a second.
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn mutated_encodings_never_panic(
        case in any::<Index>(),
        seed in 0..SEEDS_PER_CASE * 4,
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let case = case.get(cases());
        let (mut input, _) = Generator::message(case.message.schema, case.version, seed);
        for mutation in &mutations {
            mutation.apply(&mut input);
        }
        // Errors are fine; a panic fails the test with the input shrunk.
        let _ = case.recode(&input);
    }

    #[test]
    fn arbitrary_bytes_never_panic(
        case in any::<Index>(),
        input in prop::collection::vec(any::<u8>(), 0..96),
    ) {
        let _ = case.get(cases()).recode(&input);
    }
}
