//! Support shared by the workspace's integration tests, benches and tools: where
//! Kafka's official data lives, and the [`checker`] that compares the structs with it.
//!
//! The schemas and byte vectors are not ours and never copied into the repo; tests
//! read them from `KAFKA_SCHEMA_DIR` / `KAFKA_VECTORS_DIR` / `KAFKA_HISTORY_DIR`,
//! defaulting to `../shared/kafka/{schemas,vectors,history}` beside the workspace
//! root.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod checker;
pub mod child;
pub mod codecs;
pub mod kafka_peer;
mod outcome;
pub mod probes;
pub mod scaffold;
pub mod schema_sets;
pub mod schema_writer;
pub mod temp;
pub mod vectors;

use std::path::PathBuf;

/// The workspace root (the folder holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}

fn data_dir(variable: &str, default: &str) -> PathBuf {
    let dir = std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            workspace_root()
                .join("..")
                .join("shared")
                .join("kafka")
                .join(default)
        });
    assert!(
        dir.is_dir(),
        "Kafka's {default} are missing: looked in {} (set {variable} to their folder; \
         they come from Apache Kafka's clients/src/main/resources/common/message)",
        dir.display()
    );
    dir
}

/// The folder of Kafka's JSON message schemas; fails the test with a clear message
/// when it is missing.
pub fn schema_dir() -> PathBuf {
    data_dir("KAFKA_SCHEMA_DIR", "schemas")
}

/// The folder of older schema sets (`history/<set>/`), for the tests of schema
/// evolution; fails the test clearly when missing.
pub fn history_dir() -> PathBuf {
    data_dir("KAFKA_HISTORY_DIR", "history")
}

/// The folder of Kafka-authored byte vectors; fails the test clearly when missing.
pub fn vectors_dir() -> PathBuf {
    data_dir("KAFKA_VECTORS_DIR", "vectors")
}

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../../README.md")]
pub mod readme {}
