//! The derives of [kafka-wire](https://docs.rs/kafka-wire): `#[derive(Message)]` for
//! top-level messages and `#[derive(Struct)]` for nested structures.
//!
//! Use them through the `kafka-wire` crate, which re-exports them and documents the
//! attribute language. The macro runs in four stages, one module each:
//! `attr` (parse, with darling; `keys` rejects unknown keys) → `model` (typed
//! values) → `check` (cross-field rules) → `expand` (impls; a stub impl when
//! anything failed, so users see only the real errors). Every stage records all
//! the errors it finds, and later stages still run on what parsed, so one struct's
//! mistakes are reported together.
#![forbid(unsafe_code)]

mod attr;
mod check;
mod expand;
mod keys;
mod model;
mod range;

use proc_macro::TokenStream;
use syn::parse_macro_input;

use crate::model::Derive;

/// Derives `kafka_wire::Message` for a top-level message struct.
#[proc_macro_derive(Message, attributes(kafka))]
pub fn derive_message(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    derive(&input, Derive::Message).into()
}

/// Derives `kafka_wire::Struct` for a structure nested in a message.
#[proc_macro_derive(Struct, attributes(kafka))]
pub fn derive_struct(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    derive(&input, Derive::Struct).into()
}

fn derive(input: &syn::DeriveInput, which: Derive) -> proc_macro2::TokenStream {
    let mut errors = darling::Error::accumulator();
    let raw = attr::parse(input, &mut errors);
    let container = model::build(&raw, which, &mut errors);
    if let Some(container) = &container {
        check::check(container, &mut errors);
    }
    match (errors.finish(), container) {
        (Ok(()), Some(container)) => {
            let structs = expand::struct_impls(&container);
            let message = expand::message_impl(&container);
            quote::quote!(#structs #message)
        }
        (result, _) => {
            let errors = result.err().map(darling::Error::write_errors);
            let fallback =
                expand::fallback(&input.ident, &input.generics, which == Derive::Message);
            quote::quote!(#errors #fallback)
        }
    }
}
