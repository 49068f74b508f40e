//! A schema as plain data: one [`SchemaMessage`] per file, fields as written (ranges
//! and defaults stay text until compared). Kept apart from the reader so that the
//! writer, and crates that only write, need no JSON parser.

use std::fmt;
use std::path::PathBuf;

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
