//! Whether a newer schema keeps an older one's bytes, version by version.
//!
//! A version that has been released is spoken by peers that will not change: for
//! every version both schemas accept, the newer one must read and write the same
//! bytes with the same meaning. Compared at each such version:
//!
//! - whether it is flexible (compact lengths and tagged fields);
//! - the fields in the body, in order: each one's type, nullability and (for
//!   strings and bytes) its own compact encoding; nested structs field by field;
//! - the tagged fields: each one's tag, type and nullability;
//! - the defaults of the fields that version lacks or leaves tagged, which are the
//!   values a reader of that version gets.
//!
//! Only released versions are compared: with `latestVersionUnstable`, the latest
//! version is still free to change.
//!
//! Adding versions, and adding fields to new versions or as tagged fields, keeps
//! every released version's bytes and is not reported. Everything else is a
//! [`Finding`] naming the message, the field path, the versions and the [`Rule`].
//! A renamed field or message keeps the bytes but not Kafka's JSON form (or the
//! names generated code uses), so it is reported too, as the two rules that are
//! not wire breaks ([`Rule::breaks_wire`]).
//!
//! ```
//! use std::path::Path;
//! use kwire_schema::compat::{compare, Rule};
//! use kwire_schema::load_text;
//!
//! let released = r#"{ "type": "data", "name": "Hold", "validVersions": "0-2",
//!   "flexibleVersions": "none", "fields": [
//!     { "name": "Seconds", "type": "int32", "versions": "0+" } ] }"#;
//! let changed = released.replace("int32", "int64");
//! let old = load_text(released, Path::new("old/Hold.json")).unwrap();
//! let new = load_text(&changed, Path::new("new/Hold.json")).unwrap();
//! let findings = compare(&old, &new).unwrap();
//! assert_eq!(findings.len(), 1);
//! assert_eq!(findings[0].rule, Rule::TypeChanged);
//! assert_eq!(findings[0].to_string(), "Hold.Seconds, versions 0-2: type changed (int32 -> int64)");
//! ```

mod fields;
mod findings;
mod sets;
#[cfg(test)]
mod tests;

use kwire_version::VersionRange;

use crate::meaning;
use crate::model::{SchemaField, SchemaMessage};
use crate::resolve;

pub use findings::{Finding, Rule};
pub use sets::{compare_sets, SetFindings};

/// A schema that cannot be compared: a range or a type that does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompatError {
    /// The message, with the field path when a field is at fault.
    pub path: String,
    /// What does not read.
    pub reason: String,
}

impl std::fmt::Display for CompatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

impl std::error::Error for CompatError {}

/// Whether types (and so nested structs) are compared, or only what the
/// attributes say; the derive, which cannot see a field's type, checks types
/// by other means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Types {
    /// Compare types and nested structs.
    Compared,
    /// Leave types and nested structs alone.
    Skipped,
}

/// Every finding between the `old` (released) and `new` schema of one message.
///
/// Fails when either schema has a range, default or struct type that does not read.
pub fn compare(old: &SchemaMessage, new: &SchemaMessage) -> Result<Vec<Finding>, CompatError> {
    compare_with(old, new, Types::Compared)
}

/// [`compare`], choosing whether types are compared.
pub fn compare_with(
    old: &SchemaMessage,
    new: &SchemaMessage,
    types: Types,
) -> Result<Vec<Finding>, CompatError> {
    compare_released(old, new, types, old.latest_version_unstable)
}

/// [`compare_with`], told whether the older schema's latest version is unstable
/// (never released, so free to change or go): a response's flag is its request's.
pub(crate) fn compare_released(
    old: &SchemaMessage,
    new: &SchemaMessage,
    types: Types,
    latest_unstable: bool,
) -> Result<Vec<Finding>, CompatError> {
    let name = old.name.as_str();
    let mut old_side = Side::of(old)?;
    old_side.valid = released_of(old_side.valid, latest_unstable);
    let new_side = Side::of(new)?;
    let mut found = Vec::new();
    if old.name != new.name {
        found.push(Finding::whole(
            name,
            old_side.valid,
            Rule::MessageRenamed,
            format!("{} -> {}", old.name, new.name),
        ));
    }
    if old.kind != new.kind {
        found.push(Finding::whole(
            name,
            old_side.valid,
            Rule::KindChanged,
            format!("{} -> {}", old.kind, new.kind),
        ));
    }
    if old.api_key != new.api_key {
        let key = |k: Option<i64>| k.map_or("none".to_owned(), |k| k.to_string());
        found.push(Finding::whole(
            name,
            old_side.valid,
            Rule::ApiKeyChanged,
            format!("{} -> {}", key(old.api_key), key(new.api_key)),
        ));
    }
    let mut per_version = findings::PerVersion::default();
    for version in versions(old_side.valid) {
        if !new_side.valid.contains(version) {
            per_version.add(version, "", Rule::VersionRemoved, String::new());
            continue;
        }
        let old_flexible = old_side.flexible.contains(version);
        if old_flexible != new_side.flexible.contains(version) {
            per_version.add(
                version,
                "",
                Rule::FlexibilityChanged,
                flexibility(old_flexible).to_owned(),
            );
            // Every length and the tagged section change with it; the fields'
            // findings would only repeat that.
            continue;
        }
        let at = fields::At {
            version,
            flexible: old_flexible,
            types,
            old,
            new,
        };
        at.fields(&mut per_version, "", &old.fields, &new.fields)?;
    }
    found.extend(per_version.into_findings(name));
    Ok(found)
}

/// Every finding between a struct named `name` in the `released` schema (inline
/// in a field, or a commonStruct) and `new_fields`, the fields a newer definition
/// of that struct has, at the released message's versions. For structs that
/// name their released file themselves (the derive's `compatible_with` on a
/// nested struct).
pub fn compare_struct(
    released: &SchemaMessage,
    name: &str,
    new_fields: &[SchemaField],
    types: Types,
) -> Result<Vec<Finding>, CompatError> {
    let Some(old_fields) = resolve::struct_fields(released, name) else {
        return Err(CompatError {
            path: released.name.clone(),
            reason: format!("no struct named `{name}` in the schema"),
        });
    };
    let mut side = Side::of(released)?;
    side.valid = released_of(side.valid, released.latest_version_unstable);
    let mut new = released.clone();
    new.fields = new_fields.to_vec();
    new.common_structs.clear();
    let mut per_version = findings::PerVersion::default();
    for version in versions(side.valid) {
        let at = fields::At {
            version,
            flexible: side.flexible.contains(version),
            types,
            old: released,
            new: &new,
        };
        at.fields(&mut per_version, "", old_fields, new_fields)?;
    }
    Ok(per_version.into_findings(name))
}

/// The versions `message` has released: every valid one but an unstable latest
/// (none when its `validVersions` does not read, which [`compare`] reports).
pub fn released_versions(message: &SchemaMessage) -> VersionRange {
    let valid = meaning::range(Some(&message.valid_versions)).unwrap_or(VersionRange::NONE);
    released_of(valid, message.latest_version_unstable)
}

/// `valid`, without its latest version when that is unstable.
fn released_of(valid: VersionRange, latest_unstable: bool) -> VersionRange {
    match (latest_unstable, valid.min(), valid.max()) {
        (false, _, _) => valid,
        (true, Some(min), Some(max)) if max > min => VersionRange::new(min, max - 1),
        (true, _, _) => VersionRange::NONE,
    }
}

fn flexibility(flexible: bool) -> &'static str {
    if flexible {
        "flexible -> not flexible"
    } else {
        "not flexible -> flexible"
    }
}

/// The message-level ranges of one side.
struct Side {
    valid: VersionRange,
    flexible: VersionRange,
}

impl Side {
    fn of(message: &SchemaMessage) -> Result<Side, CompatError> {
        let read = |key: &str, text: Option<&str>| {
            meaning::range(text).map_err(|reason| CompatError {
                path: message.name.clone(),
                reason: format!("`{key}` {reason}"),
            })
        };
        Ok(Side {
            valid: read("validVersions", Some(&message.valid_versions))?,
            flexible: read("flexibleVersions", message.flexible_versions.as_deref())?,
        })
    }
}

/// The versions of a message's valid range. An open range (`"3+"`, which Kafka's
/// messages never have but a hand-written file might) is taken to its lowest
/// 100 versions: enough to cover every version anyone has released.
fn versions(valid: VersionRange) -> impl Iterator<Item = i16> {
    let (min, max) = match (valid.min(), valid.max()) {
        (Some(min), Some(max)) => (min, max.min(min.saturating_add(99))),
        _ => (1, 0),
    };
    min..=max
}
