//! Rules a message checks on the structs inside it when it is compiled: a nested
//! struct cannot know its message's flexible versions, so the message walks its
//! fields' schemas in `const` context.

use super::{FieldSchema, TypeSchema};
use crate::VersionRange;

/// True when every tagged field inside `ty` is tagged only in versions where the
/// message is `flexible`, counting only versions in which the field is reached at
/// all (`within`: the versions of the fields on the way to it).
pub const fn tags_within_flexible(
    ty: &TypeSchema,
    within: VersionRange,
    flexible: VersionRange,
) -> bool {
    let Some(schema) = ty.struct_schema() else {
        return true;
    };
    let mut i = 0;
    while i < schema.fields.len() {
        let field = &schema.fields[i];
        let reached = within.intersect(field.versions);
        if !flexible.contains_range(field.tagged_versions.intersect(reached)) {
            return false;
        }
        if !tags_within_flexible(&field.ty, reached, flexible) {
            return false;
        }
        i += 1;
    }
    true
}

/// True when every struct inside `ty` that is reached in one of the `flexible`
/// versions keeps the tagged fields it does not know, so a newer peer's tags
/// survive a decode (KIP-482).
pub const fn keeps_unknown_tags_within(ty: &TypeSchema, flexible: VersionRange) -> bool {
    let Some(schema) = ty.struct_schema() else {
        return true;
    };
    if flexible.is_empty() {
        return true;
    }
    if !schema.keeps_unknown_tags {
        return false;
    }
    let mut i = 0;
    while i < schema.fields.len() {
        let field = &schema.fields[i];
        if !keeps_unknown_tags_within(&field.ty, flexible.intersect(field.versions)) {
            return false;
        }
        i += 1;
    }
    true
}

/// Checks, when a struct compiles, what the derive guessed from the spelling of
/// its field types: the fields at `leaves` (spelled as Kafka's scalars, strings,
/// bytes, records or uuids, or arrays or options of them) hold no struct, and
/// `options` (whether each leaf spelled otherwise than `Option`, without nullable
/// versions, is an `Option`) are all false. An alias can hide a struct or an
/// `Option` behind such a name; then the checks the derive left out would be
/// needed, and this stops the build instead. One call per struct rather than an
/// `assert!` per field: each `const` item costs the front end.
pub const fn leaves_are_leaves(fields: &[FieldSchema], leaves: &[usize], options: &[bool]) {
    if !hold_no_struct(fields, leaves) {
        panic!("a field's type is spelled as a Kafka scalar, string, bytes, records or uuid type, but it holds a struct: refer to the struct by a name of its own");
    }
    let mut i = 0;
    while i < options.len() {
        if options[i] {
            panic!("a field's type is spelled as a Kafka scalar, string, bytes, records or uuid type, but it is an `Option`: spell it `Option<...>`, with `nullable` versions");
        }
        i += 1;
    }
}

const fn hold_no_struct(fields: &[FieldSchema], indices: &[usize]) -> bool {
    let mut i = 0;
    while i < indices.len() {
        let index = indices[i];
        if index < fields.len() && fields[index].ty.struct_schema().is_some() {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{MinSizes, StructSchema};

    const fn tagged_from(version: i16) -> FieldSchema {
        let mut field = FieldSchema::new("Hint", TypeSchema::Int32, VersionRange::at_least(0));
        field.tag = Some(0);
        field.tagged_versions = VersionRange::at_least(version);
        field
    }

    const CHILD: StructSchema = StructSchema {
        name: "Child",
        fields: &[tagged_from(2)],
        keeps_unknown_tags: false,
        min_sizes: MinSizes::UNTABULATED,
    };
    const CHILDREN: TypeSchema = TypeSchema::Array(&TypeSchema::Struct(&CHILD));

    #[test]
    fn tags_count_only_where_the_field_is_reached() {
        let all = VersionRange::ALL;
        assert!(tags_within_flexible(
            &CHILDREN,
            all,
            VersionRange::at_least(2)
        ));
        assert!(!tags_within_flexible(
            &CHILDREN,
            all,
            VersionRange::at_least(3)
        ));
        // Reached only up to version 1, the tag from version 2 never shows.
        assert!(tags_within_flexible(
            &CHILDREN,
            VersionRange::new(0, 1),
            VersionRange::at_least(3)
        ));
        assert!(tags_within_flexible(
            &TypeSchema::Int32,
            all,
            VersionRange::NONE
        ));
    }

    #[test]
    fn a_struct_behind_a_scalar_spelling_is_found() {
        const FIELDS: &[FieldSchema] = &[
            FieldSchema::new("Id", TypeSchema::Int32, VersionRange::ALL),
            FieldSchema::new("Children", CHILDREN, VersionRange::ALL),
        ];
        assert!(hold_no_struct(FIELDS, &[0]));
        assert!(!hold_no_struct(FIELDS, &[0, 1]));
        assert!(hold_no_struct(FIELDS, &[]));
    }

    #[test]
    fn structs_in_flexible_versions_must_keep_unknown_tags() {
        assert!(!keeps_unknown_tags_within(
            &CHILDREN,
            VersionRange::at_least(1)
        ));
        assert!(keeps_unknown_tags_within(&CHILDREN, VersionRange::NONE));
        assert!(keeps_unknown_tags_within(
            &TypeSchema::String,
            VersionRange::ALL
        ));
    }
}
