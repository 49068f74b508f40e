//! The schema walker (`kwire::walk`, what `kwire dissect` shows) and the derived
//! decoder agree on every input, for every message in the registry at every
//! version: where decoding succeeds the walk succeeds and accounts for every byte
//! once, in order; where decoding fails the walk fails with the same error (kind,
//! byte and field path). Inputs are random valid encodings written from the
//! runtime schema, then mutations of them.

use bytes::Bytes;
use kwire::walk::{self, Span};
use kwire::{DecodeError, Reader};
use kwire_tests::codecs::{every_version, Case, RecodeError};
use kwire_tests::schema_writer::{write, Nulls, Populated, Random};
use proptest::prelude::*;
use proptest::sample::Index;

fn cases() -> &'static [Case] {
    every_version()
}

/// The walk of a whole body, as `Message::decode` reads one: every byte must belong
/// to the message. Returns the byte ranges of the spans, in the order reported.
fn walk_body(case: &Case, input: &Bytes) -> Result<Vec<std::ops::Range<usize>>, DecodeError> {
    let mut ranges = Vec::new();
    let mut reader = Reader::new(input);
    let schema = case.message.schema;
    walk::walk(schema, case.version, &mut reader, &mut |span: Span<'_>| {
        ranges.push(span.bytes)
    })?;
    reader.expect_end().map_err(|e| e.within(schema.name))?;
    Ok(ranges)
}

/// Checks the walk against the decoder on `input`; `Err` says how they differ.
fn agree(case: &Case, input: &[u8]) -> Result<(), String> {
    let name = case.message.schema.name;
    let version = case.version;
    let input = Bytes::copy_from_slice(input);
    let walked = walk_body(case, &input);
    match ((case.message.recode)(&input, version), walked) {
        (Err(RecodeError::Decode(decoded)), Err(walked)) if decoded == walked => Ok(()),
        (Err(RecodeError::Decode(decoded)), Err(walked)) => Err(format!(
            "{name} v{version} {input:02x?}: decode says `{decoded}`, the walk `{walked}`"
        )),
        (Err(RecodeError::Decode(decoded)), Ok(_)) => Err(format!(
            "{name} v{version} {input:02x?}: decode says `{decoded}`, the walk succeeds"
        )),
        (_, Err(walked)) => Err(format!(
            "{name} v{version} {input:02x?}: decoding succeeds, the walk says `{walked}`"
        )),
        (_, Ok(ranges)) => covers_every_byte_once(&ranges, input.len())
            .map_err(|gap| format!("{name} v{version} {input:02x?}: {gap}")),
    }
}

/// The spans follow each other without a gap or an overlap, from the first byte to
/// the last.
fn covers_every_byte_once(ranges: &[std::ops::Range<usize>], len: usize) -> Result<(), String> {
    let mut next = 0;
    for range in ranges {
        if range.start != next || range.end < range.start {
            return Err(format!("span {range:?} after byte {next}: {ranges:?}"));
        }
        next = range.end;
    }
    if next != len {
        return Err(format!("the spans end at byte {next} of {len}: {ranges:?}"));
    }
    Ok(())
}

#[test]
fn valid_encodings_walk_to_their_last_byte() {
    assert!(cases().len() > 500, "the registry lists every message");
    for case in cases() {
        for seed in 0..4 {
            let input = write(case.message.schema, case.version, &mut Random::seeded(seed));
            agree(case, &input).unwrap();
            assert!(
                walk_body(case, &Bytes::from(input)).is_ok(),
                "a valid encoding walks"
            );
        }
    }
}

#[test]
fn every_truncation_stops_the_walk_where_decoding_stops() {
    for case in cases() {
        let input = write(case.message.schema, case.version, &mut Random::seeded(7));
        for len in 0..input.len() {
            agree(case, &input[..len]).unwrap();
        }
    }
}

/// Every field set (tagged ones included), then each byte in turn changed by one
/// both ways: every length, count, tag, size and marker gets to lie once.
#[test]
fn every_byte_of_a_populated_encoding_changed_walks_as_it_decodes() {
    for case in cases() {
        for nulls in [Nulls::Filled, Nulls::Null] {
            let input = write(case.message.schema, case.version, &mut Populated { nulls });
            for at in 0..input.len() {
                for delta in [1, 255] {
                    let mut changed = input.clone();
                    changed[at] = changed[at].wrapping_add(delta);
                    agree(case, &changed).unwrap();
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn mutated_encodings_walk_as_they_decode(
        case in any::<Index>(),
        seed in 0..16_u64,
        edits in prop::collection::vec((any::<Index>(), any::<u8>(), 0..3_u8), 1..4),
    ) {
        let case = case.get(cases());
        let mut input = write(case.message.schema, case.version, &mut Random::seeded(seed));
        for (at, byte, how) in &edits {
            match how {
                0 if !input.is_empty() => {
                    let at = at.index(input.len());
                    input[at] = *byte;
                }
                1 => {
                    let at = at.index(input.len() + 1);
                    input.insert(at, *byte);
                }
                _ if !input.is_empty() => {
                    let at = at.index(input.len());
                    input.remove(at);
                }
                _ => {}
            }
        }
        if let Err(disagreement) = agree(case, &input) {
            prop_assert!(false, "{}", disagreement);
        }
    }
}
