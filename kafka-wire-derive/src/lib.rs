//! The derives of [kafka-wire](https://docs.rs/kafka-wire): `#[derive(Message)]` for
//! top-level messages and `#[derive(Struct)]` for nested structures.
//!
//! Use them through the `kafka-wire` crate, which re-exports them and documents the
//! attribute language. The macro runs in four stages, one module each:
//! `attr` (parse, with darling; the keys as written are kept) → `model` (typed
//! values) → `check` (every rule: attribute rules reported here, type rules emitted
//! for the compiler) → `expand` (impls; a stub impl when anything failed, so users
//! see only the real errors). `keys` is the one table of attribute keys. Every stage
//! records all the errors it finds, and later stages still run on what parsed, so
//! one struct's mistakes are reported together.
#![forbid(unsafe_code)]

mod attr;
mod check;
mod dispatch;
mod entity_types;
mod expand;
mod keys;
mod model;
mod private_path;
mod range;

use proc_macro::TokenStream;
use syn::parse_macro_input;

use crate::model::Derive;

/// Derives `kwire::Message` for a top-level message struct.
#[proc_macro_derive(Message, attributes(kafka))]
pub fn derive_message(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    derive(&input, Derive::Message).into()
}

/// Derives `kwire::Struct` for a structure nested in a message.
#[proc_macro_derive(Struct, attributes(kafka))]
pub fn derive_struct(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    derive(&input, Derive::Struct).into()
}

/// Derives `kwire::RequestEnum`: an enum with one variant per request type,
/// decoded by API key. See `kwire::dispatch`.
#[proc_macro_derive(RequestEnum)]
pub fn derive_request_enum(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    dispatch::derive(&input, dispatch::Side::Request).into()
}

/// Derives `kwire::ResponseEnum`: an enum with one variant per response type,
/// decoded by API key. See `kwire::dispatch`.
#[proc_macro_derive(ResponseEnum)]
pub fn derive_response_enum(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    dispatch::derive(&input, dispatch::Side::Response).into()
}

fn derive(input: &syn::DeriveInput, which: Derive) -> proc_macro2::TokenStream {
    let mut errors = darling::Error::accumulator();
    let raw = attr::parse(input, &mut errors);
    let container = model::build(&raw, which, &mut errors);
    let checked = container
        .as_ref()
        .map(|container| check::check(container, &input.attrs, &mut errors));
    match (errors.finish(), container, checked) {
        (Ok(()), Some(container), Some(checked)) => expand::impls(&container, checked.type_checks),
        (result, _, checked) => {
            let errors = result.err().map(darling::Error::write_errors);
            let with_default = !checked.is_some_and(|c| c.user_derives_default);
            let fallback = expand::fallback(input, which == Derive::Message, with_default);
            quote::quote!(#errors #fallback)
        }
    }
}
