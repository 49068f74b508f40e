//! Stage 4, expand: generating the impls, and nothing else (every rule is the check
//! stage's). Each field costs one runtime call per pass, named through
//! `<FieldType as FieldRules>` in the runtime's private module (`private_path`);
//! Kafka's rules live in the runtime (`kafka-wire/src/field_rules.rs`).

mod codec;
mod defaults;
mod docs;
mod fallback;
mod json;
mod schema;

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::Container;

pub use fallback::fallback;

/// The impls of a struct that passed every check, with its type checks.
pub fn impls(container: &Container, type_checks: TokenStream) -> TokenStream {
    let fields = schema::fields_const(container);
    let struct_impl = schema::struct_impl(container);
    let helpers = defaults::helpers(container);
    let default_impl = defaults::default_impl(container);
    let schema_doc = docs::schema_table(container);
    let setters = defaults::setters(
        &container.ident,
        &defaults::setter_fields(container),
        Some(&schema_doc),
    );
    let wire_impl = codec::wire_impl(container);
    let nullable_impl = codec::nullable_impl(&container.ident);
    let json_impl = json::json_impl(container);
    let message_impl = schema::message_impl(container);
    quote! {
        #type_checks
        #helpers
        #fields
        #struct_impl
        #default_impl
        #setters
        #wire_impl
        #nullable_impl
        #json_impl
        #message_impl
    }
}
