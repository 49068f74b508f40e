//! The derives of [kafka-wire](https://docs.rs/kafka-wire): `#[derive(Message)]` for
//! top-level messages and `#[derive(Struct)]` for nested structures.
//!
//! Use them through the `kafka-wire` crate, which re-exports them and documents the
//! attribute language. The macro runs in four stages, one module each:
//! `attr` (parse: each attribute read once, driven by `keys`, the one table of
//! attribute keys) → `model` (typed values) → `check` (every rule: attribute rules
//! reported here, type rules emitted for the compiler) → `expand` (impls; a stub
//! impl when anything failed, so users see only the real errors). Every stage
//! records all the errors it finds in one accumulator (`errors`), and later stages
//! still run on what parsed, so one struct's mistakes are reported together.
//! Generated code names the runtime only through `private_path`, in one block per
//! expansion.
#![forbid(unsafe_code)]

mod attr;
mod check;
mod dispatch;
mod entity_types;
mod errors;
mod expand;
mod keys;
mod model;
mod private_path;
mod range;
mod spelling;

use proc_macro::TokenStream;
use syn::parse_macro_input;

use crate::model::Derive;

/// Derives `kwire::Message` for a top-level message struct.
#[proc_macro_derive(Message, attributes(kafka))]
pub fn derive_message(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    private_path::scoped(derive(&input, Derive::Message)).into()
}

/// Derives `kwire::Struct` for a structure nested in a message.
#[proc_macro_derive(Struct, attributes(kafka))]
pub fn derive_struct(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    private_path::scoped(derive(&input, Derive::Struct)).into()
}

/// Derives `kwire::RequestEnum`: an enum with one variant per request type,
/// decoded by API key. See `kwire::dispatch`.
#[proc_macro_derive(RequestEnum)]
pub fn derive_request_enum(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    private_path::scoped(dispatch::derive(&input, dispatch::Side::Request)).into()
}

/// Derives `kwire::ResponseEnum`: an enum with one variant per response type,
/// decoded by API key. See `kwire::dispatch`.
#[proc_macro_derive(ResponseEnum)]
pub fn derive_response_enum(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    private_path::scoped(dispatch::derive(&input, dispatch::Side::Response)).into()
}

fn derive(input: &syn::DeriveInput, which: Derive) -> proc_macro2::TokenStream {
    let mut errors = errors::Errors::new();
    let raw = attr::parse(input, &mut errors);
    let container = model::build(&raw, which, &mut errors);
    let checked = container
        .as_ref()
        .map(|container| check::check(container, &input.attrs, &mut errors));
    match (errors.finish(), container, checked) {
        (Ok(()), Some(container), Some(checked)) => expand::impls(&container, checked.type_checks),
        (result, _, checked) => {
            let errors = result.err().map(|e| e.to_compile_error());
            let with_default = !checked.is_some_and(|c| c.user_derives_default);
            let fallback = expand::fallback(input, which == Derive::Message, with_default);
            quote::quote!(#errors #fallback)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trait impls among `items` and the items of `const _: () = { ... };`
    /// blocks, each with whether it is marked `#[automatically_derived]` (which
    /// lints and tools use to tell derived code).
    fn trait_impls(items: &[syn::Item], found: &mut Vec<(String, bool)>) {
        for item in items {
            match item {
                syn::Item::Impl(item) => {
                    if let Some((path, _)) = &item.trait_ {
                        let marked = item
                            .attrs
                            .iter()
                            .any(|a| a.path().is_ident("automatically_derived"));
                        found.push((quote::quote!(#path).to_string(), marked));
                    }
                }
                syn::Item::Const(item) => {
                    if let syn::Expr::Block(block) = &*item.expr {
                        let inner: Vec<syn::Item> = block
                            .block
                            .stmts
                            .iter()
                            .filter_map(|stmt| match stmt {
                                syn::Stmt::Item(item) => Some(item.clone()),
                                _ => None,
                            })
                            .collect();
                        trait_impls(&inner, found);
                    }
                }
                _ => {}
            }
        }
    }

    #[test]
    fn every_trait_impl_is_automatically_derived() {
        let message: syn::DeriveInput = syn::parse_quote! {
            #[kafka(api_key = 1, kind = request, versions = "0-1", response = R, flexible = "1+")]
            struct Q {
                #[kafka(versions = "0+", tag = 0, tagged = "1+")]
                f: i32,
                #[kafka(unknown_tagged)]
                u: kwire::UnknownTaggedFields,
            }
        };
        let response: syn::DeriveInput = syn::parse_quote! {
            #[kafka(api_key = 1, kind = response, versions = "0-1")]
            struct R { #[kafka(versions = "0+")] f: i32 }
        };
        let nested: syn::DeriveInput = syn::parse_quote! {
            struct N { #[kafka(versions = "0+")] f: i32 }
        };
        let broken: syn::DeriveInput = syn::parse_quote! {
            #[kafka(kind = data)]
            struct B { f: i32 }
        };
        let requests: syn::DeriveInput = syn::parse_quote! {
            enum Requests { Q(Q) }
        };
        let expansions = [
            derive(&message, Derive::Message),
            derive(&response, Derive::Message),
            derive(&nested, Derive::Struct),
            derive(&broken, Derive::Message),
            dispatch::derive(&requests, dispatch::Side::Request),
        ];
        for expansion in expansions.map(private_path::scoped) {
            let file: syn::File = syn::parse2(expansion).expect("the expansion parses");
            let mut impls = Vec::new();
            trait_impls(&file.items, &mut impls);
            assert!(!impls.is_empty());
            let unmarked: Vec<&String> = impls
                .iter()
                .filter(|(_, marked)| !marked)
                .map(|(path, _)| path)
                .collect();
            assert!(unmarked.is_empty(), "not marked: {unmarked:?}");
        }
    }
}
