//! Reading Kafka's JSON schemas into plain data: one [`SchemaMessage`] per file,
//! fields as written (ranges and defaults stay text until compared), unknown keys
//! kept aside.

use std::fmt;
use std::path::{Path, PathBuf};

use jsonc_parser::JsonValue;

use crate::json::{parse, Keys};
// The data types live in `model`, which needs no parser; named here too so that
// `read::SchemaMessage` keeps meaning what it did.
pub use crate::model::{SchemaDefault, SchemaField, SchemaMessage, SchemaStruct};

/// Why a schema file could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadError {
    /// The file.
    pub file: PathBuf,
    /// What was wrong, with the place inside the file.
    pub reason: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.file.file_name().unwrap_or_default().to_string_lossy();
        write!(f, "{name}: cannot read schema: {}", self.reason)
    }
}

/// Every `*.json` file of `dir`, sorted by file name, each read or failed.
pub fn load_dir(dir: &Path) -> Result<Vec<Result<SchemaMessage, LoadError>>, LoadError> {
    let listing = std::fs::read_dir(dir).map_err(|e| LoadError {
        file: dir.to_path_buf(),
        reason: e.to_string(),
    })?;
    let mut files: Vec<PathBuf> = listing
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
        .collect();
    files.sort();
    Ok(files.iter().map(|f| load_file(f)).collect())
}

/// Reads one schema file.
pub fn load_file(file: &Path) -> Result<SchemaMessage, LoadError> {
    let fail = |reason: String| LoadError {
        file: file.to_path_buf(),
        reason,
    };
    let text = std::fs::read_to_string(file).map_err(|e| fail(e.to_string()))?;
    let value = parse(&text).map_err(&fail)?;
    message(value, file).map_err(fail)
}

/// Reads one schema from its text; `file` only names it.
pub fn load_text(text: &str, file: &Path) -> Result<SchemaMessage, LoadError> {
    let fail = |reason: String| LoadError {
        file: file.to_path_buf(),
        reason,
    };
    let value = parse(text).map_err(&fail)?;
    message(value, file).map_err(fail)
}

fn message(value: JsonValue<'_>, file: &Path) -> Result<SchemaMessage, String> {
    let mut keys = Keys::of(value, "the file")?;
    let name = keys.string("name")?.ok_or("no `name`")?;
    let kind = keys.string("type")?.ok_or("no `type`")?;
    let valid_versions = keys.string("validVersions")?.ok_or("no `validVersions`")?;
    let api_key = keys.integer("apiKey")?;
    let flexible_versions = keys.string("flexibleVersions")?;
    let listeners = keys.strings("listeners")?.unwrap_or_default();
    let latest_version_unstable = keys.flag("latestVersionUnstable")?;
    let fields = fields(keys.array("fields")?, &name)?;
    let common_structs = keys
        .array("commonStructs")?
        .into_iter()
        .map(common_struct)
        .collect::<Result<_, _>>()?;
    Ok(SchemaMessage {
        file: file.to_path_buf(),
        name,
        kind,
        api_key,
        valid_versions,
        flexible_versions,
        listeners,
        latest_version_unstable,
        fields,
        common_structs,
        unknown_keys: keys.rest(),
    })
}

fn common_struct(value: JsonValue<'_>) -> Result<SchemaStruct, String> {
    let mut keys = Keys::of(value, "a commonStructs entry")?;
    let name = keys
        .string("name")?
        .ok_or("a commonStructs entry has no `name`")?;
    let versions = keys.string("versions")?;
    let fields = fields(keys.array("fields")?, &name)?;
    Ok(SchemaStruct {
        name,
        versions,
        fields,
        unknown_keys: keys.rest(),
    })
}

fn fields(values: Vec<JsonValue<'_>>, parent: &str) -> Result<Vec<SchemaField>, String> {
    values
        .into_iter()
        .enumerate()
        .map(|(index, value)| field(value, parent, index))
        .collect()
}

fn field(value: JsonValue<'_>, parent: &str, index: usize) -> Result<SchemaField, String> {
    let mut keys = Keys::of(value, &format!("field {index} of {parent}"))?;
    let name = keys
        .string("name")?
        .ok_or_else(|| format!("field {index} of {parent} has no `name`"))?;
    let place = |e: String| format!("{parent}.{name}: {e}");
    let ty = keys
        .string("type")
        .map_err(place)?
        .ok_or_else(|| place("no `type`".into()))?;
    let default = match keys.take("default") {
        None => None,
        Some(JsonValue::String(s)) => Some(SchemaDefault::Text(s.into_owned())),
        Some(JsonValue::Number(n)) => Some(SchemaDefault::Number(n.to_owned())),
        Some(JsonValue::Boolean(b)) => Some(SchemaDefault::Bool(b)),
        Some(_) => return Err(place("`default` is not a string, number or boolean".into())),
    };
    let own = |keys: &mut Keys<'_>| -> Result<SchemaField, String> {
        Ok(SchemaField {
            name: name.clone(),
            ty: ty.clone(),
            versions: keys.string("versions")?,
            nullable_versions: keys.string("nullableVersions")?,
            tagged_versions: keys.string("taggedVersions")?,
            tag: keys.integer("tag")?,
            ignorable: keys.flag("ignorable")?,
            default: default.clone(),
            flexible_versions: keys.string("flexibleVersions")?,
            map_key: keys.flag("mapKey")?,
            entity_type: keys.string("entityType")?,
            zero_copy: keys.flag("zeroCopy")?,
            about: keys.string("about")?.unwrap_or_default(),
            fields: Vec::new(),
            unknown_keys: Vec::new(),
        })
    };
    let mut field = own(&mut keys).map_err(place)?;
    // Nested errors carry their own, longer place.
    let nested = keys.array("fields").map_err(place)?;
    field.fields = fields(nested, &format!("{parent}.{name}"))?;
    field.unknown_keys = keys.rest();
    Ok(field)
}
