//! The rules that need a field's type, which only the compiler knows (type aliases
//! and nested structs hide it from the macro). Each is emitted as code of its own,
//! so that every broken one is reported, and each error covers the whole field type:
//!
//! - an attribute that allows only some types is a trait the type must implement
//!   (`NullableField`, … in the runtime's private module), whose own message says
//!   what to do;
//! - a rule about what a type holds (nested structs) is a named `const` assertion;
//! - a field whose type is spelled as one of Kafka's leaf types (`i32`,
//!   `KafkaString`, `Vec<Uuid>`, …) holds no struct and, unless spelled `Option`,
//!   is no `Option`: it needs none of those assertions, and one assertion per struct
//!   checks the spellings were what they seem (an alias could hide anything).
//!   Most of Kafka's fields are such, and every item costs compile time.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::Type;

use crate::entity_types;
use crate::model::{Container, Field};
use crate::private_path;
use crate::range;
use crate::spelling::{spelled_as_leaf, spelled_as_option};

/// The type checks of every field, and the one check of the leaf spellings.
pub fn type_checks(container: &Container) -> TokenStream {
    let mut checks: TokenStream = container
        .fields
        .iter()
        .flat_map(|field| field_checks(container, field))
        .collect();
    checks.extend(leaves_check(container));
    checks.extend(partial_eq_check(container));
    checks
}

/// Every field's type compares with `==`: Kafka's rules compare a value with its
/// default where a version lacks the field or puts it in the tagged section, and
/// the JSON form does for every field, so it is asked of every field alike (a
/// field that needs no comparison today may tomorrow, and a feature must not
/// decide whether a struct compiles). One item for the struct, naming each type
/// through the rule that compares; leaf types compare by construction.
fn partial_eq_check(container: &Container) -> TokenStream {
    let p = private_path::private();
    let tys: Vec<&Type> = container
        .fields
        .iter()
        .map(|field| &field.ty)
        .filter(|ty| !spelled_as_leaf(ty))
        .collect();
    if tys.is_empty() {
        return quote!();
    }
    quote! {
        const _: (#(fn(&#tys) -> ::core::primitive::bool,)*) =
            (#(<#tys as #p::FieldRules>::is_schema_default_value as fn(&#tys) -> ::core::primitive::bool,)*);
    }
}

/// One assertion for the struct: the fields spelled as leaf types hold no struct,
/// and those not spelled `Option` (and without nullable versions) are none.
fn leaves_check(container: &Container) -> TokenStream {
    let p = private_path::private();
    let mut leaves = Vec::new();
    let mut not_options = Vec::new();
    for (index, field) in container.fields.iter().enumerate() {
        if spelled_as_leaf(&field.ty) {
            leaves.push(index);
            if field.nullable.is_none() && !spelled_as_option(&field.ty) {
                let ty = &field.ty;
                not_options.push(quote!(<#ty as #p::FieldRules>::FIELD_IS_OPTION));
            }
        }
    }
    if leaves.is_empty() {
        return quote!();
    }
    quote! {
        const _: () = #p::leaves_are_leaves(FIELDS, &[#(#leaves),*], &[#(#not_options),*]);
    }
}

fn field_checks(container: &Container, field: &Field) -> Vec<TokenStream> {
    let ty = &field.ty;
    let p = private_path::private();
    let rules = quote!(<#ty as #p::FieldRules>);
    let leaf = spelled_as_leaf(ty);
    let mut checks = Vec::new();
    match field.nullable {
        Some(_) => checks.push(required(ty, "NullableField")),
        // A leaf spelled otherwise than `Option` is none (`leaves_check`).
        None if leaf && !spelled_as_option(ty) => {}
        None => checks.push(assertion(
            ty,
            "AN_OPTION_NEEDS_NULLABLE_VERSIONS",
            quote!(!#rules::FIELD_IS_OPTION),
            format!(
                "field `{}` is an `Option`, but has no `nullable` versions: add `nullable = \"N+\"` with the versions in which it may be null",
                field.ident
            ),
        )),
    }
    if field.flexible.is_some() {
        checks.push(required(ty, "FlexibleOverride"));
    }
    if field.zero_copy.is_some() {
        checks.push(required(ty, "ZeroCopy"));
    }
    let entity = field.entity_type.as_ref().map(syn::LitStr::value);
    if let Some(Some(required_trait)) = entity.as_deref().and_then(entity_types::required_trait) {
        checks.push(required(ty, required_trait));
    }
    // A leaf holds no struct: nothing nested to check.
    if let Some(message) = container.message.as_ref().filter(|_| !leaf) {
        let versions = range::tokens(field.versions.range);
        let flexible = range::tokens(message.flexible.range);
        let reached_flexible =
            range::tokens(field.versions.range.intersect(message.flexible.range));
        checks.push(assertion(
            ty,
            "NESTED_TAGS_WITHIN_FLEXIBLE_VERSIONS",
            quote!(#p::tags_within_flexible(&#rules::FIELD_TYPE, #versions, #flexible)),
            format!(
                "field `{}` holds a struct with a tagged field in a version where `{}` is not flexible (`{}`)",
                field.ident, container.ident, message.flexible.range
            ),
        ));
        checks.push(assertion(
            ty,
            "NESTED_STRUCTS_KEEP_UNKNOWN_TAGS",
            quote!(#p::keeps_unknown_tags_within(&#rules::FIELD_TYPE, #reached_flexible)),
            format!(
                "field `{}` holds a struct used in flexible versions of `{}` that has no field for unknown tagged fields: add `#[kafka(unknown_tagged)] pub unknown_tagged_fields: kwire::UnknownTaggedFields` to it",
                field.ident, container.ident
            ),
        ));
    }
    checks
}

/// Requires `ty` to implement the check trait `name`; its message is the error.
fn required(ty: &Type, name: &str) -> TokenStream {
    let name = format_ident!("{}", name);
    let p = private_path::private();
    quote!(const _: () = <#ty as #p::#name>::REQUIRED;)
}

/// A `const` named `name` asserting `condition`, failing with `message` on the
/// whole of `ty`.
pub(super) fn assertion(
    ty: &Type,
    name: &str,
    condition: TokenStream,
    message: String,
) -> TokenStream {
    let (start, end) = first_and_last_spans(ty);
    let name = format_ident!("{}", name);
    // The call's span runs from its first token to its last, so giving those the
    // spans of the type's ends makes the error cover the type.
    let assert = quote_spanned!(start=> ::core::assert!);
    let mut arguments = Group::new(Delimiter::Parenthesis, quote!(#condition, #message));
    arguments.set_span(end);
    quote! {
        const _: () = {
            const #name: () = #assert #arguments;
        };
    }
}

fn first_and_last_spans(tokens: &impl ToTokens) -> (Span, Span) {
    let tokens: Vec<TokenTree> = tokens.to_token_stream().into_iter().collect();
    let first = tokens.first().map_or_else(Span::call_site, TokenTree::span);
    let last = tokens.last().map_or(first, TokenTree::span);
    (first, last)
}
