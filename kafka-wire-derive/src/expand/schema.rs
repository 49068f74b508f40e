//! The schema constants: each field's `FieldSchema`, the struct's `StructSchema`
//! with its table of smallest sizes, and a message's `MessageSchema`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

use crate::model::{Container, DefaultValue, Field, Kind};
use crate::private_path;
use crate::range::{self, Range};

fn option_str(text: Option<&str>) -> TokenStream {
    let p = private_path::private();
    match text {
        Some(t) => quote!(#p::Some(#t)),
        None => quote!(#p::None),
    }
}

fn field_schema(field: &Field) -> TokenStream {
    let p = private_path::private();
    let ty = &field.ty;
    let name = &field.name;
    let versions = range::tokens(field.versions.range);
    let nullable = range::tokens(field.nullable.map_or(Range::NONE, |n| n.range));
    let tagged = range::tokens(field.tagged.range);
    let tag = match field.tag_number() {
        Some(tag) => quote!(#p::Some(#tag)),
        None => quote!(#p::None),
    };
    let ignorable = field.ignorable;
    let default = option_str(
        field
            .default
            .as_ref()
            .map(DefaultValue::schema_text)
            .as_deref(),
    );
    let flexible = match field.flexible {
        Some(f) => {
            let r = range::tokens(f.range);
            quote!(#p::Some(#r))
        }
        None => quote!(#p::None),
    };
    let map_key = field.map_key.is_some();
    let entity_type = option_str(field.entity_type.as_ref().map(LitStr::value).as_deref());
    let zero_copy = field.zero_copy.is_some();
    let about = &field.about;
    quote! {
        #p::FieldSchema {
            name: #name,
            ty: <#ty as #p::FieldRules>::FIELD_TYPE,
            versions: #versions,
            nullable_versions: #nullable,
            tagged_versions: #tagged,
            tag: #tag,
            ignorable: #ignorable,
            default: #default,
            flexible_versions: #flexible,
            map_key: #map_key,
            entity_type: #entity_type,
            zero_copy: #zero_copy,
            about: #about,
        }
    }
}

/// `FIELDS`, the fields' schemas (which the codec names by index), and
/// `MIN_SIZES`, the table of the struct's smallest encodings.
pub fn fields_const(container: &Container) -> TokenStream {
    let schemas = container.fields.iter().map(field_schema);
    let p = private_path::private();
    quote! {
        const FIELDS: &[#p::FieldSchema] = &[#(#schemas),*];
        const MIN_SIZES: [[::core::primitive::u16; 2]; #p::MinSizes::rows(FIELDS)] = #p::MinSizes::table(FIELDS);
    }
}

/// The `Struct` impl.
pub fn struct_impl(container: &Container) -> TokenStream {
    let ident = &container.ident;
    let name = &container.name;
    let keeps_unknown = container.unknown_field().is_some();
    let p = private_path::private();
    quote! {
        #[automatically_derived]
        impl #p::Struct for #ident {
            const STRUCT_SCHEMA: #p::StructSchema = #p::StructSchema {
                name: #name,
                fields: FIELDS,
                keeps_unknown_tags: #keeps_unknown,
                min_sizes: #p::MinSizes::from_table(&MIN_SIZES),
            };
        }
    }
}

fn kind_tokens(kind: Kind) -> TokenStream {
    let p = private_path::private();
    match kind {
        Kind::Request => quote!(#p::MessageKind::Request),
        Kind::Response => quote!(#p::MessageKind::Response),
        Kind::Header => quote!(#p::MessageKind::Header),
        Kind::Data => quote!(#p::MessageKind::Data),
    }
}

/// The `Message` impl, on top of the struct impls.
pub fn message_impl(container: &Container) -> TokenStream {
    let Some(message) = &container.message else {
        return quote!();
    };
    let p = private_path::private();
    let ident = &container.ident;
    let name = &container.name;
    let about = &container.about;
    let kind = kind_tokens(message.kind);
    let api_key = match message.api_key.and_then(|k| i16::try_from(k.value).ok()) {
        Some(key) => quote!(#p::Some(#key)),
        None => quote!(#p::None),
    };
    let valid = range::tokens(message.versions.range);
    let flexible = range::tokens(message.flexible.range);
    let listeners = &message.listeners;
    let unstable = message.latest_version_unstable.is_some();
    let api_link = match (message.kind, &message.response) {
        (Kind::Request, Some(response)) => quote! {
            #[automatically_derived]
            impl #p::ApiRequest for #ident {
                type Response = #response;
            }
        },
        (Kind::Response, _) => quote! {
            #[automatically_derived]
            impl #p::ApiResponse for #ident {}
        },
        _ => quote!(),
    };
    quote! {
        #[automatically_derived]
        impl #p::Message for #ident {
            const SCHEMA: #p::MessageSchema = #p::MessageSchema {
                name: #name,
                kind: #kind,
                api_key: #api_key,
                valid_versions: #valid,
                flexible_versions: #flexible,
                listeners: &[#(#listeners),*],
                latest_version_unstable: #unstable,
                body: <#ident as #p::Struct>::STRUCT_SCHEMA,
                about: #about,
            };
        }
        #api_link
    }
}
