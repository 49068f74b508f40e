//! Kafka's presence rule: whether a field's value may be written at a version, and
//! may be taken when read, as the JSON form (`json::field`) and strict encoding ask
//! it of a field's schema at run time, each turning a [`Refusal`] into its own typed
//! error. The binary codec ([`FieldRules`]) applies the same rule as the derive
//! works it out from the same attributes when the program compiles: one comparison
//! of the version per field, and [`absent`](super::absent) for a refused value; the
//! `presence_rules_agree` tests hold the two to the same answers.
//!
//! - A version that lacks a field: the value is dropped when the field is
//!   ignorable or the value its default, and refused otherwise (Kafka's
//!   "Attempted to write a non-default ... at version"). Reading Kafka's JSON form,
//!   a value given for such a field is taken on the same terms: a value that could
//!   not be written at the version is not accepted from it either.
//! - Null only in the versions where the field is nullable.
//!
//! Strict encoding ([`Message::encode_strict`](crate::Message::encode_strict)) drops
//! nothing: an ignorable field's non-default value at a version that lacks the
//! field is refused rather than dropped ([`drops_value`]). Only the binary codec
//! offers it; the JSON form follows Kafka's rule.
//!
//! What is particular to one form stays there: the binary codec leaves a tagged
//! field's value to its tagged section (null is checked only when it is written),
//! and Kafka's JSON reading requires every field the version has.
//!
//! [`FieldRules`]: super::FieldRules

use crate::schema::FieldSchema;

/// Why Kafka's rules refuse a field's value at a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(feature = "json"), allow(dead_code))]
pub(crate) enum Refusal {
    /// The version lacks the field, which is not ignorable, and the value is not
    /// its default: the value would be lost.
    NotInVersion,
    /// Null, where the version does not allow it.
    NullNotAllowed,
}

/// Whether `version` has `field`: `Ok(true)` when it does; `Ok(false)` when it
/// lacks it and the value may be dropped (the field is ignorable or the value
/// holds its default; `holds_default` is asked only then); refused otherwise.
#[inline(always)]
#[cfg_attr(not(feature = "json"), allow(dead_code))]
pub(crate) fn in_version(
    field: &FieldSchema,
    version: i16,
    holds_default: impl FnOnce() -> bool,
) -> Result<bool, Refusal> {
    if field.versions.contains(version) {
        Ok(true)
    } else if field.ignorable || holds_default() {
        Ok(false)
    } else {
        Err(Refusal::NotInVersion)
    }
}

/// The strict rule: true when writing at `version` would lose the field's value,
/// because the version lacks the field and the value is not its default
/// (`holds_default`, asked only then). Kafka's rule drops such a value silently when
/// the field is ignorable ([`in_version`]); the strict rule refuses it.
#[inline(always)]
pub(crate) fn drops_value(
    field: &FieldSchema,
    version: i16,
    holds_default: impl FnOnce() -> bool,
) -> bool {
    !field.versions.contains(version) && !holds_default()
}

/// Refuses a null value (`is_null`) at a `version` in which `field` is not
/// nullable.
#[inline(always)]
#[cfg_attr(not(feature = "json"), allow(dead_code))]
pub(crate) fn null_allowed(
    field: &FieldSchema,
    version: i16,
    is_null: bool,
) -> Result<(), Refusal> {
    if is_null && !field.is_nullable_at(version) {
        Err(Refusal::NullNotAllowed)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::TypeSchema;
    use crate::VersionRange;

    /// A field of versions 1+, nullable from 2, ignorable or not.
    const fn field(ignorable: bool) -> FieldSchema {
        let mut field = FieldSchema::new("Note", TypeSchema::String, VersionRange::at_least(1));
        field.nullable_versions = VersionRange::at_least(2);
        field.ignorable = ignorable;
        field
    }

    #[test]
    fn a_version_that_lacks_the_field_drops_only_what_can_be_lost() {
        let (kept, ignorable) = (field(false), field(true));
        let never =
            || -> bool { panic!("the default is asked only when the version lacks the field") };
        assert_eq!(in_version(&kept, 1, never), Ok(true));
        assert_eq!(in_version(&kept, 0, || true), Ok(false));
        assert_eq!(in_version(&kept, 0, || false), Err(Refusal::NotInVersion));
        assert_eq!(in_version(&ignorable, 0, || false), Ok(false));
    }

    #[test]
    fn strictly_an_ignorable_value_is_refused_where_kafka_drops_it() {
        let ignorable = field(true);
        let never =
            || -> bool { panic!("the default is asked only when the version lacks the field") };
        assert!(!drops_value(&ignorable, 1, never));
        assert!(!drops_value(&ignorable, 0, || true));
        assert!(drops_value(&ignorable, 0, || false));
        // Where Kafka's rule drops it.
        assert_eq!(in_version(&ignorable, 0, || false), Ok(false));
    }

    #[test]
    fn null_only_where_nullable() {
        let field = field(false);
        assert_eq!(null_allowed(&field, 2, true), Ok(()));
        assert_eq!(null_allowed(&field, 1, true), Err(Refusal::NullNotAllowed));
        assert_eq!(null_allowed(&field, 1, false), Ok(()));
    }
}
