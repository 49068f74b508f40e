//! No input makes decoding (or re-encoding what was decoded) panic, for every message
//! in the registry at every version it has.
//!
//! Inputs come from random valid encodings written straight from each message's
//! runtime schema (so messages added to the registry are covered without touching
//! this file), then from truncations and mutations of those, and from arbitrary
//! bytes. Valid encodings must also decode and encode back byte for byte (the writer,
//! like the runtime, leaves out tagged fields holding their default); strict
//! prefixes of them must fail.

use bytes::Bytes;
use kwire_tests::codecs::{codecs, every_version, Case};
use kwire_tests::schema_writer::{write, Random};
use proptest::prelude::*;
use proptest::sample::Index;

/// What these tests do with a message at one of its versions.
trait CaseExt {
    fn name(&self) -> &'static str;
    /// A random valid encoding, named by `seed`.
    fn random(&self, seed: u64) -> Vec<u8>;
    fn recode(&self, input: &[u8]) -> Option<Bytes>;
}

impl CaseExt for Case {
    fn name(&self) -> &'static str {
        self.message.schema.name
    }

    fn random(&self, seed: u64) -> Vec<u8> {
        write(self.message.schema, self.version, &mut Random::seeded(seed))
    }

    fn recode(&self, input: &[u8]) -> Option<Bytes> {
        (self.message.recode)(&Bytes::copy_from_slice(input), self.version).ok()
    }
}

/// Every registered message at every valid version.
fn cases() -> &'static [Case] {
    every_version()
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
            let input = case.random(seed);
            let output = case.recode(&input).unwrap_or_else(|| {
                let err = (case.message.recode)(&Bytes::from(input.clone()), case.version);
                panic!(
                    "{} v{} seed {seed}: valid input {input:02x?} did not recode: {err:?}",
                    case.name(),
                    case.version
                )
            });
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

/// Inputs the fuzzer (`fuzz/run`) once reported, kept so the finding stays fixed:
/// message, version, body in hex, and what it found.
const FUZZ_FINDINGS: &[(&str, i16, &str, &str)] = &[(
    "AlterClientQuotasRequest",
    1,
    "02020b456e7469747954797065000002044b6579ffffff03000000000100000100",
    "a NaN quota value: the check compared values with `==`, and NaN is not equal to \
     itself, though its bytes round-trip exactly",
)];

#[test]
fn fuzz_findings_stay_fixed() {
    for &(name, version, hex, found) in FUZZ_FINDINGS {
        let codec = codecs()
            .iter()
            .find(|codec| codec.schema.name == name)
            .unwrap_or_else(|| panic!("no message {name}"));
        let body = Bytes::from(hex_bytes(hex));
        assert!(
            (codec.recode)(&body, version).is_ok(),
            "{name} v{version}: the finding ({found}) no longer decodes, so it tests nothing"
        );
        if let Err(broken) = (codec.check_decoded)(&body, version) {
            panic!("{name} v{version} ({found}): {broken}");
        }
    }
}

fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
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
            let input = case.random(seed);
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
        let mut input = case.random(seed);
        for mutation in &mutations {
            mutation.apply(&mut input);
        }
        // Errors are fine; a panic, or a decoded value that does not survive
        // encoding and decoding again, fails the test with the input shrunk.
        let checked = (case.message.check_decoded)(&Bytes::from(input), case.version);
        if let Err(broken) = checked {
            prop_assert!(false, "{}", broken);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(
        case in any::<Index>(),
        input in prop::collection::vec(any::<u8>(), 0..96),
    ) {
        let case = case.get(cases());
        let checked = (case.message.check_decoded)(&Bytes::from(input), case.version);
        if let Err(broken) = checked {
            prop_assert!(false, "{}", broken);
        }
    }
}
