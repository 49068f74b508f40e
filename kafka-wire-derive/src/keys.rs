//! Part of stage 1, parse: the keys each `#[kafka(...)]` attribute takes, and a
//! spanned error for any other key.
//!
//! darling would reject unknown keys itself, but then it rejects the whole
//! attribute, and one typo would hide every other mistake in the struct. So the
//! attributes are read with unknown keys allowed and checked here instead.

use darling::ast::NestedMeta;
use darling::error::Accumulator;
use darling::Error;
use syn::{Attribute, Path};

/// The keys of the struct-level attribute, exactly the fields of `RawContainer`.
pub const CONTAINER_KEYS: &[&str] = &[
    "name",
    "kind",
    "api_key",
    "versions",
    "flexible",
    "listeners",
    "latest_version_unstable",
];

/// The keys of a field's attribute, exactly the fields of `RawField`.
pub const FIELD_KEYS: &[&str] = &[
    "name",
    "versions",
    "nullable",
    "tag",
    "tagged",
    "ignorable",
    "default",
    "flexible",
    "map_key",
    "entity_type",
    "zero_copy",
    "unknown_tagged",
];

/// Kafka's JSON keys that the attribute spells differently: the likeliest typos
/// when transcribing a schema.
const JSON_SPELLINGS: &[(&str, &str)] = &[
    ("validVersions", "versions"),
    ("nullableVersions", "nullable"),
    ("taggedVersions", "tagged"),
    ("flexibleVersions", "flexible"),
    ("mapKey", "map_key"),
    ("entityType", "entity_type"),
    ("zeroCopy", "zero_copy"),
    ("apiKey", "api_key"),
    ("type", "kind"),
    ("latestVersionUnstable", "latest_version_unstable"),
];

/// Reports each key of a `#[kafka(...)]` attribute that is not in `known`, spanned
/// on the key.
pub fn reject_unknown(attrs: &[Attribute], known: &[&str], errors: &mut Accumulator) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("kafka")) {
        let syn::Meta::List(list) = &attr.meta else {
            continue;
        };
        // Syntax errors are darling's to report, with the rest of the attribute.
        let Ok(items) = NestedMeta::parse_meta_list(list.tokens.clone()) else {
            continue;
        };
        for item in &items {
            let path = match item {
                NestedMeta::Meta(meta) => meta.path(),
                NestedMeta::NameValueInvalidExpr(invalid) => &invalid.path,
                NestedMeta::Lit(_) => continue,
            };
            if !known.iter().any(|key| path.is_ident(key)) {
                errors.push(unknown_key(path, known));
            }
        }
    }
}

fn unknown_key(path: &Path, known: &[&str]) -> Error {
    let key = quote::quote!(#path).to_string().replace(' ', "");
    let json = JSON_SPELLINGS
        .iter()
        .find(|(json, ours)| *json == key && known.contains(ours));
    let message = if let Some((json, ours)) = json {
        format!("unknown key `{key}`: Kafka's `{json}` is spelled `{ours}` here")
    } else if let Some(near) = nearest(&key, known) {
        format!("unknown key `{key}`: did you mean `{near}`?")
    } else {
        let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
        format!("unknown key `{key}`: expected one of {}", list.join(", "))
    };
    Error::custom(message).with_span(path)
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
        assert_eq!(nearest("map_keys", FIELD_KEYS), Some("map_key"));
        assert_eq!(nearest("ZeroCopy", FIELD_KEYS), Some("zero_copy"));
        assert_eq!(nearest("colour", CONTAINER_KEYS), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
