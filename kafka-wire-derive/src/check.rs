//! Stage 3, validate: the rules that relate attributes to each other, Kafka's
//! generator's rules and some it lacks. Every broken rule is reported.

use darling::error::Accumulator;
use darling::Error;

use crate::model::{Container, DefaultValue, Field, Kind, MessageAttrs};

fn error(errors: &mut Accumulator, span: proc_macro2::Span, message: impl std::fmt::Display) {
    errors.push(Error::custom(message).with_span(&span));
}

fn message_rules(message: &MessageAttrs, errors: &mut Accumulator) {
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
                versions.range, versions.range.min
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
        (Kind::Header | Kind::Data, Some((_, span))) => error(
            errors,
            span,
            "only requests and responses have an `api_key`",
        ),
        _ => {}
    }
    // Kafka's generator: both keys are meaningful for requests only.
    if message.kind != Kind::Request {
        if let Some(span) = message.listeners_span {
            error(errors, span, "only requests have `listeners`");
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

fn field_rules(field: &Field, message: Option<&MessageAttrs>, errors: &mut Accumulator) {
    let versions = field.versions;
    if versions.range.is_empty() {
        error(errors, versions.span, "a field needs at least one version");
    } else if let Some(message) = message.filter(|m| !m.versions.range.is_empty()) {
        // An empty message range is reported on its own; every field would be outside it.
        // Fields of removed versions stay in Kafka's schemas (ShareFetchRequest keeps
        // a v0-only field after v0 was dropped), so only a field that starts after the
        // message's last version is a mistake.
        if versions.range.min > message.versions.range.max {
            error(
                errors,
                versions.span,
                format!(
                    "field `{}` has versions `{}`, outside the message's versions `{}`",
                    field.name, versions.range, message.versions.range
                ),
            );
        }
    }
    if let Some(nullable) = field.nullable {
        // Kafka's schemas sometimes start nullable versions before the field exists
        // (CreateTopicsResponse ErrorMessage: versions 1+, nullable 0+), which is
        // harmless; a nullable range that reaches past the field, or misses it, is not.
        let n = nullable.range;
        if n.is_empty() || n.max > versions.range.max || !n.overlaps(versions.range) {
            error(
                errors,
                nullable.span,
                format!(
                    "nullable versions `{}` are outside the field's versions `{}`",
                    n, versions.range
                ),
            );
        }
    }
    if let Some(DefaultValue::Null(span)) = &field.default {
        // Kafka's generator: null is a default only when every version may hold it.
        let nullable = field
            .nullable
            .map_or(crate::range::Range::NONE, |n| n.range);
        if !nullable.contains_range(versions.range) {
            error(
                errors,
                *span,
                format!(
                    "`null` cannot be the default of field `{}`: it is not nullable in all its versions `{}` (nullable: `{}`)",
                    field.name, versions.range, nullable
                ),
            );
        }
    }
    if field.tag.is_some() {
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
        } else if !versions.range.contains_range(tagged.range) {
            error(
                errors,
                tagged.span,
                format!(
                    "tagged versions `{}` are outside the field's versions `{}`",
                    tagged.range, versions.range
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
                        field.name, tagged.range, message.flexible.range
                    ),
                );
            }
        }
        if let Some(span) = field.map_key {
            error(errors, span, "a tagged field cannot be a map key");
        }
    }
    if let Some(flexible) = field.flexible {
        if !flexible.range.is_empty() && !flexible.range.is_open_ended() {
            error(
                errors,
                flexible.span,
                "a flexible versions override must be open-ended (`N+`) or `none`",
            );
        }
    }
}

/// Schema names are unique within a struct, as Kafka requires; `name` overrides
/// can make two fields collide.
fn name_rules(fields: &[Field], errors: &mut Accumulator) {
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

/// Tags of one struct: non-negative (checked when parsed), unique, and 0, 1, 2, …
/// without gaps, as Kafka requires.
fn tag_rules(fields: &[Field], complete: bool, errors: &mut Accumulator) {
    let mut tags: Vec<(u32, proc_macro2::Span)> = fields.iter().filter_map(|f| f.tag).collect();
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
    // A field that failed to parse leaves a gap that is not the user's mistake.
    if !complete {
        return;
    }
    tags.sort_by_key(|(tag, _)| *tag);
    tags.dedup_by_key(|(tag, _)| *tag);
    for (expected, (tag, span)) in tags.iter().enumerate() {
        if *tag as usize != expected {
            error(
                errors,
                *span,
                format!("tags must run 0, 1, 2, … without gaps: tag {expected} is missing before tag {tag}"),
            );
            break;
        }
    }
}

/// Runs every rule and records what fails.
pub fn check(container: &Container, errors: &mut Accumulator) {
    if let Some(message) = &container.message {
        message_rules(message, errors);
    }
    for field in &container.fields {
        field_rules(field, container.message.as_ref(), errors);
    }
    name_rules(&container.fields, errors);
    tag_rules(&container.fields, !container.incomplete, errors);
}
