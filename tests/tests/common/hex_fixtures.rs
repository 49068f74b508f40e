//! Fixtures kept as hex files under `tests/fixtures/` (captured from real clients;
//! each folder's README says how): read by name, in name order.

use std::fs;
use std::path::PathBuf;

use bytes::Bytes;

/// Bytes from a hex string (surrounding whitespace ignored).
pub fn unhex(hex: &str) -> Bytes {
    let hex = hex.trim();
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect::<Vec<u8>>()
        .into()
}

/// Every `*.hex` file of `tests/fixtures/<folder>`, as (file name, bytes), sorted.
pub fn load(folder: &str) -> Vec<(String, Bytes)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(folder);
    let mut all: Vec<(String, Bytes)> = fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "hex"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, unhex(&fs::read_to_string(&path).expect("read")))
        })
        .collect();
    all.sort();
    all
}
