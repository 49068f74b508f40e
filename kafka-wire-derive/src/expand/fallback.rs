//! Impls that keep the user's crate free of follow-on errors when the derive failed:
//! code calling `encode`, `decode`, `SCHEMA`, `Default` or a setter still
//! type-checks, so only the real mistakes are reported.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::DeriveInput;

use super::defaults::{raw_setter_fields, setters};
use crate::private_path;

/// The stub impls for `input`. Generic parameters are carried over so a generic
/// struct reports only that it is generic; `with_default` is false when the user
/// derives `Default` themselves (which is the error being reported).
pub fn fallback(input: &DeriveInput, is_message: bool, with_default: bool) -> TokenStream {
    let ident = &input.ident;
    let p = private_path::private();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let impl_for = |trait_path: TokenStream| {
        quote! {
            #[automatically_derived]
            impl #impl_generics #trait_path for #ident #ty_generics #where_clause
        }
    };
    let name = ident.to_string();
    let failed = quote!(::core::panic!(
        "kafka-wire: this struct's derive failed to compile"
    ));
    let struct_impl = impl_for(quote!(#p::Struct));
    let wire_impl = impl_for(quote!(#p::Wire));
    let nullable_impl = impl_for(quote!(#p::Nullable));
    // With kafka-wire's `json` feature, `Struct` asks for the JSON form too.
    let json_impl = if cfg!(feature = "json") {
        let json_impl = impl_for(quote!(#p::JsonWire));
        quote! {
            #json_impl {
                fn write_json(&self, _: ::core::primitive::i16) -> #p::Result<#p::JsonValue, #p::JsonError> { #failed }
                fn read_json(_: &#p::JsonValue, _: ::core::primitive::i16) -> #p::Result<Self, #p::JsonError> { #failed }
            }
        }
    } else {
        TokenStream::new()
    };
    let default = with_default.then(|| {
        let default_impl = impl_for(quote!(::core::default::Default));
        quote!(#default_impl { fn default() -> Self { #failed } })
    });
    let message = is_message.then(|| {
        let message_impl = impl_for(quote!(#p::Message));
        quote! {
            #message_impl {
                const SCHEMA: #p::MessageSchema = #p::MessageSchema {
                    name: #name,
                    kind: #p::MessageKind::Data,
                    api_key: #p::None,
                    valid_versions: #p::VersionRange::NONE,
                    flexible_versions: #p::VersionRange::NONE,
                    listeners: &[],
                    latest_version_unstable: false,
                    body: <Self as #p::Struct>::STRUCT_SCHEMA,
                    about: "",
                };
            }
        }
    });
    let setters = match &input.data {
        syn::Data::Struct(syn::DataStruct {
            fields: syn::Fields::Named(named),
            ..
        }) if input.generics.params.is_empty() => setters(ident, &raw_setter_fields(named), None),
        _ => quote!(),
    };
    let span = Span::call_site();
    quote_spanned! {span=>
        #struct_impl {
            const STRUCT_SCHEMA: #p::StructSchema = #p::StructSchema {
                name: #name,
                fields: &[],
                keeps_unknown_tags: false,
                min_sizes: #p::MinSizes::UNTABULATED,
            };
        }
        #default
        #wire_impl {
            const TYPE: #p::TypeSchema = #p::TypeSchema::Struct(&<Self as #p::Struct>::STRUCT_SCHEMA);
            fn size(&self, _: #p::Cx, _: &mut #p::Sizes) -> #p::Result<::core::primitive::usize, #p::EncodeError> { #failed }
            fn write(&self, _: &mut #p::Writer, _: #p::Cx, _: &mut #p::Sizes) -> #p::Result<(), #p::EncodeError> { #failed }
            fn read(_: &mut #p::Reader<'_>, _: #p::Cx) -> #p::Result<Self, #p::DecodeError> { #failed }
            fn schema_default() -> Self { #failed }
        }
        #nullable_impl {
            fn null_size(_: #p::Cx) -> ::core::primitive::usize { #failed }
            fn write_null(_: &mut #p::Writer, _: #p::Cx) { #failed }
            fn read_nullable(_: &mut #p::Reader<'_>, _: #p::Cx)
                -> #p::Result<#p::Option<Self>, #p::DecodeError> { #failed }
        }
        #json_impl
        #setters
        #message
    }
}
