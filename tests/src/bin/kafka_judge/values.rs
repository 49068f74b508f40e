//! The encodings each message-version is judged on, written from our runtime
//! schema alone (`kwire_tests::schema_writer`), so that neither side's encoder
//! made them.

use kwire::schema::MessageSchema;
use kwire_tests::schema_writer::{self, Defaults, Edges, Nulls, Populated, Random};

/// One encoding and how it was made, to name it in a report.
pub struct Encoding {
    /// `populated`, `nulls`, `defaults`, `edges#N`, `random#N`.
    pub label: String,
    /// The message body.
    pub bytes: Vec<u8>,
}

/// Writes one encoding of a message at a version.
type Writer = fn(&MessageSchema, i16) -> Vec<u8>;

/// `count` encodings of `schema` at `version`: every field set, every nullable
/// field null, the schema defaults, then extremes and random values in turn,
/// each drawn from a seed made of `seed`, the message, the version and its
/// position, so that a run restricted to one message gets the same encodings.
pub fn encodings(schema: &MessageSchema, version: i16, count: usize, seed: u64) -> Vec<Encoding> {
    let mut out = Vec::with_capacity(count);
    let fixed: [(&str, Writer); 3] = [
        ("populated", |s, v| {
            schema_writer::write(
                s,
                v,
                &mut Populated {
                    nulls: Nulls::Filled,
                },
            )
        }),
        ("nulls", |s, v| {
            schema_writer::write(s, v, &mut Populated { nulls: Nulls::Null })
        }),
        ("defaults", |s, v| schema_writer::write(s, v, &mut Defaults)),
    ];
    for (label, write) in fixed.into_iter().take(count) {
        out.push(Encoding {
            label: label.to_string(),
            bytes: write(schema, version),
        });
    }
    for i in out.len()..count {
        let seed = seed_of(seed, schema.name, version, i);
        out.push(if i % 2 == 0 {
            Encoding {
                label: format!("edges#{i}"),
                bytes: schema_writer::write(schema, version, &mut Edges::seeded(seed)),
            }
        } else {
            Encoding {
                label: format!("random#{i}"),
                bytes: schema_writer::write(schema, version, &mut Random::seeded(seed)),
            }
        });
    }
    out
}

/// FNV-1a over the parts: stable across runs and platforms.
fn seed_of(seed: u64, name: &str, version: i16, index: usize) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let parts = [
        &seed.to_le_bytes()[..],
        name.as_bytes(),
        &version.to_le_bytes(),
        &(index as u64).to_le_bytes(),
    ];
    for byte in parts.into_iter().flatten() {
        hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
