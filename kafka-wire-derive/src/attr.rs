//! Stage 1, parse: the `#[kafka(...)]` attributes as written, each read once, by a
//! parser driven by the key table (`keys`). Nothing is interpreted here beyond syntax.
//!
//! An unknown key is reported without stopping the rest of the attribute, so that a
//! typo hides no other mistake in the struct, and every key keeps its own span,
//! where rules about the key (`api_key` on a nested `Struct`) are reported.
//! Written on `syn` alone (no attribute-parsing crate, and `syn` without its
//! `full` feature): the derive is on the path of every build of its users, and
//! those two cost it 3.5 s (see tests/benches/README.md).

use syn::punctuated::Punctuated;
use syn::{Attribute, DeriveInput, Expr, Generics, Ident, Meta, Token, Type};

use crate::errors::Errors;
use crate::keys::{self, FieldKeys, Keys, StructKeys};

/// Any expression, kept exactly as written (without the invisible group around a
/// `macro_rules!` fragment, which would hide the literal inside).
#[derive(Clone)]
pub struct RawExpr(pub Expr);

/// The struct as written.
pub struct RawContainer {
    pub ident: Ident,
    pub generics: Generics,
    pub attrs: Vec<Attribute>,
    pub keys: StructKeys,
}

/// One field as written.
pub struct RawField {
    pub ident: Option<Ident>,
    pub vis: syn::Visibility,
    pub ty: Type,
    pub attrs: Vec<Attribute>,
    pub keys: FieldKeys,
}

/// The struct as read: `None` where an attribute could not be read (its errors are
/// already recorded).
pub struct RawInput {
    pub container: Option<RawContainer>,
    pub fields: Vec<Option<RawField>>,
}

/// Reads the struct attribute and every field attribute, recording all errors.
pub fn parse(input: &DeriveInput, errors: &mut Errors) -> RawInput {
    let fields = match named_fields(input) {
        Ok(fields) => fields,
        Err(error) => {
            errors.push(error);
            return RawInput {
                container: None,
                fields: Vec::new(),
            };
        }
    };
    let container = read_keys(&input.attrs, errors).map(|keys| RawContainer {
        ident: input.ident.clone(),
        generics: input.generics.clone(),
        attrs: input.attrs.clone(),
        keys,
    });
    let fields = fields
        .named
        .iter()
        .map(|field| {
            read_keys(&field.attrs, errors).map(|keys| RawField {
                ident: field.ident.clone(),
                vis: field.vis.clone(),
                ty: field.ty.clone(),
                attrs: field.attrs.clone(),
                keys,
            })
        })
        .collect();
    RawInput { container, fields }
}

/// Reads every `#[kafka(...)]` among `attrs` into `K`, recording each error. `None`
/// when a key could not be read (a value of the wrong shape, a key given twice),
/// so that nothing is built on a half-read attribute; an unknown key is only
/// reported, since it changes nothing else.
fn read_keys<K: Keys>(attrs: &[Attribute], errors: &mut Errors) -> Option<K> {
    let mut keys = K::default();
    let mut complete = true;
    for attr in attrs.iter().filter(|a| a.path().is_ident("kafka")) {
        let items = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated);
        let Some(items) = errors.handle(items) else {
            complete = false;
            continue;
        };
        for item in &items {
            let path = item.path();
            let name = path_name(path);
            let Some(key) = K::KEYS.iter().find(|k| k.name == name) else {
                errors.on(path, keys::unknown(&name, K::KEYS));
                continue;
            };
            if keys.written().iter().any(|(k, _)| k.name == key.name) {
                errors.on(path, format!("`{}` is written twice", key.name));
                complete = false;
                continue;
            }
            let span = syn::spanned::Spanned::span(path);
            complete &= errors.handle(keys.read(key, span, item)).is_some();
        }
    }
    complete.then_some(keys)
}

/// A key's path as written, `::` between its segments.
fn path_name(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// The fields of a struct with named fields; anything else is an error spanned on
/// what makes it different, not on the whole derive.
fn named_fields(input: &DeriveInput) -> syn::Result<&syn::FieldsNamed> {
    let message = "kafka-wire derives structs with named fields, one per schema field";
    match &input.data {
        syn::Data::Struct(data) => match &data.fields {
            syn::Fields::Named(named) => Ok(named),
            syn::Fields::Unnamed(unnamed) => Err(syn::Error::new_spanned(unnamed, message)),
            syn::Fields::Unit => Err(syn::Error::new_spanned(&input.ident, message)),
        },
        syn::Data::Enum(data) => Err(syn::Error::new(data.enum_token.span, message)),
        syn::Data::Union(data) => Err(syn::Error::new(data.union_token.span, message)),
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
    use syn::LitStr;

    use crate::keys::{Key, Takes};

    /// Parses `#[kafka(#attr)]` on a struct with one field carrying `#[kafka(#field)]`.
    fn parse_one(attr: &str, field: &str) -> (Vec<String>, RawInput) {
        let source = format!("#[kafka({attr})] struct S {{ #[kafka({field})] f: i32 }}");
        let input: DeriveInput = syn::parse_str(&source).expect("test input parses");
        let mut errors = Errors::new();
        let raw = parse(&input, &mut errors);
        (errors.messages(), raw)
    }

    /// `key` written with a value of what it takes, from the table.
    fn sample(key: &Key) -> String {
        match key.takes {
            Takes::Flag => key.name.into(),
            Takes::Str => format!("{} = \"0+\"", key.name),
            Takes::Expr => format!("{} = 1", key.name),
        }
    }

    #[test]
    fn every_key_of_the_table_is_read_where_it_belongs() {
        for key in StructKeys::KEYS {
            let (errors, raw) = parse_one(&sample(key), "");
            assert!(errors.is_empty(), "struct key `{}`: {errors:?}", key.name);
            let container = raw.container.expect("read");
            let written: Vec<&str> = container
                .keys
                .written()
                .iter()
                .map(|(k, _)| k.name)
                .collect();
            assert_eq!(written, [key.name]);
            let (on_a_field, _) = parse_one("", &sample(key));
            let fields_take_it = FieldKeys::KEYS.iter().any(|k| k.name == key.name);
            assert_eq!(on_a_field.is_empty(), fields_take_it, "`{}`", key.name);
        }
        for key in FieldKeys::KEYS {
            let (errors, raw) = parse_one("", &sample(key));
            assert!(errors.is_empty(), "field key `{}`: {errors:?}", key.name);
            let field = raw.fields[0].as_ref().expect("read");
            let written: Vec<&str> = field.keys.written().iter().map(|(k, _)| k.name).collect();
            assert_eq!(written, [key.name]);
        }
    }

    #[test]
    fn values_land_in_their_keys() {
        let (errors, raw) = parse_one(
            "versions = \"0-1\", kind = data",
            "tag = 3, ignorable, entity_type = \"topicName\"",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let container = raw.container.expect("read");
        let versions = container.keys.versions.value().map(LitStr::value);
        assert_eq!(versions.as_deref(), Some("0-1"));
        assert!(container.keys.kind.is_written() && !container.keys.api_key.is_written());
        let field = raw.fields[0].as_ref().expect("read");
        assert!(field.keys.tag.is_written() && field.keys.ignorable.is_written());
        assert!(!field.keys.map_key.is_written());
    }

    #[test]
    fn unknown_keys_are_reported_and_the_rest_still_read() {
        let (errors, raw) = parse_one("versions = \"0-1\", colour = 1", "shade, versions = \"0+\"");
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("unknown key `colour`"), "{errors:?}");
        assert!(errors[1].starts_with("unknown key `shade`"), "{errors:?}");
        assert!(raw.container.is_some_and(|c| c.keys.versions.is_written()));
        assert!(raw.fields[0]
            .as_ref()
            .is_some_and(|f| f.keys.versions.is_written()));
    }

    #[test]
    fn a_key_twice_or_a_wrong_value_leaves_the_attribute_unread() {
        let (errors, raw) = parse_one("", "versions = \"0+\", versions = \"1+\"");
        assert_eq!(errors, ["`versions` is written twice"]);
        assert!(raw.fields[0].is_none());
        let (errors, raw) = parse_one("", "ignorable = 1");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(raw.fields[0].is_none());
        let (errors, raw) = parse_one("versions = 3", "");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(raw.container.is_none());
    }
}
