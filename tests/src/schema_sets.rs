//! What differs between two sets of Kafka's JSON schemas, every difference
//! classified: a pinned trunk set against a release's (`released_schemas` prints
//! it as a table).
//!
//! `kwire compat` answers a narrower question (does the newer set keep the older
//! one's bytes?) and says nothing of documentation or of a version that was
//! unstable; this comparison reports everything the schema files say, so that each
//! difference can be closed in the messages or listed as the pin's.

use std::collections::BTreeMap;
use std::fmt;

use kwire::VersionRange;
use kwire_schema::{SchemaDefault, SchemaField, SchemaMessage, SchemaStruct};

/// What kind of change a difference is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// An API (a request or response with an `apiKey`) only the newer set has.
    NewApi,
    /// An API only the older set has.
    GoneApi,
    /// A header or data schema only one of the sets has.
    Schema,
    /// The older set's latest version was unstable (`latestVersionUnstable`) and the
    /// newer set has it as a stable version.
    VersionReleased,
    /// Versions the older set had and the newer set does not.
    VersionGone,
    /// Any other change of `validVersions`, `flexibleVersions` or stability.
    Versions,
    /// The message's kind, API key or listeners.
    Message,
    /// A field or common struct added, removed, or changed in what the wire or
    /// Kafka's JSON form sees (type, versions, nullability, tags, default, flags).
    Field,
    /// Only a field's `about` text.
    Doc,
    /// The files differ, but not in anything the schema says: comments or layout.
    Comment,
}

impl Class {
    /// Every class, in the order the table counts them.
    pub const ALL: [Class; 10] = [
        Class::NewApi,
        Class::GoneApi,
        Class::Schema,
        Class::VersionReleased,
        Class::VersionGone,
        Class::Versions,
        Class::Message,
        Class::Field,
        Class::Doc,
        Class::Comment,
    ];

    /// The class's name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Class::NewApi => "new-api",
            Class::GoneApi => "gone-api",
            Class::Schema => "schema",
            Class::VersionReleased => "version-released",
            Class::VersionGone => "version-gone",
            Class::Versions => "versions",
            Class::Message => "message",
            Class::Field => "field",
            Class::Doc => "doc",
            Class::Comment => "comment",
        }
    }
}

/// One difference: its class, where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// What kind of change.
    pub class: Class,
    /// The message, or the field path in it: `StreamsGroupDescribeResponse.Groups[].AssignorName`.
    pub path: String,
    /// What changed, older value first.
    pub text: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:<16} {}: {}", self.class.name(), self.path, self.text)
    }
}

/// One schema of a set, with the file's bytes (for the comment-only class).
#[derive(Debug, Clone)]
pub struct Entry {
    /// The schema as read.
    pub schema: SchemaMessage,
    /// The file's bytes as stored.
    pub bytes: Vec<u8>,
}

/// Every difference between `old` and `new`, by message name, then in the order
/// of the older file's fields.
pub fn compare(old: &[Entry], new: &[Entry]) -> Vec<Difference> {
    let by_name = |set: &[Entry]| -> BTreeMap<String, usize> {
        set.iter()
            .enumerate()
            .map(|(i, e)| (e.schema.name.clone(), i))
            .collect()
    };
    let (old_names, new_names) = (by_name(old), by_name(new));
    let mut names: Vec<&String> = old_names.keys().chain(new_names.keys()).collect();
    names.sort();
    names.dedup();
    let mut out = Vec::new();
    for name in names {
        match (old_names.get(name), new_names.get(name)) {
            (Some(&o), Some(&n)) => message(&mut out, &old[o], &new[n]),
            (None, Some(&n)) => only(
                &mut out,
                &new[n].schema,
                Class::NewApi,
                "only in the newer set",
            ),
            (Some(&o), None) => only(
                &mut out,
                &old[o].schema,
                Class::GoneApi,
                "only in the older set",
            ),
            (None, None) => {}
        }
    }
    out
}

/// How many differences of each class, every class listed.
pub fn counts(differences: &[Difference]) -> Vec<(Class, usize)> {
    Class::ALL
        .iter()
        .map(|&class| {
            (
                class,
                differences.iter().filter(|d| d.class == class).count(),
            )
        })
        .collect()
}

fn only(out: &mut Vec<Difference>, schema: &SchemaMessage, api: Class, side: &str) {
    let (class, what) = match schema.api_key {
        Some(key) => (api, format!("API key {key}, {}", schema.kind)),
        None => (Class::Schema, schema.kind.clone()),
    };
    out.push(Difference {
        class,
        path: schema.name.clone(),
        text: format!(
            "{side} ({what}, validVersions {}, {} fields)",
            schema.valid_versions,
            schema.fields.len()
        ),
    });
}

fn message(out: &mut Vec<Difference>, old: &Entry, new: &Entry) {
    let before = out.len();
    let (o, n) = (&old.schema, &new.schema);
    let path = o.name.as_str();
    versions(out, o, n);
    let mut push = |class, text: String| {
        out.push(Difference {
            class,
            path: path.to_owned(),
            text,
        })
    };
    if o.flexible_versions != n.flexible_versions {
        push(
            Class::Versions,
            format!(
                "flexibleVersions {} -> {}",
                or_none(&o.flexible_versions),
                or_none(&n.flexible_versions)
            ),
        );
    }
    if o.kind != n.kind {
        push(Class::Message, format!("type {} -> {}", o.kind, n.kind));
    }
    if o.api_key != n.api_key {
        push(
            Class::Message,
            format!("apiKey {:?} -> {:?}", o.api_key, n.api_key),
        );
    }
    if o.listeners != n.listeners {
        push(
            Class::Message,
            format!("listeners {:?} -> {:?}", o.listeners, n.listeners),
        );
    }
    fields(out, path, &o.fields, &n.fields);
    structs(out, path, &o.common_structs, &n.common_structs);
    if out.len() == before && old.bytes != new.bytes {
        out.push(Difference {
            class: Class::Comment,
            path: path.to_owned(),
            text: "the files differ in comments or layout only".to_owned(),
        });
    }
}

/// `validVersions` and `latestVersionUnstable`, classified by what happened to the
/// highest version.
fn versions(out: &mut Vec<Difference>, o: &SchemaMessage, n: &SchemaMessage) {
    if o.valid_versions == n.valid_versions
        && o.latest_version_unstable == n.latest_version_unstable
    {
        return;
    }
    let max = |s: &SchemaMessage| {
        VersionRange::parse(&s.valid_versions)
            .ok()
            .and_then(VersionRange::max)
    };
    let (old_max, new_max) = (max(o), max(n));
    let text = format!(
        "validVersions {}{} -> {}{}",
        o.valid_versions,
        unstable(o),
        n.valid_versions,
        unstable(n)
    );
    let class = match (old_max, new_max) {
        (Some(a), Some(b)) if b < a => Class::VersionGone,
        (Some(_), None) => Class::VersionGone,
        (Some(a), Some(b)) if o.latest_version_unstable && !n.latest_version_unstable && b >= a => {
            Class::VersionReleased
        }
        _ => Class::Versions,
    };
    out.push(Difference {
        class,
        path: o.name.clone(),
        text,
    });
}

fn unstable(s: &SchemaMessage) -> &'static str {
    if s.latest_version_unstable {
        " (latest unstable)"
    } else {
        ""
    }
}

fn or_none(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("none")
}

fn structs(out: &mut Vec<Difference>, path: &str, old: &[SchemaStruct], new: &[SchemaStruct]) {
    for o in old {
        let at = format!("{path}.{}", o.name);
        match new.iter().find(|n| n.name == o.name) {
            None => push(out, Class::Field, &at, "common struct removed".to_owned()),
            Some(n) => {
                if o.versions != n.versions {
                    let text = format!(
                        "versions {} -> {}",
                        or_none(&o.versions),
                        or_none(&n.versions)
                    );
                    push(out, Class::Field, &at, text);
                }
                fields(out, &at, &o.fields, &n.fields);
            }
        }
    }
    for n in new.iter().filter(|n| !old.iter().any(|o| o.name == n.name)) {
        let text = format!("common struct added ({} fields)", n.fields.len());
        push(out, Class::Field, &format!("{path}.{}", n.name), text);
    }
}

fn fields(out: &mut Vec<Difference>, path: &str, old: &[SchemaField], new: &[SchemaField]) {
    let sub = |f: &SchemaField| {
        let list = if f.ty.starts_with("[]") { "[]" } else { "" };
        format!("{path}.{}{list}", f.name)
    };
    for o in old {
        match new.iter().find(|n| n.name == o.name) {
            None => push(
                out,
                Class::Field,
                &sub(o),
                format!("field removed ({})", describe(o)),
            ),
            Some(n) => field(out, &sub(o), o, n),
        }
    }
    for n in new.iter().filter(|n| !old.iter().any(|o| o.name == n.name)) {
        push(
            out,
            Class::Field,
            &sub(n),
            format!("field added ({})", describe(n)),
        );
    }
    let order = |set: &[SchemaField]| -> Vec<String> {
        set.iter()
            .filter(|f| {
                old.iter().any(|o| o.name == f.name) && new.iter().any(|n| n.name == f.name)
            })
            .map(|f| f.name.clone())
            .collect()
    };
    if order(old) != order(new) {
        push(out, Class::Field, path, "fields reordered".to_owned());
    }
}

/// One field in both sets: every key the wire or the JSON form sees, then `about`.
fn field(out: &mut Vec<Difference>, path: &str, o: &SchemaField, n: &SchemaField) {
    let text = |v: &Option<String>| v.clone().unwrap_or_else(|| "absent".to_owned());
    let default = |d: &Option<SchemaDefault>| {
        d.as_ref()
            .map_or_else(|| "absent".to_owned(), |d| d.to_string())
    };
    let keys: [(&str, String, String); 11] = [
        ("type", o.ty.clone(), n.ty.clone()),
        ("versions", text(&o.versions), text(&n.versions)),
        (
            "nullableVersions",
            text(&o.nullable_versions),
            text(&n.nullable_versions),
        ),
        (
            "taggedVersions",
            text(&o.tagged_versions),
            text(&n.tagged_versions),
        ),
        ("tag", format!("{:?}", o.tag), format!("{:?}", n.tag)),
        (
            "ignorable",
            o.ignorable.to_string(),
            n.ignorable.to_string(),
        ),
        ("default", default(&o.default), default(&n.default)),
        (
            "flexibleVersions",
            text(&o.flexible_versions),
            text(&n.flexible_versions),
        ),
        ("mapKey", o.map_key.to_string(), n.map_key.to_string()),
        ("entityType", text(&o.entity_type), text(&n.entity_type)),
        ("zeroCopy", o.zero_copy.to_string(), n.zero_copy.to_string()),
    ];
    for (key, a, b) in keys {
        if a != b {
            push(out, Class::Field, path, format!("{key} {a} -> {b}"));
        }
    }
    if o.about != n.about {
        push(
            out,
            Class::Doc,
            path,
            format!("about {:?} -> {:?}", o.about, n.about),
        );
    }
    fields(out, path, &o.fields, &n.fields);
}

/// `string, versions 1+, nullable 1+, default "null", ignorable`.
fn describe(f: &SchemaField) -> String {
    let mut parts = vec![
        f.ty.clone(),
        format!("versions {}", f.versions.as_deref().unwrap_or("absent")),
    ];
    if let Some(v) = &f.nullable_versions {
        parts.push(format!("nullable {v}"));
    }
    if let (Some(tag), Some(v)) = (f.tag, &f.tagged_versions) {
        parts.push(format!("tag {tag} in {v}"));
    }
    if let Some(d) = &f.default {
        parts.push(format!("default {d}"));
    }
    if f.ignorable {
        parts.push("ignorable".to_owned());
    }
    parts.join(", ")
}

fn push(out: &mut Vec<Difference>, class: Class, path: &str, text: String) {
    out.push(Difference {
        class,
        path: path.to_owned(),
        text,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(text: &str) -> Entry {
        let schema = kwire_schema::load_text(text, std::path::Path::new("t.json"))
            .unwrap_or_else(|e| panic!("test schema does not read: {}", e.reason));
        Entry {
            schema,
            bytes: text.as_bytes().to_vec(),
        }
    }

    const BASE: &str = r#"{ "apiKey": 7, "type": "response", "name": "XResponse",
      "validVersions": "0-1", "flexibleVersions": "0+",
      "fields": [ { "name": "A", "type": "int32", "versions": "0+", "about": "a." } ] }"#;

    #[test]
    fn equal_sets_have_no_difference() {
        assert_eq!(compare(&[entry(BASE)], &[entry(BASE)]), vec![]);
    }

    #[test]
    fn each_change_lands_in_its_class() {
        let added = BASE.replace(
            r#""about": "a." } ]"#,
            r#""about": "a." }, { "name": "B", "type": "string", "versions": "1+", "nullableVersions": "1+", "about": "b." } ]"#,
        );
        let doc = BASE.replace(r#""about": "a.""#, r#""about": "A.""#);
        let comment = format!("// a comment\n{BASE}");
        let released_old = BASE.replace(r#""0-1","#, r#""0-1", "latestVersionUnstable": true,"#);
        let gone = BASE.replace(r#""0-1""#, r#""0""#);
        let cases: [(&str, &str, Class); 5] = [
            (BASE, &added, Class::Field),
            (BASE, &doc, Class::Doc),
            (BASE, &comment, Class::Comment),
            (&released_old, BASE, Class::VersionReleased),
            (BASE, &gone, Class::VersionGone),
        ];
        for (old, new, class) in cases {
            let found = compare(&[entry(old)], &[entry(new)]);
            assert_eq!(found.len(), 1, "{found:?}");
            assert_eq!(found[0].class, class, "{}", found[0]);
        }
        let new_api = compare(&[], &[entry(BASE)]);
        assert_eq!(new_api[0].class, Class::NewApi);
        assert_eq!(counts(&new_api)[0], (Class::NewApi, 1));
    }
}
