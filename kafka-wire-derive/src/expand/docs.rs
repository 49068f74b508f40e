//! The schema in the struct's rustdoc: a derive cannot add docs to the user's struct
//! or fields, but the impl it emits can carry them, and rustdoc shows an inherent
//! impl's docs on the struct's page. So each field's versions, nullable and tagged
//! versions, ignorability and default appear there as a table, made from the same
//! attributes the codec is, so that it cannot drift from them.

use std::fmt::Write as _;

use crate::model::{Container, DefaultValue, Field};
use crate::range::Range;

/// The Markdown of the struct's schema table.
pub fn schema_table(container: &Container) -> String {
    let mut doc = String::from("# Schema\n\n");
    match &container.message {
        Some(message) => {
            let _ = writeln!(
                doc,
                "`{}` exists in versions {}; flexible versions: {}.",
                container.name,
                range(message.versions.range),
                range(message.flexible.range),
            );
        }
        None => {
            let _ = writeln!(
                doc,
                "`{}` is written at the version of the message that holds it.",
                container.name
            );
        }
    }
    if container.fields.is_empty() {
        doc.push_str("\nIt has no fields.\n");
        return doc;
    }
    doc.push_str(
        "\n| Field | Kafka name | Versions | Nullable | Tagged (tag) | Ignorable | Default |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for field in &container.fields {
        row(&mut doc, field);
    }
    doc.push_str(
        "\nA version outside a field's versions lacks it: writing a non-default value \
         there is an error, or, when the field is ignorable, drops the value \
         ([`Message::encode_strict`](kwire::Message::encode_strict) refuses that too). A default of \u{2014} is the \
         type's own: zero, false or empty (records: null).\n",
    );
    if container.unknown_field().is_some() {
        doc.push_str("\nTags this code does not know are kept, and written back unchanged.\n");
    }
    doc
}

fn row(doc: &mut String, field: &Field) {
    let ident = field.ident.to_string();
    let ident = ident.strip_prefix("r#").unwrap_or(&ident);
    let nullable = field.nullable.map_or(Range::NONE, |n| n.range);
    let tagged = match field.tag_number() {
        Some(tag) if !field.tagged.range.is_empty() => {
            format!("{} ({tag})", range(field.tagged.range))
        }
        _ => "\u{2014}".to_owned(),
    };
    let default = field
        .default
        .as_ref()
        .map_or_else(|| "\u{2014}".to_owned(), default_text);
    let _ = writeln!(
        doc,
        "| `{ident}` | {} | {} | {} | {tagged} | {} | {default} |",
        field.name,
        range(field.versions.range),
        range(nullable),
        if field.ignorable { "yes" } else { "no" },
    );
}

/// A range as Kafka writes it, `—` for none.
fn range(range: Range) -> String {
    if range.is_empty() {
        "\u{2014}".to_owned()
    } else {
        range.to_string()
    }
}

/// A default as a code span; a string's quoted, so that the empty string shows.
fn default_text(default: &DefaultValue) -> String {
    let text = match default {
        DefaultValue::Str(s) => format!("{:?}", s.value()),
        other => other.schema_text(),
    };
    code_span(&text)
}

/// `text` as a Markdown code span inside a table cell: fenced by more backticks than
/// it holds in a row, and with its pipes escaped, which GFM tables require even
/// inside code.
fn code_span(text: &str) -> String {
    let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run + 1);
    let pad = if longest_run > 0 { " " } else { "" };
    let text = text.replace('|', "\\|");
    format!("{fence}{pad}{text}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_stay_inside_their_cell() {
        assert_eq!(code_span("-1"), "`-1`");
        assert_eq!(code_span("\"a|b\""), "`\"a\\|b\"`");
        assert_eq!(code_span("x`y"), "`` x`y ``");
    }

    #[test]
    fn every_field_is_a_row() {
        let input: syn::DeriveInput = syn::parse_quote! {
            /// A message.
            #[kafka(kind = data, versions = "0-3", flexible = "2+")]
            struct M {
                /// Plain.
                #[kafka(versions = "0+")]
                plain: i32,
                /// Nullable, ignorable, with a default.
                #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
                r#type: Option<String>,
                /// Tagged.
                #[kafka(versions = "2+", tag = 0, default = "x|y")]
                note: String,
                /// Unknown tags.
                #[kafka(unknown_tagged)]
                unknown: kwire::UnknownTaggedFields,
            }
        };
        let mut errors = crate::errors::Errors::new();
        let raw = crate::attr::parse(&input, &mut errors);
        let container = crate::model::build(&raw, crate::model::Derive::Message, &mut errors)
            .expect("the model builds");
        assert!(errors.finish().is_ok());
        let table = schema_table(&container);
        assert!(table.contains("`M` exists in versions 0-3; flexible versions: 2+."));
        assert!(table.contains("| `plain` | Plain | 0+ | \u{2014} | \u{2014} | no | \u{2014} |"));
        assert!(table.contains("| `type` | Type | 1+ | 1+ | \u{2014} | yes | `null` |"));
        assert!(table.contains("| `note` | Note | 2+ | \u{2014} | 2+ (0) | no | `\"x\\|y\"` |"));
        assert!(table.contains("Tags this code does not know are kept"));
    }
}
