//! Prints a first draft of a message file for Kafka schemas.
//!
//! `cargo run -p kwire-tests --bin scaffold -- FetchRequest FetchResponse`
//! reads `<name>.json` from `KAFKA_SCHEMA_DIR` and prints one Rust module holding
//! all the named messages; redirect it into `messages/src/<api>.rs`, then `cargo fmt`.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use kwire_tests::checker::load::load_file;

fn main() -> ExitCode {
    let names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        eprintln!("usage: scaffold <SchemaName>... (e.g. FetchRequest FetchResponse)");
        return ExitCode::from(2);
    }
    let dir = kwire_tests::schema_dir();
    let mut messages = Vec::new();
    for name in &names {
        let file = dir.join(format!("{}.json", name.trim_end_matches(".json")));
        match load_file(&file) {
            Ok(message) => messages.push(message),
            Err(e) => {
                eprintln!("{e} ({})", file.display());
                return ExitCode::FAILURE;
            }
        }
    }
    print!("{}", kwire_tests::scaffold::render(&messages));
    ExitCode::SUCCESS
}
