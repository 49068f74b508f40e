//! Each finding of the compatibility rules as a compile error on the token that
//! made it: the attribute value that changed, or the field's name when the
//! attribute was dropped.

use kwire_schema::compat::{Finding, Rule};
use kwire_version::VersionRange;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::LitStr;

use crate::model::{Container, DefaultValue, Field};

/// The struct being compiled and the `compatible_with` literal naming its file.
pub struct Target<'a> {
    pub container: &'a Container,
    pub lit: &'a LitStr,
    /// The file as written.
    pub file: &'a str,
}

impl Target<'_> {
    /// Where `finding` is reported, and what it says.
    pub fn error(&self, finding: &Finding) -> (Span, String) {
        let file = self.file;
        let v = released(finding.versions);
        let those = those(finding.versions);
        let (old, new) = split(&finding.detail);
        let owner = &self.container.ident;
        let Some(field) = finding.field() else {
            return self.message_error(finding, &v, those, old, new);
        };
        // A renamed field goes by its new name; every other by the released one.
        let now_named = if finding.rule == Rule::FieldRenamed {
            new
        } else {
            field
        };
        let found = self
            .field(now_named)
            .filter(|_| !finding.path.contains('.'));
        let Some(found) = found else {
            // Gone from the struct: only the file names it.
            return (
                self.lit.span(),
                match finding.rule {
                    Rule::FieldRemoved => format!(
                        "`{field}` is in released {v} of `{owner}` ({file}); removing it breaks {those}"
                    ),
                    _ => format!("{finding}, against the released {file}"),
                },
            );
        };
        let name = &found.ident;
        let on_name = found.name_span;
        match finding.rule {
            Rule::FieldRemoved => (
                found.versions.span,
                format!("`{name}` is in released {v} ({file}); taking it out breaks {those}"),
            ),
            Rule::FieldAdded => (
                found.versions.span,
                format!(
                    "`{name}` is not in released {v} ({file}); adding it breaks {those}: \
                     add it at a new version, or as a tagged field"
                ),
            ),
            Rule::FieldRenamed => (
                on_name,
                format!("`{name}` is named `{old}` in released {v} ({file}); renaming it changes the JSON form of {those}"),
            ),
            Rule::FieldMoved => (
                on_name,
                format!("`{name}` has another place in released {v} ({file}); moving it breaks {those}"),
            ),
            Rule::NullabilityChanged => (
                found.nullable.map_or(on_name, |n| n.span),
                format!("`{name}` is {old} in released {v} ({file}); making it {new} breaks {those}"),
            ),
            Rule::TaggingChanged => (
                found.tagged.span,
                format!("`{name}` is {old} in released {v} ({file}); making it {new} breaks {those}"),
            ),
            Rule::TagChanged => (
                found.tag.map_or(found.tagged.span, |t| t.span),
                format!(
                    "`{name}` has tag {old} in released {v} ({file}); changing it to {new} breaks {those}"
                ),
            ),
            Rule::DefaultChanged => (
                found.default.as_ref().map_or(on_name, default_span),
                format!(
                    "`{name}` is not in the body of released {v} ({file}), whose readers get \
                     its default, {old}; changing that to {new} breaks {those}"
                ),
            ),
            Rule::FieldFlexibilityChanged => (
                found.flexible.map_or(on_name, |f| f.span),
                format!(
                    "`{name}` has its own compact encoding changed in released {v} ({file}, {}); \
                     that breaks {those}",
                    finding.detail
                ),
            ),
            _ => (on_name, format!("{finding}, against the released {file}")),
        }
    }

    fn message_error(
        &self,
        finding: &Finding,
        v: &str,
        those: &str,
        old: &str,
        new: &str,
    ) -> (Span, String) {
        let file = self.file;
        let owner = &self.container.ident;
        let attrs = self.container.message.as_ref();
        let ident = owner.span();
        match finding.rule {
            Rule::VersionRemoved => (
                attrs.map_or(ident, |m| m.versions.span),
                format!(
                    "`{owner}` no longer accepts released {v} ({file}); removing a released \
                     version breaks its peers"
                ),
            ),
            Rule::FlexibilityChanged => (
                attrs.map_or(ident, |m| m.flexible.span),
                format!("`{owner}` is {old} in released {v} ({file}); making it {new} breaks {those}"),
            ),
            Rule::ApiKeyChanged => (
                attrs.and_then(|m| m.api_key).map_or(ident, |k| k.span),
                format!(
                    "`{owner}` has API key {old} in released {v} ({file}); changing it to {new} breaks {those}"
                ),
            ),
            Rule::KindChanged => (
                attrs.map_or(ident, |m| m.kind_span),
                format!("`{owner}` is a {old} in released {v} ({file}); making it a {new} breaks {those}"),
            ),
            _ => (self.lit.span(), format!("{finding}, against the released {file}")),
        }
    }

    /// The field whose schema name is `name`.
    fn field(&self, name: &str) -> Option<&Field> {
        self.container.fields.iter().find(|f| f.name == name)
    }
}

/// `version 2` or `versions 0-2`.
pub fn released(versions: VersionRange) -> String {
    match (versions.min(), versions.max()) {
        (Some(min), Some(max)) if min == max => format!("version {min}"),
        (Some(min), Some(max)) => format!("versions {min}-{max}"),
        _ => "versions".to_owned(),
    }
}

/// What a change breaks: `that version` or `those versions`.
pub fn those(versions: VersionRange) -> &'static str {
    match (versions.min(), versions.max()) {
        (Some(min), Some(max)) if min == max => "that version",
        _ => "those versions",
    }
}

/// A finding's `old -> new` detail as its two sides.
fn split(detail: &str) -> (&str, &str) {
    detail.split_once(" -> ").unwrap_or((detail, ""))
}

fn default_span(default: &DefaultValue) -> Span {
    match default {
        DefaultValue::Null(span) => *span,
        DefaultValue::Literal { expr, .. } => expr.span(),
        DefaultValue::Str(lit) => lit.span(),
    }
}
