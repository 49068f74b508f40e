//! Kafka's JSON schemas as plain data: one [`SchemaMessage`] per file, fields as
//! written (ranges and defaults stay text until compared), unknown keys kept aside.

use std::fmt;
use std::path::{Path, PathBuf};

use jsonc_parser::JsonValue;

use crate::json::{parse, Keys};

/// One schema file: a request, response, header or data structure.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaMessage {
    /// The file it came from.
    pub file: PathBuf,
    /// `name`, e.g. `FetchRequest`.
    pub name: String,
    /// `type`: `request`, `response`, `header` or `data`.
    pub kind: String,
    /// `apiKey`.
    pub api_key: Option<i64>,
    /// `validVersions`, as written.
    pub valid_versions: String,
    /// `flexibleVersions`, as written; absent means none.
    pub flexible_versions: Option<String>,
    /// `listeners`; absent means none.
    pub listeners: Vec<String>,
    /// `latestVersionUnstable`.
    pub latest_version_unstable: bool,
    /// `fields`, in order.
    pub fields: Vec<SchemaField>,
    /// `commonStructs`: structs any field of the file may name as its type.
    pub common_structs: Vec<SchemaStruct>,
    /// Top-level keys this reader does not know.
    pub unknown_keys: Vec<String>,
}

impl SchemaMessage {
    /// True for retired APIs, whose `validVersions` is `"none"`.
    pub fn is_retired(&self) -> bool {
        self.valid_versions.trim() == "none"
    }

    /// The commonStruct called `name`.
    pub fn common_struct(&self, name: &str) -> Option<&SchemaStruct> {
        self.common_structs.iter().find(|s| s.name == name)
    }
}

/// A struct listed in `commonStructs`.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaStruct {
    /// Its type name.
    pub name: String,
    /// Its `versions` (informational: runtime structs carry none).
    pub versions: Option<String>,
    /// Its fields.
    pub fields: Vec<SchemaField>,
    /// Keys this reader does not know.
    pub unknown_keys: Vec<String>,
}

/// A field's `default`, as the JSON spells it.
#[derive(Debug, Clone, PartialEq)]
pub enum SchemaDefault {
    /// A JSON string: `"-1"`, `"null"`, `"0x7fffffff"`, `"text"`.
    Text(String),
    /// A JSON number, with its digits as written.
    Number(String),
    /// A JSON boolean.
    Bool(bool),
}

impl SchemaDefault {
    /// The default as text, the form runtime schemas keep it in.
    pub fn to_text(&self) -> String {
        match self {
            SchemaDefault::Text(t) => t.clone(),
            SchemaDefault::Number(n) => n.clone(),
            SchemaDefault::Bool(b) => b.to_string(),
        }
    }
}

impl fmt::Display for SchemaDefault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaDefault::Text(t) => write!(f, "{t:?}"),
            SchemaDefault::Number(n) => f.write_str(n),
            SchemaDefault::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// One entry of a `fields` list.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaField {
    /// `name`.
    pub name: String,
    /// `type`, e.g. `int32`, `[]string`, `[]FetchTopic`, `LeaderIdAndEpoch`.
    pub ty: String,
    /// `versions`, as written (required by Kafka; absent is reported when compared).
    pub versions: Option<String>,
    /// `nullableVersions`; absent means none.
    pub nullable_versions: Option<String>,
    /// `taggedVersions`; absent means none.
    pub tagged_versions: Option<String>,
    /// `tag`.
    pub tag: Option<i64>,
    /// `ignorable`.
    pub ignorable: bool,
    /// `default`; absent means the type's zero value.
    pub default: Option<SchemaDefault>,
    /// `flexibleVersions`, the field-level override; absent means inherited
    /// (which differs from `"none"`).
    pub flexible_versions: Option<String>,
    /// `mapKey`.
    pub map_key: bool,
    /// `entityType`.
    pub entity_type: Option<String>,
    /// `zeroCopy`.
    pub zero_copy: bool,
    /// `about`.
    pub about: String,
    /// `fields` of an inline struct type; empty for other types and for references
    /// to a commonStruct.
    pub fields: Vec<SchemaField>,
    /// Keys this reader does not know.
    pub unknown_keys: Vec<String>,
}

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
