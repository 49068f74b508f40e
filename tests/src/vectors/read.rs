//! Reading a folder of byte vectors: `<Message>/v<N>.json`, each holding
//! `{ "vectors": [ { "name", "message", "version", "hex", ... } ] }`.

use std::path::{Path, PathBuf};

use jsonc_parser::JsonValue;

use crate::checker::json::{parse, Keys};

/// One vector: a message body at a version, as Kafka's own code wrote it.
#[derive(Debug, Clone, PartialEq)]
pub struct Vector {
    /// The folder's message name.
    pub message: String,
    /// The version from the file name (`v3.json` → 3).
    pub version: i16,
    /// The vector's `name`.
    pub name: String,
    /// The bytes of `hex`.
    pub bytes: Vec<u8>,
    /// `json_value`: the same message in Kafka's JSON form, when the vector has it.
    pub json: Option<serde_json::Value>,
}

/// A vector file, read or failed.
#[derive(Debug)]
pub struct VectorFile {
    /// The file.
    pub path: PathBuf,
    /// The message folder's name.
    pub message: String,
    /// Its vectors, or why it could not be read (a broken vector fails the whole file
    /// loudly rather than being skipped).
    pub vectors: Result<Vec<Vector>, String>,
}

/// Every `<Message>/v<N>.json` under `dir`, by message name and then version.
pub fn vector_files(dir: &Path) -> std::io::Result<Vec<VectorFile>> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut files = Vec::new();
    for folder in folders {
        let message = folder
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let mut versions: Vec<(i16, PathBuf)> = std::fs::read_dir(&folder)?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter_map(|p| version_of(&p).map(|v| (v, p)))
            .collect();
        versions.sort();
        for (version, path) in versions {
            let vectors = std::fs::read_to_string(&path)
                .map_err(|e| e.to_string())
                .and_then(|text| vectors(&text, &message, version));
            files.push(VectorFile {
                path,
                message: message.clone(),
                vectors,
            });
        }
    }
    Ok(files)
}

/// `v12.json` → 12.
fn version_of(path: &Path) -> Option<i16> {
    let name = path.file_name()?.to_str()?;
    name.strip_prefix('v')?.strip_suffix(".json")?.parse().ok()
}

fn vectors(text: &str, message: &str, version: i16) -> Result<Vec<Vector>, String> {
    let mut file = Keys::of(parse(text)?, "the file")?;
    file.array("vectors")?
        .into_iter()
        .enumerate()
        .map(|(index, value)| {
            vector(value, message, version).map_err(|e| format!("vector {index}: {e}"))
        })
        .collect()
}

fn vector(value: JsonValue<'_>, message: &str, version: i16) -> Result<Vector, String> {
    let mut keys = Keys::of(value, "the vector")?;
    let name = keys.string("name")?.ok_or("no `name`")?;
    let place = |e: String| format!("{name}: {e}");
    if let Some(claimed) = keys.string("message").map_err(place)? {
        if claimed != message {
            return Err(place(format!("message {claimed} in the {message} folder")));
        }
    }
    if let Some(claimed) = keys.integer("version").map_err(place)? {
        if claimed != i64::from(version) {
            return Err(place(format!("version {claimed} in the v{version} file")));
        }
    }
    let hex = keys
        .string("hex")
        .map_err(place)?
        .ok_or_else(|| place("no `hex`".into()))?;
    let bytes = decode_hex(&hex).map_err(place)?;
    let json = keys
        .take("json_value")
        .map(to_serde)
        .transpose()
        .map_err(place)?;
    Ok(Vector {
        message: message.to_owned(),
        version,
        name,
        bytes,
        json,
    })
}

/// A parsed value as `serde_json` holds it; numbers are re-read from their text, so
/// an int64 keeps every digit.
fn to_serde(value: JsonValue<'_>) -> Result<serde_json::Value, String> {
    use serde_json::Value;
    Ok(match value {
        JsonValue::Null => Value::Null,
        JsonValue::Boolean(b) => Value::Bool(b),
        JsonValue::String(s) => Value::String(s.into_owned()),
        JsonValue::Number(text) => {
            Value::Number(serde_json::from_str(text).map_err(|e| format!("number {text}: {e}"))?)
        }
        JsonValue::Array(items) => {
            Value::Array(items.into_iter().map(to_serde).collect::<Result<_, _>>()?)
        }
        JsonValue::Object(object) => Value::Object(
            object
                .into_iter()
                .map(|(key, value)| Ok((key.into_owned(), to_serde(value)?)))
                .collect::<Result<_, String>>()?,
        ),
    })
}

/// Lower- or upper-case hex digits, two per byte.
pub fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits ({})", hex.len()));
    }
    hex.as_bytes()
        .chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|digits| u8::from_str_radix(digits, 16).ok())
                .ok_or_else(|| format!("`{}` is not hex", String::from_utf8_lossy(pair)))
        })
        .collect()
}

/// Lower-case hex.
pub fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
