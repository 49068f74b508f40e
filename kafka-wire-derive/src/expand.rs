//! Stage 4, expand: the impls. Each field costs one runtime call per pass; the rules
//! live in `kafka_wire::__private`, which generated code names by absolute path.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, LitStr};

use crate::model::{Container, DefaultValue, Field, Kind};
use crate::range::Range;

fn range(r: Range) -> TokenStream {
    let (min, max) = (r.min, r.max);
    quote!(::kafka_wire::__private::VersionRange::new(#min, #max))
}

fn option_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(t) => quote!(::core::option::Option::Some(#t)),
        None => quote!(::core::option::Option::None),
    }
}

fn field_schema(field: &Field) -> TokenStream {
    let ty = &field.ty;
    let name = &field.name;
    let versions = range(field.versions.range);
    let nullable = range(field.nullable.map_or(Range::NONE, |n| n.range));
    let tagged = range(field.tagged.range);
    let tag = match field.tag {
        Some((tag, _)) => quote!(::core::option::Option::Some(#tag)),
        None => quote!(::core::option::Option::None),
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
            let r = range(f.range);
            quote!(::core::option::Option::Some(#r))
        }
        None => quote!(::core::option::Option::None),
    };
    let map_key = field.map_key.is_some();
    let entity_type = option_str(field.entity_type.as_ref().map(LitStr::value).as_deref());
    let zero_copy = field.zero_copy.is_some();
    let about = &field.about;
    quote! {
        ::kafka_wire::__private::FieldSchema {
            name: #name,
            ty: <#ty as ::kafka_wire::__private::Wire>::TYPE,
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

/// The helper returning field `index`'s default value.
fn default_fn(index: usize) -> Ident {
    format_ident!("__kafka_default_{}", index)
}

/// The helper telling whether field `index` holds its default value.
fn is_default_fn(index: usize) -> Ident {
    format_ident!("__kafka_is_default_{}", index)
}

/// The two helpers of a field's default. The default is written out once, so a
/// default that does not fit the type fails to type-check once, spanned on the
/// literal; comparing with it is spanned on the type, which must be `PartialEq`.
fn default_fns(field: &Field, index: usize) -> TokenStream {
    let ty = &field.ty;
    let value = match &field.default {
        None => {
            quote_spanned!(ty.span()=> <#ty as ::kafka_wire::__private::Wire>::schema_default())
        }
        Some(DefaultValue::Null(span)) => quote_spanned!(*span=> ::core::option::Option::None),
        Some(DefaultValue::Literal { expr, .. }) => quote!(#expr),
        Some(DefaultValue::Str(s)) => quote_spanned! {s.span()=>
            ::kafka_wire::__private::StrDefault::from_default(#s)
        },
    };
    let default = default_fn(index);
    let is_default = is_default_fn(index);
    let compare = {
        let default = respanned(&default, ty.span());
        quote_spanned!(ty.span()=> *value == #default())
    };
    quote! {
        #[inline]
        fn #default() -> #ty {
            #value
        }
        #[inline]
        fn #is_default(value: &#ty) -> bool {
            #compare
        }
    }
}

/// `const` checks that need the field's Kafka type, which only the trait knows.
fn type_assertions(container: &Container, field: &Field) -> TokenStream {
    let ty = &field.ty;
    let ty_span = ty.span();
    let name = &field.name;
    let mut checks = Vec::new();
    let is_option = quote!(<#ty as ::kafka_wire::__private::Wire>::IS_OPTION);
    match field.nullable {
        Some(nullable) => {
            let msg = format!("field `{name}` is `nullable`, so its type must be an `Option<...>`");
            checks.push(quote_spanned!(nullable.span=> ::core::assert!(#is_option, #msg);));
        }
        None => {
            let msg = format!(
                "field `{name}` is an `Option` but not `nullable`: add `nullable = \"...\"` or drop the `Option`"
            );
            checks.push(quote_spanned!(ty_span=> ::core::assert!(!#is_option, #msg);));
        }
    }
    let kafka_type = quote!(<#ty as ::kafka_wire::__private::Wire>::TYPE);
    if let Some(flexible) = field.flexible {
        let msg = format!(
            "field `{name}`: a `flexible` override applies only to string and bytes fields"
        );
        checks.push(quote_spanned!(flexible.span=>
            ::core::assert!(#kafka_type.allows_flexible_override(), #msg);));
    }
    if let Some(check) = entity_type_assertion(field) {
        checks.push(check);
    }
    if let Some(span) = field.zero_copy {
        let msg = format!("field `{name}`: `zero_copy` applies only to bytes fields");
        checks.push(quote_spanned!(span=>
            ::core::assert!(::core::matches!(#kafka_type, ::kafka_wire::__private::TypeSchema::Bytes), #msg);));
    }
    if let Some(message) = &container.message {
        let flexible = range(message.flexible.range);
        let msg = format!(
            "field `{name}`: a struct inside it has a tagged field in a version where `{}` is not flexible",
            container.name
        );
        checks.push(quote_spanned! {ty_span=>
            ::core::assert!(
                ::kafka_wire::__private::nested_tags_ok(
                    <#ty as ::kafka_wire::__private::Wire>::MIN_TAGGED_VERSION, #flexible),
                #msg
            );
        });
    }
    quote!(#(#checks)*)
}

/// Kafka's generator: an entity type fixes the field's type (or its elements').
fn entity_type_assertion(field: &Field) -> Option<TokenStream> {
    let entity = field.entity_type.as_ref()?;
    let (variant, kafka_name) = match entity.value().as_str() {
        "transactionalId" | "groupId" | "topicName" => (quote!(String), "string"),
        "producerId" => (quote!(Int64), "int64"),
        "brokerId" => (quote!(Int32), "int32"),
        _ => return None,
    };
    let ty = &field.ty;
    let msg = format!(
        "field `{}`: entity type `{}` needs a {kafka_name} field or an array of them",
        field.name,
        entity.value()
    );
    Some(quote_spanned! {entity.span()=>
        ::core::assert!(
            ::core::matches!(
                <#ty as ::kafka_wire::__private::Wire>::TYPE,
                ::kafka_wire::__private::TypeSchema::#variant
                    | ::kafka_wire::__private::TypeSchema::Array(&::kafka_wire::__private::TypeSchema::#variant)
            ),
            #msg
        );
    })
}

fn min_tagged_version(container: &Container) -> TokenStream {
    let mut expr = quote!(i16::MAX);
    for field in &container.fields {
        let ty = &field.ty;
        expr = quote!(::kafka_wire::__private::min_version(#expr,
            <#ty as ::kafka_wire::__private::Wire>::MIN_TAGGED_VERSION));
        if field.tag.is_some() {
            let min = field.tagged.range.min;
            expr = quote!(::kafka_wire::__private::min_version(#expr, #min));
        }
    }
    expr
}

/// Indices of tagged fields, in tag order.
fn tagged_in_order(container: &Container) -> Vec<usize> {
    let mut tagged: Vec<(u32, usize)> = container
        .fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.tag.map(|(tag, _)| (tag, i)))
        .collect();
    tagged.sort_unstable();
    tagged.into_iter().map(|(_, i)| i).collect()
}

/// The per-field runtime calls of one pass. Each is spanned on the field's type, so a
/// type that cannot stand for a Kafka type is reported there, not on the derive.
struct FieldCalls {
    size: Vec<TokenStream>,
    write: Vec<TokenStream>,
    read: Vec<TokenStream>,
}

fn field_calls(fields: &[Field]) -> FieldCalls {
    let mut calls = FieldCalls {
        size: Vec::new(),
        write: Vec::new(),
        read: Vec::new(),
    };
    for (index, field) in fields.iter().enumerate() {
        let span = field.ty.span();
        let ident = respanned(&field.ident, span);
        let is_default = respanned(&is_default_fn(index), span);
        calls.size.push(quote_spanned! {span=>
            size += ::kafka_wire::__private::size_field(&self.#ident, &FIELDS[#index], cx, #is_default)?;
        });
        calls.write.push(quote_spanned! {span=>
            ::kafka_wire::__private::write_field(buf, &self.#ident, &FIELDS[#index], cx)?;
        });
        calls.read.push(quote_spanned! {span=>
            ::kafka_wire::__private::read_field(&mut this.#ident, reader, &FIELDS[#index], cx)?;
        });
    }
    calls
}

/// `ident` carrying `span`, so an expression built from it is spanned there alone.
fn respanned(ident: &Ident, span: Span) -> Ident {
    let mut ident = ident.clone();
    ident.set_span(span);
    ident
}

/// The impls of `Struct`, `Wire`, `Nullable` and `Default`, with the field helpers
/// they share, inside one anonymous `const` that also runs the type assertions.
pub fn struct_impls(container: &Container) -> TokenStream {
    let ident = &container.ident;
    let name = &container.name;
    let fields = &container.fields;
    let idents: Vec<_> = fields.iter().map(|f| &f.ident).collect();
    let schemas = fields.iter().map(field_schema);
    let assertions = fields.iter().map(|f| type_assertions(container, f));
    let helpers = fields.iter().enumerate().map(|(i, f)| default_fns(f, i));
    let defaults = (0..fields.len()).map(default_fn);
    let calls = field_calls(fields);
    let (size_calls, write_calls, read_calls) = (&calls.size, &calls.write, &calls.read);
    let min_tagged = min_tagged_version(container);
    let keeps_unknown = container.unknown_tagged.is_some();

    let tagged = tagged_in_order(container);
    let known_tags = tagged.len() as u32;
    let t_idents: Vec<_> = tagged.iter().map(|&i| &fields[i].ident).collect();
    let t_index = &tagged;
    let t_is_default: Vec<_> = tagged.iter().map(|&i| is_default_fn(i)).collect();
    let t_tags: Vec<u32> = tagged
        .iter()
        .filter_map(|&i| fields[i].tag.map(|t| t.0))
        .collect();
    let t_slot: Vec<usize> = (0..tagged.len()).collect();

    // `unknown` binds the unknown-tags field, typed where it is taken so a field of
    // another type is reported on its type, once per kind of borrow.
    let (unknown_ref, unknown_mut, unknown_default) = match &container.unknown_tagged {
        Some((u, span)) => {
            let u = respanned(u, *span);
            (
                quote_spanned! {*span=>
                    let unknown: &::kafka_wire::__private::UnknownTaggedFields = &self.#u;
                    let unknown = ::core::option::Option::Some(unknown);
                },
                quote_spanned! {*span=>
                    let unknown: &mut ::kafka_wire::__private::UnknownTaggedFields = &mut this.#u;
                    let unknown = ::core::option::Option::Some(unknown);
                },
                quote!(#u: ::core::default::Default::default(),),
            )
        }
        None => {
            let none = quote!(let unknown = ::core::option::Option::None;);
            (none.clone(), none, quote!())
        }
    };

    let p = quote!(::kafka_wire::__private);
    quote! {
        const _: () = {
            #(#assertions)*
            #(#helpers)*

            impl #p::Struct for #ident {
                const STRUCT_SCHEMA: #p::StructSchema = #p::StructSchema {
                    name: #name,
                    fields: &[#(#schemas),*],
                    keeps_unknown_tags: #keeps_unknown,
                };
            }

            impl ::core::default::Default for #ident {
                fn default() -> Self {
                    Self { #(#idents: #defaults(),)* #unknown_default }
                }
            }

            impl #p::Wire for #ident {
                const TYPE: #p::TypeSchema = #p::TypeSchema::Struct(&<Self as #p::Struct>::STRUCT_SCHEMA);
                const MIN_TAGGED_VERSION: i16 = #min_tagged;

                #[inline]
                fn size(&self, cx: #p::Cx) -> ::core::result::Result<usize, #p::EncodeError> {
                    const FIELDS: &[#p::FieldSchema] = <#ident as #p::Struct>::STRUCT_SCHEMA.fields;
                    #unknown_ref
                    let mut size = 0usize;
                    #(#size_calls)*
                    let mut tagged = #p::TaggedSize::default();
                    #( #p::size_tagged(&mut tagged, &self.#t_idents, &FIELDS[#t_index], cx, #t_is_default)?; )*
                    size += tagged.finish(unknown, #known_tags, cx)?;
                    ::core::result::Result::Ok(size)
                }

                #[inline]
                fn write<B: #p::BufMut>(&self, buf: &mut B, cx: #p::Cx) -> ::core::result::Result<(), #p::EncodeError> {
                    const FIELDS: &[#p::FieldSchema] = <#ident as #p::Struct>::STRUCT_SCHEMA.fields;
                    #(#write_calls)*
                    if cx.flexible {
                        let present: [bool; #known_tags as usize] = [
                            #( #p::tagged_present(&self.#t_idents, &FIELDS[#t_index], cx, #t_is_default), )*
                        ];
                        let count = present.iter().filter(|p| **p).count();
                        #unknown_ref
                        let mut writer = #p::TaggedWriter::begin(buf, count, unknown);
                        #(
                            if present[#t_slot] {
                                #p::write_tagged(&mut writer, buf, &self.#t_idents, &FIELDS[#t_index], cx)?;
                            }
                        )*
                        writer.finish(buf);
                    }
                    ::core::result::Result::Ok(())
                }

                fn schema_default() -> Self {
                    <Self as ::core::default::Default>::default()
                }

                #[inline]
                fn read(reader: &mut #p::Reader<'_>, cx: #p::Cx) -> ::core::result::Result<Self, #p::DecodeError> {
                    let mut this = <Self as ::core::default::Default>::default();
                    <Self as #p::Wire>::read_in_place(&mut this, reader, cx)?;
                    ::core::result::Result::Ok(this)
                }

                #[inline]
                fn read_in_place(&mut self, reader: &mut #p::Reader<'_>, cx: #p::Cx) -> ::core::result::Result<(), #p::DecodeError> {
                    const FIELDS: &[#p::FieldSchema] = <#ident as #p::Struct>::STRUCT_SCHEMA.fields;
                    let this = self;
                    #(#read_calls)*
                    if cx.flexible {
                        #unknown_mut
                        #p::read_tagged_section(reader, unknown, |tag, reader| match tag {
                            #( #t_tags => #p::read_tagged(&mut this.#t_idents, reader, &FIELDS[#t_index], cx), )*
                            _ => ::core::result::Result::Ok(false),
                        })?;
                    }
                    ::core::result::Result::Ok(())
                }
            }

            impl #p::Nullable for #ident {
                fn null_size(_cx: #p::Cx) -> usize { 1 }
                fn write_null<B: #p::BufMut>(buf: &mut B, _cx: #p::Cx) { #p::write_struct_null(buf) }
                fn present_marker_size() -> usize { 1 }
                fn write_present_marker<B: #p::BufMut>(buf: &mut B) { #p::write_struct_present(buf) }
                fn read_nullable(reader: &mut #p::Reader<'_>, cx: #p::Cx)
                    -> ::core::result::Result<::core::option::Option<Self>, #p::DecodeError> {
                    #p::read_nullable_struct(reader, cx)
                }
            }
        };
    }
}

fn kind_tokens(kind: Kind) -> TokenStream {
    match kind {
        Kind::Request => quote!(::kafka_wire::__private::MessageKind::Request),
        Kind::Response => quote!(::kafka_wire::__private::MessageKind::Response),
        Kind::Header => quote!(::kafka_wire::__private::MessageKind::Header),
        Kind::Data => quote!(::kafka_wire::__private::MessageKind::Data),
    }
}

/// The `Message` impl, on top of the struct impls.
pub fn message_impl(container: &Container) -> TokenStream {
    let Some(message) = &container.message else {
        return quote!();
    };
    let ident = &container.ident;
    let name = &container.name;
    let about = &container.about;
    let kind = kind_tokens(message.kind);
    let api_key = match message.api_key {
        Some((Some(key), _)) => quote!(::core::option::Option::Some(#key)),
        // An invalid key is an error, so no impl is expanded with it.
        _ => quote!(::core::option::Option::None),
    };
    let valid = range(message.versions.range);
    let flexible = range(message.flexible.range);
    let listeners = &message.listeners;
    let unstable = message.latest_version_unstable.is_some();
    let p = quote!(::kafka_wire::__private);
    quote! {
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
    }
}

/// Impls that keep the user's crate free of follow-on errors when the derive failed:
/// code calling `encode`, `decode` or `SCHEMA` still type-checks. Generic parameters
/// are carried over so a generic struct reports only that it is generic.
pub fn fallback(ident: &Ident, generics: &syn::Generics, is_message: bool) -> TokenStream {
    let p = quote!(::kafka_wire::__private);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let impl_for = |trait_path: TokenStream| quote!(impl #impl_generics #trait_path for #ident #ty_generics #where_clause);
    let name = ident.to_string();
    let failed = quote!(::core::panic!(
        "kafka-wire: this struct's derive failed to compile"
    ));
    let struct_impl = impl_for(quote!(#p::Struct));
    let default_impl = impl_for(quote!(::core::default::Default));
    let wire_impl = impl_for(quote!(#p::Wire));
    let nullable_impl = impl_for(quote!(#p::Nullable));
    let message_impl = impl_for(quote!(#p::Message));
    let message = is_message.then(|| {
        quote! {
            #message_impl {
                const SCHEMA: #p::MessageSchema = #p::MessageSchema {
                    name: #name,
                    kind: #p::MessageKind::Data,
                    api_key: ::core::option::Option::None,
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
    let span = Span::call_site();
    quote_spanned! {span=>
        #struct_impl {
            const STRUCT_SCHEMA: #p::StructSchema = #p::StructSchema { name: #name, fields: &[], keeps_unknown_tags: false };
        }
        #default_impl {
            fn default() -> Self { #failed }
        }
        #wire_impl {
            const TYPE: #p::TypeSchema = #p::TypeSchema::Struct(&<Self as #p::Struct>::STRUCT_SCHEMA);
            fn size(&self, _: #p::Cx) -> ::core::result::Result<usize, #p::EncodeError> { #failed }
            fn write<B: #p::BufMut>(&self, _: &mut B, _: #p::Cx) -> ::core::result::Result<(), #p::EncodeError> { #failed }
            fn read(_: &mut #p::Reader<'_>, _: #p::Cx) -> ::core::result::Result<Self, #p::DecodeError> { #failed }
            fn schema_default() -> Self { #failed }
        }
        #nullable_impl {
            fn null_size(_: #p::Cx) -> usize { #failed }
            fn write_null<B: #p::BufMut>(_: &mut B, _: #p::Cx) { #failed }
            fn read_nullable(_: &mut #p::Reader<'_>, _: #p::Cx)
                -> ::core::result::Result<::core::option::Option<Self>, #p::DecodeError> { #failed }
        }
        #message
    }
}
