//! The one table of `#[kafka(...)]` keys: each key once, with where it is written,
//! what it takes and how Kafka's JSON spells it.
//!
//! The two `keys!` lists below are the table. From each, the macro declares the
//! struct the parser fills (`StructKeys`, `FieldKeys`: one `Written` per key) and its
//! `KEYS` rows, which drive the parser in `attr`, the hints for unknown keys, the
//! keys a nested `Struct` refuses, the tests' sample inputs and the check of the
//! README's attribute reference (see the tests).

use proc_macro2::Span;
use syn::{Expr, Lit, LitStr, Meta};

use crate::attr::RawExpr;

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

/// What follows a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// Nothing: the key is a flag (`ignorable`).
    Flag,
    /// A string literal (`versions = "0+"`).
    Str,
    /// An expression, kept as written (`tag = 0`, `kind = request`).
    Expr,
}

/// One key of the attribute language.
#[derive(Debug)]
pub struct Key {
    pub name: &'static str,
    pub place: Place,
    /// Kafka's JSON key, when the attribute mirrors one.
    pub json: Option<&'static str>,
    /// The parser reads each value by its type; this says the same for the tests,
    /// which write a sample of every key from it.
    #[cfg_attr(not(test), allow(dead_code))]
    pub takes: Takes,
}

/// One key of an attribute: its value as written and the span of the key itself
/// (where rules about the key, rather than its value, are reported), or nothing
/// when the key was not written.
#[derive(Clone)]
pub struct Written<T>(Option<(T, Span)>);

impl<T> Default for Written<T> {
    fn default() -> Self {
        Written(None)
    }
}

impl<T> Written<T> {
    /// The value, when the key was written.
    pub fn value(&self) -> Option<&T> {
        self.0.as_ref().map(|(value, _)| value)
    }

    /// The span of the key, when it was written.
    pub fn key_span(&self) -> Option<Span> {
        self.0.as_ref().map(|(_, span)| *span)
    }

    /// True when the key was written.
    pub fn is_written(&self) -> bool {
        self.0.is_some()
    }
}

/// A flag key: written without a value (`ignorable`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Flag;

/// A type a key's value is read as.
pub trait Value: Sized {
    /// What the key takes, for the table.
    const TAKES: Takes;

    /// Reads the value of `key` from its item, `key = value` or `key` alone.
    fn read(key: &str, item: &Meta) -> syn::Result<Self>;
}

impl Value for Flag {
    const TAKES: Takes = Takes::Flag;

    fn read(key: &str, item: &Meta) -> syn::Result<Self> {
        match item {
            Meta::Path(_) => Ok(Flag),
            other => Err(syn::Error::new_spanned(
                other,
                format!("`{key}` takes no value: write `{key}` alone"),
            )),
        }
    }
}

impl Value for LitStr {
    const TAKES: Takes = Takes::Str;

    fn read(key: &str, item: &Meta) -> syn::Result<Self> {
        let expr = name_value(key, item, "\"...\"")?;
        match ungrouped(expr) {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(text),
                ..
            }) => Ok(text.clone()),
            other => Err(syn::Error::new_spanned(
                other,
                format!("`{key}` takes a string: `{key} = \"...\"`"),
            )),
        }
    }
}

impl Value for RawExpr {
    const TAKES: Takes = Takes::Expr;

    fn read(key: &str, item: &Meta) -> syn::Result<Self> {
        name_value(key, item, "...").map(|expr| RawExpr(ungrouped(expr).clone()))
    }
}

/// The value of a `key = value` item.
fn name_value<'a>(key: &str, item: &'a Meta, shape: &str) -> syn::Result<&'a Expr> {
    match item {
        Meta::NameValue(pair) => Ok(&pair.value),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{key}` takes a value: `{key} = {shape}`"),
        )),
    }
}

/// An expression without the invisible group a `macro_rules!` fragment puts
/// around it, which would hide the literal inside.
fn ungrouped(expr: &Expr) -> &Expr {
    match expr {
        Expr::Group(group) => ungrouped(&group.expr),
        other => other,
    }
}

/// The keys of one attribute, as the parser fills them.
pub trait Keys: Default {
    /// The table's rows for this attribute, in the order written below.
    const KEYS: &'static [Key];

    /// Records `key` (one of `KEYS`, not yet written) as written at `span`, then
    /// reads its value from `item`. A key whose value fails to read still counts
    /// as written, so that writing it again is reported as a duplicate.
    fn read(&mut self, key: &'static Key, span: Span, item: &Meta) -> syn::Result<()>;

    /// The keys written, in order, each with its span.
    fn written(&self) -> &[(&'static Key, Span)];
}

/// Declares a struct of keys and its table rows from one list: each row is
/// `name: ValueType, Place, Kafka's JSON key;` with its doc comment.
macro_rules! keys {
    (
        $(#[$doc:meta])*
        pub struct $keys:ident {
            $(
                $(#[$key_doc:meta])*
                $key:ident: $ty:ty, $place:ident, $json:expr;
            )*
        }
    ) => {
        $(#[$doc])*
        #[derive(Default)]
        pub struct $keys {
            $(
                $(#[$key_doc])*
                pub $key: Written<$ty>,
            )*
            written: Vec<(&'static Key, Span)>,
        }

        impl Keys for $keys {
            const KEYS: &'static [Key] = &[$(
                Key {
                    name: stringify!($key),
                    place: Place::$place,
                    json: $json,
                    takes: <$ty as Value>::TAKES,
                },
            )*];

            fn read(
                &mut self,
                key: &'static Key,
                span: Span,
                item: &Meta,
            ) -> syn::Result<()> {
                self.written.push((key, span));
                $(
                    if key.name == stringify!($key) {
                        self.$key = Written(Some((<$ty as Value>::read(key.name, item)?, span)));
                        return Ok(());
                    }
                )*
                unreachable!("`{}` is a row of this table", key.name)
            }

            fn written(&self) -> &[(&'static Key, Span)] {
                &self.written
            }
        }
    };
}

keys! {
    /// The keys of the struct-level attribute, on a `Message` or a nested `Struct`.
    pub struct StructKeys {
        /// The schema name when it differs from the Rust name.
        name: LitStr, AnyStruct, Some("name");
        /// `request`, `response`, `header` or `data`.
        kind: RawExpr, Message, Some("type");
        api_key: RawExpr, Message, Some("apiKey");
        versions: LitStr, Message, Some("validVersions");
        flexible: LitStr, Message, Some("flexibleVersions");
        listeners: LitStr, Message, Some("listeners");
        latest_version_unstable: Flag, Message, Some("latestVersionUnstable");
        /// A request's response type.
        response: RawExpr, Message, None;
        /// The released schema this struct must stay compatible with: a Kafka JSON
        /// file, relative to the crate's directory (`CARGO_MANIFEST_DIR`; when no
        /// such file is there, `KWIRE_MANIFEST_DIR`, for a test harness such as
        /// trybuild that compiles the crate's files from a project of its own). A
        /// change that breaks a
        /// released version is a compile error on its token.
        compatible_with: LitStr, AnyStruct, None;
    }
}

keys! {
    /// The keys of a field's attribute.
    pub struct FieldKeys {
        /// The schema name when it differs from the PascalCase of the Rust name.
        name: LitStr, Field, Some("name");
        versions: LitStr, Field, Some("versions");
        nullable: LitStr, Field, Some("nullableVersions");
        tag: RawExpr, Field, Some("tag");
        tagged: LitStr, Field, Some("taggedVersions");
        ignorable: Flag, Field, Some("ignorable");
        default: RawExpr, Field, Some("default");
        flexible: LitStr, Field, Some("flexibleVersions");
        map_key: Flag, Field, Some("mapKey");
        entity_type: LitStr, Field, Some("entityType");
        zero_copy: Flag, Field, Some("zeroCopy");
        /// Marks the field holding unknown tagged fields; it takes no other key.
        unknown_tagged: Flag, Field, None;
    }
}

/// The message for `key`, which is not among `keys`. Kafka's JSON spelling of a
/// key gets ours from the table; a near miss gets the nearest key (by Jaro-Winkler
/// similarity, as rustc's hints); anything else the list of keys.
pub fn unknown(key: &str, keys: &'static [Key]) -> String {
    if let Some(ours) = keys.iter().find(|k| k.json == Some(key) && k.name != key) {
        return format!(
            "unknown key `{key}`: Kafka's `{key}` is spelled `{}` here",
            ours.name
        );
    }
    let nearest = keys
        .iter()
        .map(|k| (strsim::jaro_winkler(key, k.name), k.name))
        .filter(|(similarity, _)| *similarity > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((_, name)) = nearest {
        return format!("unknown key `{key}`: did you mean `{name}`?");
    }
    let mut names: Vec<&str> = keys.iter().map(|k| k.name).collect();
    names.sort_unstable();
    let list = names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>();
    format!("unknown key `{key}`: the keys here are {}", list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_find_their_key() {
        let hint = unknown;
        assert_eq!(
            hint("map_keys", FieldKeys::KEYS),
            "unknown key `map_keys`: did you mean `map_key`?"
        );
        assert_eq!(
            hint("colour", StructKeys::KEYS),
            "unknown key `colour`: the keys here are `api_key`, `compatible_with`, `flexible`, \
             `kind`, `latest_version_unstable`, `listeners`, `name`, `response`, `versions`"
        );
        let listed = hint("shade", FieldKeys::KEYS);
        assert!(listed.starts_with("unknown key `shade`: the keys here are `default`"));
        assert!(FieldKeys::KEYS
            .iter()
            .all(|k| listed.contains(&format!("`{}`", k.name))));
    }

    #[test]
    fn json_spellings_point_at_ours() {
        assert_eq!(
            unknown("validVersions", StructKeys::KEYS),
            "unknown key `validVersions`: Kafka's `validVersions` is spelled `versions` here"
        );
        assert_eq!(
            unknown("nullableVersions", FieldKeys::KEYS),
            "unknown key `nullableVersions`: Kafka's `nullableVersions` is spelled `nullable` here"
        );
    }

    #[test]
    fn struct_keys_are_for_structs_and_field_keys_for_fields() {
        assert!(StructKeys::KEYS.iter().all(|k| k.place != Place::Field));
        assert!(FieldKeys::KEYS.iter().all(|k| k.place == Place::Field));
        let place = |name| {
            StructKeys::KEYS
                .iter()
                .find(|k| k.name == name)
                .map(|k| k.place)
        };
        assert_eq!(place("api_key"), Some(Place::Message));
        assert_eq!(place("name"), Some(Place::AnyStruct));
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
        for table in &mut tables {
            table.sort();
        }
        let names = |keys: &[Key]| {
            let mut names: Vec<String> = keys.iter().map(|k| k.name.to_owned()).collect();
            names.sort();
            names
        };
        assert_eq!(tables, [names(StructKeys::KEYS), names(FieldKeys::KEYS)]);
    }
}
