//! A message's runtime schema written out as Kafka's JSON schema, so a message
//! defined in Rust can be handed to Kafka's generator, to another language's, or
//! committed as the released form of a version.
//!
//! Kafka's files name nested struct types and define each once: inline, in the one
//! field that uses it, or in `commonStructs` when several fields share it. The
//! runtime holds the structs themselves, so the export decides: a struct used by
//! more than one field anywhere in the message goes to `commonStructs`, once; a
//! struct used by one field is written inline under that field.

use std::collections::HashMap;
use std::path::PathBuf;

use thiserror::Error;

use kwire_schema::{SchemaDefault, SchemaField, SchemaMessage, SchemaStruct};

use super::{FieldSchema, MessageSchema, StructSchema};

/// Why a message cannot be written as Kafka's JSON schema.
///
/// ```
/// use kwire::schema::ExportError;
///
/// let error = ExportError::StructNameTwice { message: "Hold".into(), name: "Seat".into() };
/// assert!(error.to_string().contains("two different structs named `Seat`"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ExportError {
    /// Kafka's files name struct types by name alone, and its generator refuses a
    /// name defined twice: two different structs with one name cannot be written
    /// (rename one with `#[kafka(name = "…")]`).
    #[error(
        "`{message}` holds two different structs named `{name}`; Kafka's schema names a struct \
         type once per file, so rename one (#[kafka(name = \"…\")])"
    )]
    StructNameTwice {
        /// The message.
        message: String,
        /// The struct name used twice.
        name: String,
    },
}

/// The `versions` of a `commonStructs` entry: runtime structs carry none, and
/// Kafka's own files write `"0+"` for every one (the fields say when they exist).
const COMMON_STRUCT_VERSIONS: &str = "0+";

impl MessageSchema {
    /// The message as Kafka's JSON schema file holds it, as data.
    ///
    /// Each field's `about` is its doc comment on one line; the message's own doc
    /// comment has no key in Kafka's format and is left out. Kafka names struct
    /// types by name alone, so two different structs with one name in a message
    /// are an error ([`ExportError::StructNameTwice`]).
    ///
    /// ```
    /// use kwire::Message;
    ///
    /// /// Says hello.
    /// #[derive(Debug, Clone, PartialEq, kwire::Message)]
    /// #[kafka(kind = data, versions = "0-1")]
    /// struct Hello {
    ///     /// Who is greeted.
    ///     #[kafka(versions = "1+", default = -1)]
    ///     whom: i32,
    /// }
    ///
    /// let schema = Hello::SCHEMA.to_kafka_schema()?;
    /// assert_eq!((schema.name.as_str(), schema.valid_versions.as_str()), ("Hello", "0-1"));
    /// let field = &schema.fields[0];
    /// assert_eq!((field.name.as_str(), field.ty.as_str()), ("Whom", "int32"));
    /// assert_eq!(field.default.as_ref().map(|d| d.to_text()), Some("-1".to_owned()));
    /// # Ok::<(), kwire::schema::ExportError>(())
    /// ```
    pub fn to_kafka_schema(&self) -> Result<SchemaMessage, ExportError> {
        let mut uses = Uses::default();
        uses.count(self.body.fields);
        if let Some(name) = uses.twice {
            return Err(ExportError::StructNameTwice {
                message: self.name.to_owned(),
                name: name.to_owned(),
            });
        }
        let common = uses.common();
        Ok(SchemaMessage {
            file: PathBuf::from(format!("{}.json", self.name)),
            name: self.name.to_owned(),
            kind: self.kind.as_str().to_owned(),
            api_key: self.api_key.map(i64::from),
            valid_versions: self.valid_versions.to_string(),
            // Written even when empty ("none"): Kafka's generator asks for the key.
            flexible_versions: Some(self.flexible_versions.to_string()),
            listeners: self.listeners.iter().map(|l| (*l).to_owned()).collect(),
            latest_version_unstable: self.latest_version_unstable,
            fields: fields(self.body.fields, &common),
            common_structs: common
                .iter()
                .map(|s| SchemaStruct {
                    name: s.name.to_owned(),
                    versions: Some(COMMON_STRUCT_VERSIONS.to_owned()),
                    fields: fields(s.fields, &common),
                    unknown_keys: Vec::new(),
                })
                .collect(),
            unknown_keys: Vec::new(),
        })
    }

    /// The message as the text of Kafka's JSON schema file, in the layout of Kafka's
    /// own files: what `kwire schema --json NAME` prints, ready to commit as
    /// `NAME.json` when a version is released.
    ///
    /// ```
    /// use kwire::Message;
    ///
    /// /// Says hello.
    /// #[derive(Debug, Clone, PartialEq, kwire::Message)]
    /// #[kafka(kind = data, versions = "0-1")]
    /// struct Hello {
    ///     /// Who is greeted.
    ///     #[kafka(versions = "1+", default = -1)]
    ///     whom: i32,
    /// }
    ///
    /// assert_eq!(Hello::SCHEMA.to_kafka_json()?, r#"{
    ///   "type": "data",
    ///   "name": "Hello",
    ///   "validVersions": "0-1",
    ///   "flexibleVersions": "none",
    ///   "fields": [
    ///     { "name": "Whom", "type": "int32", "versions": "1+", "default": "-1",
    ///       "about": "Who is greeted." }
    ///   ]
    /// }
    /// "#);
    /// # Ok::<(), kwire::schema::ExportError>(())
    /// ```
    pub fn to_kafka_json(&self) -> Result<String, ExportError> {
        Ok(kwire_schema::to_json(&self.to_kafka_schema()?))
    }
}

/// How often each struct type is used, by name, and the first name found for two
/// different structs.
#[derive(Default)]
struct Uses {
    met: Vec<&'static StructSchema>,
    count: HashMap<&'static str, usize>,
    twice: Option<&'static str>,
}

impl Uses {
    /// Counts the struct types of `fields`, going into a struct only the first
    /// time it is met: it is written once, wherever it goes, and a struct that
    /// holds itself is not followed forever.
    fn count(&mut self, fields: &'static [FieldSchema]) {
        for field in fields {
            let Some(inner) = field.ty.struct_schema() else {
                continue;
            };
            let seen = self.count.entry(inner.name).or_insert(0);
            *seen += 1;
            if *seen == 1 {
                self.met.push(inner);
                self.count(inner.fields);
            } else if self.twice.is_none() {
                let first = self.met.iter().find(|s| s.name == inner.name);
                if first.is_some_and(|first| !same_shape(first, inner)) {
                    self.twice = Some(inner.name);
                }
            }
        }
    }

    /// The structs that go to `commonStructs`, in the order they are first met:
    /// those used by more than one field, and those without fields (an inline
    /// struct is told from a reference by its `fields`, which an empty struct
    /// cannot show).
    fn common(self) -> Vec<&'static StructSchema> {
        let count = self.count;
        self.met
            .into_iter()
            .filter(|s| count.get(s.name).copied().unwrap_or(0) > 1 || s.fields.is_empty())
            .collect()
    }
}

/// Whether two structs of one name are the same struct: the same fields with the
/// same types and versions. (Not `==`, which would follow a struct that holds
/// itself forever; and a `const` schema has no one address to compare.)
fn same_shape(a: &StructSchema, b: &StructSchema) -> bool {
    a.fields.len() == b.fields.len()
        && a.fields.iter().zip(b.fields).all(|(x, y)| {
            x.name == y.name
                && x.ty.to_string() == y.ty.to_string()
                && x.versions == y.versions
                && x.nullable_versions == y.nullable_versions
                && x.tagged_versions == y.tagged_versions
                && x.tag == y.tag
                && x.default == y.default
        })
}

fn fields(fields: &[FieldSchema], common: &[&StructSchema]) -> Vec<SchemaField> {
    fields.iter().map(|f| field(f, common)).collect()
}

fn field(field: &FieldSchema, common: &[&StructSchema]) -> SchemaField {
    // Present ranges only: Kafka's files leave out what is empty.
    let range = |range: crate::VersionRange| (!range.is_empty()).then(|| range.to_string());
    let inline = match field.ty.struct_schema() {
        Some(inner) if !common.iter().any(|c| c.name == inner.name) => fields(inner.fields, common),
        _ => Vec::new(),
    };
    SchemaField {
        name: field.name.to_owned(),
        ty: field.ty.to_string(),
        versions: Some(field.versions.to_string()),
        nullable_versions: range(field.nullable_versions),
        tagged_versions: range(field.tagged_versions),
        tag: field.tag.map(i64::from),
        ignorable: field.ignorable,
        // The text as the attribute wrote it, as a JSON string: the form most of
        // Kafka's files use, and one Kafka's generator reads for every type.
        default: field.default.map(|d| SchemaDefault::Text(d.to_owned())),
        flexible_versions: field.flexible_versions.map(|r| r.to_string()),
        map_key: field.map_key,
        entity_type: field.entity_type.map(str::to_owned),
        zero_copy: field.zero_copy,
        // A doc comment may wrap; Kafka's `about` is one line.
        about: field.about.split_whitespace().collect::<Vec<_>>().join(" "),
        fields: inline,
        unknown_keys: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{MessageKind, MinSizes, TypeSchema};
    use super::*;
    use crate::VersionRange;

    const fn of(name: &'static str, fields: &'static [FieldSchema]) -> StructSchema {
        StructSchema {
            name,
            fields,
            keeps_unknown_tags: false,
            min_sizes: MinSizes::UNTABULATED,
        }
    }

    const ALL: VersionRange = VersionRange::ALL;
    static EMPTY: StructSchema = of("Empty", &[]);
    static LEAF: StructSchema = of("Leaf", &[FieldSchema::new("Value", TypeSchema::Int8, ALL)]);
    // Used twice, holding the leaf once: the leaf is written inline in it.
    static SHARED: StructSchema = of(
        "Shared",
        &[FieldSchema::new("Leaf", TypeSchema::Struct(&LEAF), ALL)],
    );
    // Holds itself: a second use, found without following it forever.
    static NODE: StructSchema = of(
        "Node",
        &[FieldSchema::new(
            "Children",
            TypeSchema::Array(&TypeSchema::Struct(&NODE)),
            ALL,
        )],
    );

    fn message(fields: &'static [FieldSchema]) -> MessageSchema {
        MessageSchema {
            name: "Test",
            kind: MessageKind::Data,
            api_key: None,
            valid_versions: VersionRange::new(0, 0),
            flexible_versions: VersionRange::NONE,
            listeners: &[],
            latest_version_unstable: false,
            body: of("Test", fields),
            about: "",
        }
    }

    fn names(schema: &SchemaMessage) -> Vec<&str> {
        schema
            .common_structs
            .iter()
            .map(|s| s.name.as_str())
            .collect()
    }

    #[test]
    fn shared_empty_and_self_holding_structs_are_common_the_rest_inline() {
        static FIELDS: [FieldSchema; 4] = [
            FieldSchema::new("A", TypeSchema::Struct(&SHARED), ALL),
            FieldSchema::new("B", TypeSchema::Array(&TypeSchema::Struct(&SHARED)), ALL),
            FieldSchema::new("C", TypeSchema::Struct(&EMPTY), ALL),
            FieldSchema::new("D", TypeSchema::Struct(&NODE), ALL),
        ];
        let schema = message(&FIELDS).to_kafka_schema().unwrap();
        assert_eq!(names(&schema), ["Shared", "Empty", "Node"]);
        assert!(schema.fields.iter().all(|f| f.fields.is_empty()));
        let shared = &schema.common_structs[0];
        assert_eq!(shared.fields[0].ty, "Leaf");
        assert_eq!(shared.fields[0].fields[0].name, "Value");
        let node = &schema.common_structs[2];
        assert_eq!(node.fields[0].ty, "[]Node");
        assert!(node.fields[0].fields.is_empty());
    }

    #[test]
    fn a_struct_used_once_is_inline() {
        static FIELDS: [FieldSchema; 1] =
            [FieldSchema::new("Leaf", TypeSchema::Struct(&LEAF), ALL)];
        let schema = message(&FIELDS).to_kafka_schema().unwrap();
        assert!(schema.common_structs.is_empty());
        assert_eq!(schema.fields[0].fields[0].name, "Value");
        assert_eq!(schema.flexible_versions.as_deref(), Some("none"));
    }

    #[test]
    fn two_different_structs_of_one_name_are_an_error() {
        static OTHER_LEAF: StructSchema =
            of("Leaf", &[FieldSchema::new("Other", TypeSchema::Int64, ALL)]);
        static FIELDS: [FieldSchema; 3] = [
            FieldSchema::new("A", TypeSchema::Struct(&LEAF), ALL),
            FieldSchema::new("B", TypeSchema::Struct(&LEAF), ALL),
            FieldSchema::new("C", TypeSchema::Struct(&OTHER_LEAF), ALL),
        ];
        assert_eq!(
            message(&FIELDS).to_kafka_schema(),
            Err(ExportError::StructNameTwice {
                message: "Test".into(),
                name: "Leaf".into()
            })
        );
    }
}
