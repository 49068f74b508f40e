//! Stage 1, parse: the `#[kafka(...)]` attributes as written, read by `darling`.
//!
//! Nothing is interpreted here beyond syntax. The struct attribute and each field's
//! attribute are read separately, with unknown keys allowed, and the keys as
//! written are kept for the check stage (see `keys`), so that a typo in one place
//! does not hide every other mistake.

use darling::error::Accumulator;
use darling::util::Flag;
use darling::{Error, FromDeriveInput, FromField, FromMeta};
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, DeriveInput, Expr, Generics, Ident, LitStr, Type};

use crate::keys;

/// Any expression, kept exactly as written (darling would parse the inside of a
/// string literal as an expression, which loses string defaults).
#[derive(Debug, Clone)]
pub struct RawExpr(pub Expr);

impl FromMeta for RawExpr {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match expr {
            Expr::Group(group) => Self::from_expr(&group.expr),
            other => Ok(RawExpr(other.clone())),
        }
    }
}

/// The struct-level attribute.
#[derive(Debug, FromDeriveInput)]
#[darling(attributes(kafka), forward_attrs(doc), allow_unknown_fields)]
pub struct RawContainer {
    pub ident: Ident,
    pub generics: Generics,
    pub attrs: Vec<Attribute>,
    /// The schema name when it differs from the Rust name.
    pub name: Option<LitStr>,
    /// `request`, `response`, `header` or `data`.
    pub kind: Option<RawExpr>,
    pub api_key: Option<RawExpr>,
    pub versions: Option<LitStr>,
    pub flexible: Option<LitStr>,
    pub listeners: Option<LitStr>,
    pub latest_version_unstable: Flag,
    /// A request's response type.
    pub response: Option<RawExpr>,
}

/// One field's attribute.
#[derive(Debug, FromField)]
#[darling(attributes(kafka), forward_attrs(doc), allow_unknown_fields)]
pub struct RawField {
    pub ident: Option<Ident>,
    pub vis: syn::Visibility,
    pub ty: Type,
    pub attrs: Vec<Attribute>,
    pub name: Option<LitStr>,
    pub versions: Option<LitStr>,
    pub nullable: Option<LitStr>,
    pub tag: Option<RawExpr>,
    pub tagged: Option<LitStr>,
    pub ignorable: Flag,
    pub default: Option<RawExpr>,
    pub flexible: Option<LitStr>,
    pub map_key: Flag,
    pub entity_type: Option<LitStr>,
    pub zero_copy: Flag,
    pub unknown_tagged: Flag,
}

/// The keys of one attribute as written, each with its span.
pub type UsedKeys = Vec<(String, Span)>;

/// The struct as read: `None` where an attribute could not be read at all (its
/// errors are already recorded).
pub struct RawInput {
    pub container: Option<RawContainer>,
    pub container_keys: UsedKeys,
    pub fields: Vec<RawFieldInput>,
}

/// One field as read.
pub struct RawFieldInput {
    pub parsed: Option<RawField>,
    pub keys: UsedKeys,
}

/// Reads the struct attribute and every field attribute, recording all errors.
pub fn parse(input: &DeriveInput, errors: &mut Accumulator) -> RawInput {
    let fields = match named_fields(input) {
        Ok(fields) => fields,
        Err(error) => {
            errors.push(error);
            return RawInput {
                container: None,
                container_keys: Vec::new(),
                fields: Vec::new(),
            };
        }
    };
    let container = errors.handle(RawContainer::from_derive_input(input));
    let fields = fields
        .named
        .iter()
        .map(|field| RawFieldInput {
            parsed: errors.handle(RawField::from_field(field)),
            keys: keys::used(&field.attrs),
        })
        .collect();
    RawInput {
        container,
        container_keys: keys::used(&input.attrs),
        fields,
    }
}

/// The fields of a struct with named fields; anything else is an error spanned on
/// what makes it different (darling's shape check would span the derive).
fn named_fields(input: &DeriveInput) -> Result<&syn::FieldsNamed, Error> {
    let message = "kafka-wire derives structs with named fields, one per schema field";
    match &input.data {
        syn::Data::Struct(data) => match &data.fields {
            syn::Fields::Named(named) => Ok(named),
            syn::Fields::Unnamed(unnamed) => Err(Error::custom(message).with_span(unnamed)),
            syn::Fields::Unit => Err(Error::custom(message).with_span(&input.ident)),
        },
        syn::Data::Enum(data) => Err(Error::custom(message).with_span(&data.enum_token.span())),
        syn::Data::Union(data) => Err(Error::custom(message).with_span(&data.union_token.span())),
    }
}

/// The `///` comment of an item, lines joined by spaces (Kafka's `about` is one line).
pub fn doc_text(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                let line = s.value();
                let line = line.trim();
                if !line.is_empty() {
                    lines.push(line.to_owned());
                }
            }
        }
    }
    lines.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::Attr;

    /// Parses `#[kafka(#attr)]` on a struct with one field carrying `#[kafka(#field)]`.
    fn parse_one(attr: &str, field: &str) -> (Vec<Error>, RawInput) {
        let source = format!("#[kafka({attr})] struct S {{ #[kafka({field})] f: i32 }}");
        let input: DeriveInput = syn::parse_str(&source).expect("test input parses");
        let mut errors = darling::Error::accumulator();
        let raw = parse(&input, &mut errors);
        (errors.into_inner(), raw)
    }

    /// A value each key accepts, so the key table can be checked against the structs.
    fn sample(key: &str) -> String {
        match key {
            "kind" => "kind = data".into(),
            "api_key" | "tag" | "default" => format!("{key} = 1"),
            "latest_version_unstable"
            | "ignorable"
            | "map_key"
            | "zero_copy"
            | "unknown_tagged" => key.into(),
            _ => format!("{key} = \"0+\""),
        }
    }

    /// The fields of a struct's pretty `Debug` form.
    fn debug_fields(debug: &str) -> usize {
        debug
            .lines()
            .filter(|line| {
                line.strip_prefix("        ")
                    .is_some_and(|rest| !rest.starts_with(' ') && rest.contains(": "))
            })
            .count()
    }

    #[test]
    fn every_key_of_the_table_sets_its_own_field_and_there_are_no_others() {
        let (_, empty) = parse_one("", "");
        let empty_container = format!("{:?}", empty.container);
        let empty_field = format!("{:?}", empty.fields[0].parsed);
        for key in Attr::Container.keys() {
            let (errors, raw) = parse_one(&sample(key.name), "");
            assert!(errors.is_empty(), "struct key `{}`: {errors:?}", key.name);
            assert_ne!(
                format!("{:?}", raw.container),
                empty_container,
                "`{}`",
                key.name
            );
        }
        for key in Attr::Field.keys() {
            let (errors, raw) = parse_one("", &sample(key.name));
            assert!(errors.is_empty(), "field key `{}`: {errors:?}", key.name);
            assert_ne!(
                format!("{:?}", raw.fields[0].parsed),
                empty_field,
                "`{}`",
                key.name
            );
        }
        // Besides the keys: the ident, generics and attributes, or the ident,
        // visibility, type and attributes.
        assert_eq!(
            debug_fields(&format!("{:#?}", empty.container)),
            Attr::Container.keys().count() + 3
        );
        assert_eq!(
            debug_fields(&format!("{:#?}", empty.fields[0].parsed)),
            Attr::Field.keys().count() + 4
        );
    }

    #[test]
    fn unknown_keys_are_kept_and_the_rest_still_read() {
        let (errors, raw) = parse_one("versions = \"0-1\", colour = 1", "shade, versions = \"0+\"");
        assert!(errors.is_empty(), "{errors:?}");
        let keys: Vec<&str> = raw.container_keys.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["versions", "colour"]);
        assert!(raw.container.and_then(|c| c.versions).is_some());
        assert!(raw.fields[0]
            .parsed
            .as_ref()
            .and_then(|f| f.versions.as_ref())
            .is_some());
    }
}
