//! `#[derive(RequestEnum)]` and `#[derive(ResponseEnum)]`: an enum with one variant
//! per API, each holding one message type, decoded by API key with one `match`.
//!
//! What cannot be known from tokens is checked by the compiler on the generated
//! code, with the span of the variant at fault: that each type is a request (or a
//! response), through a trait bound, and that no two variants share an API key,
//! through a const evaluated from the types' schemas.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::errors::Errors;
use crate::private_path;

/// Which enum is derived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Request,
    Response,
}

struct Variant<'a> {
    ident: &'a Ident,
    ty: &'a Type,
}

/// The derive's output: the impls, or the errors with the spans at fault.
pub fn derive(input: &DeriveInput, side: Side) -> TokenStream {
    match variants(input) {
        Ok(variants) => impls(input, side, &variants),
        Err(errors) => errors.to_compile_error(),
    }
}

/// The variants, or every error about the enum's shape, collected like the rest of
/// the derive's.
fn variants(input: &DeriveInput) -> syn::Result<Vec<Variant<'_>>> {
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "a message enum is an `enum` with one variant per API",
        ));
    };
    let mut errors = Errors::new();
    if !input.generics.params.is_empty() {
        errors.on(
            &input.generics,
            "a message enum cannot be generic: each variant holds one message type",
        );
    }
    if data.variants.is_empty() {
        errors.on(&input.ident, "a message enum needs at least one variant");
    }
    let mut variants = Vec::new();
    for variant in &data.variants {
        if let Some((_, discriminant)) = &variant.discriminant {
            errors.on(
                discriminant,
                "the API key comes from the variant's message type; remove the discriminant",
            );
        }
        match &variant.fields {
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => variants.push(Variant {
                ident: &variant.ident,
                ty: &fields.unnamed[0].ty,
            }),
            _ => errors.on(
                variant,
                format!(
                    "each variant holds exactly one message: `{}(TheMessage)`",
                    variant.ident
                ),
            ),
        }
    }
    errors.finish().map(|()| variants)
}

fn impls(input: &DeriveInput, side: Side, variants: &[Variant<'_>]) -> TokenStream {
    let p = private_path::private();
    let ident = &input.ident;
    let enum_name = ident.to_string();
    let (kind_trait, side_trait) = match side {
        Side::Request => (quote!(ApiRequest), quote!(RequestEnum)),
        Side::Response => (quote!(ApiResponse), quote!(ResponseEnum)),
    };
    let names: Vec<&Ident> = variants.iter().map(|v| v.ident).collect();
    let types: Vec<&Type> = variants.iter().map(|v| v.ty).collect();
    let keys: Vec<Ident> = (0..variants.len())
        .map(|i| format_ident!("__KAFKA_KEY_{}", i))
        .collect();
    let key_consts = quote! {
        #(const #keys: ::core::primitive::i16 = #p::api_key_of(&<#types as #p::Message>::SCHEMA);)*
    };
    let kind_checks = variants.iter().map(|v| {
        let ty = v.ty;
        quote_spanned!(ty.span()=> __kafka_is_kind::<#ty>();)
    });
    let repeats = variants.iter().enumerate().skip(1).map(|(i, v)| {
        let message = format!(
            "variant `{}` has the API key of an earlier variant of `{enum_name}`: \
             each API key can have only one variant",
            v.ident
        );
        let span = v.ident.span();
        quote_spanned!(span=> #i => ::core::panic!(#message),)
    });
    let from_impls = variants.iter().map(|Variant { ident: name, ty }| {
        quote! {
            #[automatically_derived]
            impl ::core::convert::From<#ty> for #ident {
                fn from(message: #ty) -> Self {
                    Self::#name(message)
                }
            }

            #[automatically_derived]
            impl ::core::convert::TryFrom<#ident> for #ty {
                type Error = #p::WrongMessage<#ident>;

                // An enum of one variant has no other arm to take.
                #[allow(unreachable_patterns)]
                fn try_from(
                    message: #ident,
                ) -> #p::Result<Self, #p::WrongMessage<#ident>> {
                    match message {
                        #ident::#name(message) => #p::Ok(message),
                        other => #p::Err(#p::WrongMessage::new(
                            &<#ty as #p::Message>::SCHEMA,
                            other,
                        )),
                    }
                }
            }
        }
    });
    let unknown = quote! {
        #p::Err(#p::DispatchError::UnknownApiKey {
            api_key,
            enum_name: #enum_name,
        })
    };
    let from_json = json_dispatch(&names, &types, &keys, &key_consts);
    let call_site = Span::call_site();
    let fn_kind = quote_spanned!(call_site=> fn __kafka_is_kind<T: #p::#kind_trait>() {});
    // The expansion is one `const` block (`private_path::scoped`): the checks run as
    // its statements.
    quote! {
        #fn_kind
        #[allow(dead_code)]
        fn __kafka_kinds() {
            #(#kind_checks)*
        }
        #key_consts
        match #p::first_repeated_key(&[#(#keys),*]) {
            #(#repeats)*
            _ => {}
        }

        #[automatically_derived]
        impl #p::MessageEnum for #ident {
            const SCHEMAS: &'static [&'static #p::MessageSchema] =
                &[#(&<#types as #p::Message>::SCHEMA),*];

            fn schema(&self) -> &'static #p::MessageSchema {
                match self {
                    #(Self::#names(_) => &<#types as #p::Message>::SCHEMA,)*
                }
            }

            fn read_from(
                api_key: ::core::primitive::i16,
                version: ::core::primitive::i16,
                reader: &mut #p::Reader<'_>,
            ) -> #p::Result<Self, #p::DispatchError> {
                #key_consts
                match api_key {
                    #(#keys => #p::Ok(Self::#names(
                        <#types as #p::Message>::read_from(reader, version)?,
                    )),)*
                    _ => #unknown,
                }
            }

            #[inline]
            fn with_message<F: #p::WithMessage>(&self, f: F) -> F::Output {
                match self {
                    #(Self::#names(message) => f.call(message),)*
                }
            }

            fn as_message(&self) -> #p::AnyMessage<'_> {
                match self {
                    #(Self::#names(message) => #p::AnyMessage::new(message),)*
                }
            }

            #from_json
        }

        #[automatically_derived]
        impl #p::#side_trait for #ident {}

        #(#from_impls)*
    }
}

/// `MessageEnum::from_json`, when the JSON form is on (kafka-wire's `json`
/// feature turns on this crate's).
#[cfg(feature = "json")]
fn json_dispatch(
    names: &[&Ident],
    types: &[&Type],
    keys: &[Ident],
    key_consts: &TokenStream,
) -> TokenStream {
    let p = private_path::private();
    quote! {
        #[inline]
        fn from_json(
            api_key: ::core::primitive::i16,
            version: ::core::primitive::i16,
            value: &#p::JsonValue,
        ) -> #p::Result<Self, #p::JsonError> {
            #key_consts
            match api_key {
                #(#keys => #p::Ok(Self::#names(
                    <#types as #p::Message>::from_json(value, version)?,
                )),)*
                _ => #p::Err(#p::JsonError::new(
                    #p::JsonErrorKind::UnknownApiKey(api_key),
                )),
            }
        }
    }
}

#[cfg(not(feature = "json"))]
fn json_dispatch(_: &[&Ident], _: &[&Type], _: &[Ident], _: &TokenStream) -> TokenStream {
    TokenStream::new()
}
