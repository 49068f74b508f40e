//! Where a command's input comes from: `-` for stdin, a file, or the argument
//! itself (hex for bytes, JSON text for `encode`).

use std::io::Read;
use std::path::Path;

use bytes::Bytes;

use crate::error::CliError;
use crate::hex;

/// The bytes an argument names.
///
/// `-` reads stdin and an existing file is read whole; either may hold hex text
/// (whitespace and `0x` allowed, as the captured frames in `tests/fixtures/` are
/// stored) or raw bytes, told apart by whether the content reads as hex. Anything
/// else must be hex itself.
pub fn bytes(argument: &str) -> Result<Bytes, CliError> {
    let content = if argument == "-" {
        read_stdin()?
    } else if Path::new(argument).is_file() {
        read_file(argument)?
    } else {
        return hex::parse(argument)
            .map(Bytes::from)
            .map_err(|e| not_hex(argument, &e));
    };
    // Raw bytes of a frame or body start with bytes that are not hex text (a length
    // prefix or an API key begins with 0x00), so they are not mistaken for hex.
    let as_hex = std::str::from_utf8(&content)
        .ok()
        .and_then(|text| hex::parse(text).ok());
    Ok(as_hex.map_or_else(|| Bytes::from(content), Bytes::from))
}

/// The JSON value an argument names: JSON text itself (it starts with `{`), `-`
/// for stdin, or a file.
pub fn json(argument: &str) -> Result<serde_json::Value, CliError> {
    let text = if argument == "-" {
        read_stdin()?
    } else if argument.trim_start().starts_with(['{', '[']) {
        argument.as_bytes().to_vec()
    } else if Path::new(argument).is_file() {
        read_file(argument)?
    } else {
        return Err(CliError::new(format!(
            "{argument:?} is neither JSON text nor a file"
        )));
    };
    serde_json::from_slice(&text).map_err(|e| CliError::new(format!("bad JSON: {e}")))
}

fn read_stdin() -> Result<Vec<u8>, CliError> {
    let mut content = Vec::new();
    std::io::stdin()
        .read_to_end(&mut content)
        .map_err(|e| CliError::new(format!("cannot read stdin: {e}")))?;
    Ok(content)
}

fn read_file(path: &str) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|e| CliError::new(format!("cannot read {path}: {e}")))
}

/// Says why an argument that is not a file is not hex either. A long argument is
/// cut short: the message stays one readable line.
fn not_hex(argument: &str, error: &hex::HexError) -> CliError {
    let shown: String = argument.chars().take(40).collect();
    let ellipsis = if shown.len() < argument.len() {
        "…"
    } else {
        ""
    };
    CliError::new(format!(
        "{shown:?}{ellipsis} is neither a file nor hex ({error})"
    ))
}
