//! The one table of `#[kafka(...)]` keys: where each may be written and how Kafka's
//! JSON spells it. Parsing (darling's structs in `attr`), the unknown-key errors
//! and their hints, the keys a nested `Struct` refuses, and the README's attribute
//! reference are all checked against it (see the tests).
//!
//! darling would reject unknown keys itself, but then it rejects the whole
//! attribute, and one typo would hide every other mistake in the struct. So the
//! attributes are read with unknown keys allowed and checked here instead.

use darling::ast::NestedMeta;
use darling::Error;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Path};

/// Where a key is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// On a `Message` or a nested `Struct`.
    AnyStruct,
    /// On a top-level `Message` only.
    Message,
    /// On a field.
    Field,
}

/// One key of the attribute language.
#[derive(Debug)]
pub struct Key {
    pub name: &'static str,
    pub place: Place,
    /// Kafka's JSON key, when the attribute mirrors one.
    pub json: Option<&'static str>,
}

const fn key(name: &'static str, place: Place, json: Option<&'static str>) -> Key {
    Key { name, place, json }
}

/// Every key, once.
pub const KEYS: &[Key] = &[
    key("name", Place::AnyStruct, Some("name")),
    key("kind", Place::Message, Some("type")),
    key("api_key", Place::Message, Some("apiKey")),
    key("versions", Place::Message, Some("validVersions")),
    key("flexible", Place::Message, Some("flexibleVersions")),
    key("listeners", Place::Message, Some("listeners")),
    key(
        "latest_version_unstable",
        Place::Message,
        Some("latestVersionUnstable"),
    ),
    key("response", Place::Message, None),
    key("name", Place::Field, Some("name")),
    key("versions", Place::Field, Some("versions")),
    key("nullable", Place::Field, Some("nullableVersions")),
    key("tag", Place::Field, Some("tag")),
    key("tagged", Place::Field, Some("taggedVersions")),
    key("ignorable", Place::Field, Some("ignorable")),
    key("default", Place::Field, Some("default")),
    key("flexible", Place::Field, Some("flexibleVersions")),
    key("map_key", Place::Field, Some("mapKey")),
    key("entity_type", Place::Field, Some("entityType")),
    key("zero_copy", Place::Field, Some("zeroCopy")),
    key("unknown_tagged", Place::Field, None),
];

/// Which attribute is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attr {
    /// The struct-level attribute.
    Container,
    /// A field's attribute.
    Field,
}

impl Attr {
    fn allows(self, place: Place) -> bool {
        match self {
            Attr::Container => matches!(place, Place::AnyStruct | Place::Message),
            Attr::Field => place == Place::Field,
        }
    }

    /// The keys this attribute takes, in table order.
    pub fn keys(self) -> impl Iterator<Item = &'static Key> {
        KEYS.iter().filter(move |k| self.allows(k.place))
    }

    fn names(self) -> Vec<&'static str> {
        self.keys().map(|k| k.name).collect()
    }
}

/// The keys written in the `#[kafka(...)]` attributes among `attrs`, each with its
/// span, as written (known or not). Syntax errors are darling's to report.
pub fn used(attrs: &[Attribute]) -> Vec<(String, Span)> {
    let mut used = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("kafka")) {
        let syn::Meta::List(list) = &attr.meta else {
            continue;
        };
        let Ok(items) = NestedMeta::parse_meta_list(list.tokens.clone()) else {
            continue;
        };
        for item in &items {
            let path = match item {
                NestedMeta::Meta(meta) => meta.path(),
                NestedMeta::NameValueInvalidExpr(invalid) => &invalid.path,
                NestedMeta::Lit(_) => continue,
            };
            used.push((path_text(path), path.span()));
        }
    }
    used
}

fn path_text(path: &Path) -> String {
    quote::quote!(#path).to_string().replace(' ', "")
}

/// An error for each key of `used` that `attr` does not take, with a hint.
pub fn reject_unknown(used: &[(String, Span)], attr: Attr) -> Vec<Error> {
    used.iter()
        .filter(|(key, _)| !attr.keys().any(|k| k.name == key))
        .map(|(key, span)| Error::custom(unknown_key_message(key, attr)).with_span(span))
        .collect()
}

fn unknown_key_message(key: &str, attr: Attr) -> String {
    let json = attr.keys().find(|k| k.json == Some(key) && k.name != key);
    if let Some(ours) = json {
        format!(
            "unknown key `{key}`: Kafka's `{key}` is spelled `{}` here",
            ours.name
        )
    } else if let Some(near) = nearest(key, &attr.names()) {
        format!("unknown key `{key}`: did you mean `{near}`?")
    } else {
        let list: Vec<String> = attr.names().iter().map(|k| format!("`{k}`")).collect();
        format!("unknown key `{key}`: expected one of {}", list.join(", "))
    }
}

/// True for keys only a top-level message takes.
pub fn is_message_only(key: &str) -> bool {
    KEYS.iter()
        .any(|k| k.name == key && k.place == Place::Message)
        && !KEYS
            .iter()
            .any(|k| k.name == key && k.place == Place::AnyStruct)
}

/// The known key closest to `key`, ignoring case and underscores, if it is close.
fn nearest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let squash = |s: &str| s.replace('_', "").to_ascii_lowercase();
    let key = squash(key);
    known
        .iter()
        .map(|k| (edit_distance(&key, &squash(k)), *k))
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_find_their_key() {
        let fields = Attr::Field.names();
        assert_eq!(nearest("map_keys", &fields), Some("map_key"));
        assert_eq!(nearest("ZeroCopy", &fields), Some("zero_copy"));
        assert_eq!(nearest("colour", &Attr::Container.names()), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn json_spellings_point_at_ours() {
        assert_eq!(
            unknown_key_message("validVersions", Attr::Container),
            "unknown key `validVersions`: Kafka's `validVersions` is spelled `versions` here"
        );
        assert_eq!(
            unknown_key_message("nullableVersions", Attr::Field),
            "unknown key `nullableVersions`: Kafka's `nullableVersions` is spelled `nullable` here"
        );
    }

    #[test]
    fn message_only_keys_are_the_message_rows() {
        assert!(is_message_only("api_key"));
        assert!(is_message_only("versions"));
        assert!(!is_message_only("name"));
    }

    /// The README's attribute reference lists exactly the keys of this table: the
    /// struct-level table first, then the field-level one.
    #[test]
    fn the_readme_documents_every_key_and_no_other() {
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
            .expect("the workspace README");
        let section = readme
            .split("## Attribute reference")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .expect("an attribute reference section");
        let mut tables: Vec<Vec<String>> = Vec::new();
        let mut in_table = false;
        for line in section.lines() {
            let row = line.strip_prefix("| `");
            match row {
                Some(row) => {
                    if !in_table {
                        tables.push(Vec::new());
                        in_table = true;
                    }
                    let key: String = row
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    tables.last_mut().expect("a table").push(key);
                }
                None => in_table = !line.trim().is_empty() && in_table && line.starts_with('|'),
            }
        }
        let mut documented: Vec<Vec<String>> = tables;
        for table in &mut documented {
            table.sort();
        }
        let mut container: Vec<String> = Attr::Container
            .names()
            .iter()
            .map(|k| k.to_string())
            .collect();
        let mut field: Vec<String> = Attr::Field.names().iter().map(|k| k.to_string()).collect();
        container.sort();
        field.sort();
        assert_eq!(documented, [container, field]);
    }
}
