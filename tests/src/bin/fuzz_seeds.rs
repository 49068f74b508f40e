//! Writes the fuzz target's seed corpus into a folder: a valid encoding of every
//! message at every version (every field set, and every nullable field null), and
//! every hostile-input probe at 1 MiB.
//!
//! `cargo run -p kwire-tests --bin fuzz_seeds -- target/fuzz-seeds`
//!
//! Each input is the fuzz target's: two bytes choosing the message by its position
//! in the registry, one the version (counted from the message's lowest), the body.
#![forbid(unsafe_code)]

use std::path::Path;
use std::process::ExitCode;

use kwire::schema::MessageSchema;
use kwire_tests::codecs::codecs;
use kwire_tests::probes::probes;
use kwire_tests::schema_writer::{write, Nulls, Populated};

fn input(position: usize, schema: &MessageSchema, version: i16, body: &[u8]) -> Vec<u8> {
    let lowest = schema.valid_versions.min().unwrap_or(0);
    let mut bytes = (position as u16).to_be_bytes().to_vec();
    bytes.push((version - lowest) as u8);
    bytes.extend_from_slice(body);
    bytes
}

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: fuzz_seeds <folder>");
        return ExitCode::from(2);
    };
    let dir = Path::new(&dir);
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("{}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let mut written = 0;
    let mut save = |name: String, bytes: Vec<u8>| match std::fs::write(dir.join(name), bytes) {
        Ok(()) => {
            written += 1;
            true
        }
        Err(e) => {
            eprintln!("{}: {e}", dir.display());
            false
        }
    };
    for (position, codec) in codecs().iter().enumerate() {
        let schema = codec.schema;
        let (Some(min), Some(max)) = (schema.valid_versions.min(), schema.valid_versions.max())
        else {
            continue;
        };
        for version in min..=max {
            for nulls in [Nulls::Filled, Nulls::Null] {
                let body = write(schema, version, &mut Populated { nulls });
                let name = format!("{}-v{version}-{nulls:?}", schema.name);
                if !save(name, input(position, schema, version, &body)) {
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    for (i, probe) in probes(1 << 20).into_iter().enumerate() {
        let Some(position) = codecs().iter().position(|c| c.schema.name == probe.message) else {
            eprintln!("probe of an unregistered message {}", probe.message);
            return ExitCode::FAILURE;
        };
        let name = format!("probe-{i}-{}-v{}", probe.message, probe.version);
        let schema = codecs()[position].schema;
        if !save(name, input(position, schema, probe.version, &probe.body)) {
            return ExitCode::FAILURE;
        }
    }
    println!("{written} seeds in {}", dir.display());
    ExitCode::SUCCESS
}
