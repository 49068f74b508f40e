//! The rules about attribute values and how they relate: Kafka's generator's rules
//! and some it lacks. Every broken rule is reported, each on its token.

use crate::errors::Errors;
use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::entity_types;
use crate::keys::Place;
use crate::model::{Container, DefaultValue, Derive, Field, Kind, MessageAttrs};
use crate::range::{self, Range};

fn error(errors: &mut Errors, span: Span, message: impl std::fmt::Display) {
    errors.at(span, message);
}

/// Kafka's rule for names, `[A-Za-z][A-Za-z0-9]*`.
fn is_schema_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric())
}

fn schema_name_rule(name: &str, span: Span, errors: &mut Errors) {
    if !is_schema_name(name) {
        error(
            errors,
            span,
            format!("`{name}` is not a Kafka schema name: use ASCII letters and digits, starting with a letter"),
        );
    }
}

/// Rules on the struct as a whole.
pub fn container_rules(container: &Container, errors: &mut Errors) {
    if let Some(param) = container.generics.params.first() {
        errors.on(param, "kafka-wire structs cannot be generic");
    }
    if container.derive == Derive::Struct {
        for (key, span) in &container.keys {
            if key.place == Place::Message {
                error(
                    errors,
                    *span,
                    format!("`{}` belongs on a top-level `Message`; a nested `Struct` gets its versions and flexibility from its parent", key.name),
                );
            }
        }
    }
    // Only an override is checked: a Rust type name is the user's to choose.
    if let Some(name) = &container.name_override {
        schema_name_rule(&name.value(), name.span(), errors);
    }
    if let Some(message) = &container.message {
        message_rules(message, errors);
        if !message.flexible.range.is_empty() && container.unknown_tagged.is_empty() {
            error(
                errors,
                container.ident.span(),
                format!(
                    "`{}` has flexible versions (`{}`) but no field for unknown tagged fields, so a newer peer's tags would fail to decode: add `#[kafka(unknown_tagged)] pub unknown_tagged_fields: kwire::UnknownTaggedFields`",
                    container.ident, message.flexible.range
                ),
            );
        }
    }
    for (i, unknown) in container.unknown_tagged.iter().enumerate() {
        if i > 0 {
            error(
                errors,
                unknown.key_span,
                "only one field may hold unknown tagged fields",
            );
        }
        if unknown
            .keys
            .iter()
            .any(|(key, _)| key.name != "unknown_tagged")
        {
            error(
                errors,
                unknown.key_span,
                "`unknown_tagged` stands alone: the field holds unknown tags, it has no schema",
            );
        }
    }
}

fn message_rules(message: &MessageAttrs, errors: &mut Errors) {
    let versions = message.versions;
    if versions.range.is_empty() {
        error(
            errors,
            versions.span,
            "a message needs at least one version",
        );
    } else if versions.range.is_open_ended() {
        error(
            errors,
            versions.span,
            format!(
                "a message's versions need a bounded maximum: `{}` has none (write `{}-N`)",
                versions.range,
                range::lowest(versions.range)
            ),
        );
    }
    let flexible = message.flexible;
    if !flexible.range.is_empty() && !flexible.range.is_open_ended() {
        error(
            errors,
            flexible.span,
            "flexible versions must be open-ended (`N+`) or `none`",
        );
    }
    match (message.kind, message.api_key) {
        (Kind::Request | Kind::Response, None) => error(
            errors,
            message.kind_span,
            "requests and responses need an `api_key`",
        ),
        (Kind::Header | Kind::Data, Some(key)) => error(
            errors,
            key.span,
            "only requests and responses have an `api_key`",
        ),
        (_, Some(key)) if !(0..=i128::from(i16::MAX)).contains(&key.value) => {
            error(errors, key.span, "`api_key` must be 0 to 32767");
        }
        _ => {}
    }
    // Kafka's generator: both keys are meaningful for requests only.
    if message.kind != Kind::Request {
        if let Some(span) = message.listeners_span {
            error(errors, span, "only requests have `listeners`");
        }
        if let Some(response) = &message.response {
            error(errors, response.span(), "only requests name a `response`");
        }
        if let Some(span) = message.latest_version_unstable {
            error(
                errors,
                span,
                "only requests can have an unstable latest version",
            );
        }
    }
}

/// Rules on one field.
pub fn field_rules(field: &Field, message: Option<&MessageAttrs>, errors: &mut Errors) {
    schema_name_rule(&field.name, field.name_span, errors);
    versions_rules(field, message, errors);
    nullable_rules(field, errors);
    tag_rules(field, message, errors);
    if let Some(flexible) = field.flexible {
        if !flexible.range.is_empty() && !flexible.range.is_open_ended() {
            error(
                errors,
                flexible.span,
                "a flexible versions override must be open-ended (`N+`) or `none`",
            );
        }
    }
    if let Some(entity) = &field.entity_type {
        if entity_types::required_trait(&entity.value()).is_none() {
            error(
                errors,
                entity.span(),
                format!(
                    "unknown entity type `{}`: Kafka knows {}",
                    entity.value(),
                    entity_types::names()
                ),
            );
        }
    }
}

fn versions_rules(field: &Field, message: Option<&MessageAttrs>, errors: &mut Errors) {
    let versions = field.versions;
    if versions.range.is_empty() {
        error(errors, versions.span, "a field needs at least one version");
        return;
    }
    // An empty message range is reported on its own; every field would be outside it.
    // Fields of removed versions stay in Kafka's schemas (ShareFetchRequest keeps a
    // v0-only field after v0 was dropped), so only a field that starts after the
    // message's last version is a mistake.
    if let Some(message) = message.filter(|m| !m.versions.range.is_empty()) {
        if range::lowest(versions.range) > range::highest(message.versions.range) {
            error(
                errors,
                versions.span,
                format!(
                    "field `{}` has versions `{}`, outside the message's versions `{}`",
                    field.ident, versions.range, message.versions.range
                ),
            );
        }
    }
}

fn nullable_rules(field: &Field, errors: &mut Errors) {
    let versions = field.versions.range;
    if let Some(nullable) = field.nullable {
        // Kafka's schemas sometimes start nullable versions before the field exists
        // (CreateTopicsResponse ErrorMessage: versions 1+, nullable 0+), which is
        // harmless; a nullable range that reaches past the field, or misses it, is not.
        let n = nullable.range;
        if n.is_empty()
            || range::highest(n) > range::highest(versions)
            || !range::overlaps(n, versions)
        {
            error(
                errors,
                nullable.span,
                format!("nullable versions `{n}` are outside the field's versions `{versions}`"),
            );
        }
    }
    if let Some(DefaultValue::Null(span)) = &field.default {
        // Kafka's generator: null is a default only when every version may hold it.
        let nullable = field.nullable.map_or(Range::NONE, |n| n.range);
        if !nullable.contains_range(versions) {
            error(
                errors,
                *span,
                format!(
                    "`null` cannot be the default of field `{}`: it is not nullable in all its versions `{versions}` (nullable: `{nullable}`)",
                    field.ident
                ),
            );
        }
    }
}

fn tag_rules(field: &Field, message: Option<&MessageAttrs>, errors: &mut Errors) {
    if let Some(span) = field.tagged_without_tag {
        error(errors, span, "`tagged` versions need a `tag`");
    }
    let Some(tag) = field.tag else {
        return;
    };
    if tag.value < 0 {
        error(errors, tag.span, "tags must not be negative");
    } else if tag.value > i128::from(i32::MAX) {
        error(
            errors,
            tag.span,
            "tag is too large: tags are at most 2147483647",
        );
    }
    let versions = field.versions.range;
    let tagged = field.tagged;
    if tagged.range.is_empty() {
        error(errors, tagged.span, "a tagged field needs tagged versions");
    } else if !tagged.range.is_open_ended() {
        error(
            errors,
            tagged.span,
            format!(
                "tagged versions must be open-ended (`N+`), not `{}`",
                tagged.range
            ),
        );
    } else if !versions.contains_range(tagged.range) {
        error(
            errors,
            tagged.span,
            format!(
                "tagged versions `{}` are outside the field's versions `{versions}`",
                tagged.range
            ),
        );
    }
    if let Some(nullable) = field.nullable {
        // Kafka's generator: a tagged field is null-capable in all its tagged
        // versions or in none of them.
        let both = nullable.range.intersect(tagged.range);
        if !both.is_empty() && both != tagged.range {
            error(
                errors,
                nullable.span,
                format!(
                    "nullable versions `{}` cover only part of the tagged versions `{}`: make all tagged versions nullable or none",
                    nullable.range, tagged.range
                ),
            );
        }
    }
    if let Some(message) = message {
        if !message.flexible.range.contains_range(tagged.range) {
            error(
                errors,
                tagged.span,
                format!(
                    "tagged field `{}` is tagged in versions `{}`, but the message is flexible only in `{}`",
                    field.ident, tagged.range, message.flexible.range
                ),
            );
        }
    }
    if let Some(span) = field.map_key {
        error(errors, span, "a tagged field cannot be a map key");
    }
}

/// Schema names are unique within a struct, as Kafka requires; `name` overrides
/// can make two fields collide.
pub fn name_rules(fields: &[Field], errors: &mut Errors) {
    let mut seen = std::collections::BTreeSet::new();
    for field in fields {
        if !seen.insert(field.name.as_str()) {
            error(
                errors,
                field.name_span,
                format!("two fields of this struct are named `{}`", field.name),
            );
        }
    }
}

/// Tags of one struct: unique, and 0, 1, 2, … without gaps, as Kafka requires.
pub fn tags_of_struct(fields: &[Field], complete: bool, errors: &mut Errors) {
    let mut tags: Vec<(i128, Span)> = fields
        .iter()
        .filter_map(|f| f.tag.map(|t| (t.value, t.span)))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for (tag, span) in &tags {
        if !seen.insert(*tag) {
            error(
                errors,
                *span,
                format!("tag {tag} is used twice in this struct"),
            );
        }
    }
    // A field that failed to parse leaves a gap that is not the user's mistake; a
    // tag out of range is reported on its own.
    let in_range = |tag: &i128| (0..=i128::from(i32::MAX)).contains(tag);
    if !complete || !tags.iter().all(|(tag, _)| in_range(tag)) {
        return;
    }
    tags.sort_by_key(|(tag, _)| *tag);
    tags.dedup_by_key(|(tag, _)| *tag);
    for (expected, (tag, span)) in tags.iter().enumerate() {
        if *tag != expected as i128 {
            error(
                errors,
                *span,
                format!("tags must run 0, 1, 2, … without gaps: tag {expected} is missing before tag {tag}"),
            );
            break;
        }
    }
}
