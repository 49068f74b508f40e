//! Stage 4, expand: the impls. Each field costs one runtime call per pass; the rules
//! live in `kafka_wire::__private`, which generated code names by absolute path.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

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
    let entity_type = option_str(field.entity_type.as_deref());
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

/// The field's default value as an expression of its type. A default that does not
/// fit the type fails to type-check, spanned on the literal.
fn default_expr(field: &Field) -> TokenStream {
    let ty = &field.ty;
    match &field.default {
        None => quote!(<#ty as ::core::default::Default>::default()),
        Some(DefaultValue::Null(span)) => quote_spanned!(*span=> ::core::option::Option::None),
        Some(DefaultValue::Literal { expr, .. }) => quote_spanned!(expr.span()=> #expr),
        Some(DefaultValue::Str(s)) => quote_spanned! {s.span()=>
            <#ty as ::kafka_wire::__private::StrDefault>::from_default(#s)
        },
    }
}

fn is_default(field: &Field) -> TokenStream {
    let ty = &field.ty;
    let default = default_expr(field);
    quote!(|value: &#ty| *value == #default)
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

/// The impls of `Struct`, `Wire`, `Nullable` and `Default`.
pub fn struct_impls(container: &Container) -> TokenStream {
    let ident = &container.ident;
    let name = &container.name;
    let fields = &container.fields;
    let idents: Vec<_> = fields.iter().map(|f| &f.ident).collect();
    let index: Vec<usize> = (0..fields.len()).collect();
    let schemas = fields.iter().map(field_schema);
    let assertions = fields.iter().map(|f| type_assertions(container, f));
    let defaults = fields.iter().map(default_expr);
    let is_defaults: Vec<_> = fields.iter().map(is_default).collect();
    let min_tagged = min_tagged_version(container);

    let tagged = tagged_in_order(container);
    let known_tags = tagged.len() as u32;
    let t_idents: Vec<_> = tagged.iter().map(|&i| &fields[i].ident).collect();
    let t_index = &tagged;
    let t_is_default: Vec<_> = tagged.iter().map(|&i| &is_defaults[i]).collect();
    let t_tags: Vec<u32> = tagged
        .iter()
        .filter_map(|&i| fields[i].tag.map(|t| t.0))
        .collect();
    let t_slot: Vec<usize> = (0..tagged.len()).collect();

    let (unknown_ref, unknown_mut, unknown_default) = match &container.unknown_tagged {
        Some(u) => (
            quote!(::core::option::Option::Some(&self.#u)),
            quote!(::core::option::Option::Some(&mut this.#u)),
            quote!(#u: ::core::default::Default::default(),),
        ),
        None => (
            quote!(::core::option::Option::None),
            quote!(::core::option::Option::None),
            quote!(),
        ),
    };
    let unknown_type_check = container.unknown_tagged.as_ref().map(|u| {
        quote_spanned!(u.span()=> let _: &::kafka_wire::__private::UnknownTaggedFields = &self.#u;)
    });

    let p = quote!(::kafka_wire::__private);
    quote! {
        const _: () = { #(#assertions)* };

        impl #p::Struct for #ident {
            const STRUCT_SCHEMA: #p::StructSchema = #p::StructSchema {
                name: #name,
                fields: &[#(#schemas),*],
            };
        }

        impl ::core::default::Default for #ident {
            fn default() -> Self {
                Self { #(#idents: #defaults,)* #unknown_default }
            }
        }

        impl #p::Wire for #ident {
            const TYPE: #p::TypeSchema = #p::TypeSchema::Struct(&<Self as #p::Struct>::STRUCT_SCHEMA);
            const MIN_TAGGED_VERSION: i16 = #min_tagged;

            #[inline]
            fn size(&self, cx: #p::Cx) -> ::core::result::Result<usize, #p::EncodeError> {
                const FIELDS: &[#p::FieldSchema] = <#ident as #p::Struct>::STRUCT_SCHEMA.fields;
                #unknown_type_check
                let mut size = 0usize;
                #( size += #p::size_field(&self.#idents, &FIELDS[#index], cx, #is_defaults)?; )*
                let mut tagged = #p::TaggedSize::default();
                #( #p::size_tagged(&mut tagged, &self.#t_idents, &FIELDS[#t_index], cx, #t_is_default)?; )*
                size += tagged.finish(#unknown_ref, #known_tags, cx)?;
                ::core::result::Result::Ok(size)
            }

            #[inline]
            fn write<B: #p::BufMut>(&self, buf: &mut B, cx: #p::Cx) -> ::core::result::Result<(), #p::EncodeError> {
                const FIELDS: &[#p::FieldSchema] = <#ident as #p::Struct>::STRUCT_SCHEMA.fields;
                #( #p::write_field(buf, &self.#idents, &FIELDS[#index], cx)?; )*
                if cx.flexible {
                    let present: [bool; #known_tags as usize] = [
                        #( #p::tagged_present(&self.#t_idents, &FIELDS[#t_index], cx, #t_is_default), )*
                    ];
                    let count = present.iter().filter(|p| **p).count();
                    let mut writer = #p::TaggedWriter::begin(buf, count, #unknown_ref);
                    #(
                        if present[#t_slot] {
                            #p::write_tagged(&mut writer, buf, &self.#t_idents, &FIELDS[#t_index], cx)?;
                        }
                    )*
                    writer.finish(buf);
                }
                ::core::result::Result::Ok(())
            }

            #[inline]
            fn read(reader: &mut #p::Reader<'_>, cx: #p::Cx) -> ::core::result::Result<Self, #p::DecodeError> {
                const FIELDS: &[#p::FieldSchema] = <#ident as #p::Struct>::STRUCT_SCHEMA.fields;
                let mut this = <Self as ::core::default::Default>::default();
                #( #p::read_field(&mut this.#idents, reader, &FIELDS[#index], cx)?; )*
                if cx.flexible {
                    #p::read_tagged_section(reader, #unknown_mut, |tag, reader| match tag {
                        #( #t_tags => #p::read_tagged(&mut this.#t_idents, reader, &FIELDS[#t_index], cx), )*
                        _ => ::core::result::Result::Ok(false),
                    })?;
                }
                ::core::result::Result::Ok(this)
            }
        }

        impl #p::Nullable for #ident {
            fn null_size(_cx: #p::Cx) -> usize { 1 }
            fn write_null<B: #p::BufMut>(buf: &mut B, _cx: #p::Cx) { #p::write_struct_null(buf) }
            fn present_marker_size() -> usize { 1 }
            fn write_present_marker<B: #p::BufMut>(buf: &mut B) { #p::write_struct_present(buf) }
            fn read_nullable(reader: &mut #p::Reader<'_>, cx: #p::Cx)
                -> ::core::result::Result<::core::option::Option<Self>, #p::DecodeError> {
                if #p::read_struct_marker(reader)? {
                    <Self as #p::Wire>::read(reader, cx).map(::core::option::Option::Some)
                } else {
                    ::core::result::Result::Ok(::core::option::Option::None)
                }
            }
        }
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
        Some((key, _)) => quote!(::core::option::Option::Some(#key)),
        None => quote!(::core::option::Option::None),
    };
    let valid = range(message.versions.range);
    let flexible = range(message.flexible.range);
    let listeners = &message.listeners;
    let unstable = message.latest_version_unstable;
    let p = quote!(::kafka_wire::__private);
    quote! {
        impl ::kafka_wire::Message for #ident {
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

/// Impls that keep the user's crate free of follow-on errors when the derive failed.
pub fn fallback(ident: &syn::Ident, is_message: bool) -> TokenStream {
    let p = quote!(::kafka_wire::__private);
    let name = ident.to_string();
    let failed = quote!(::core::panic!(
        "kafka-wire: this struct's derive failed to compile"
    ));
    let message = is_message.then(|| {
        quote! {
            impl ::kafka_wire::Message for #ident {
                const SCHEMA: #p::MessageSchema = #p::MessageSchema {
                    name: #name,
                    kind: #p::MessageKind::Data,
                    api_key: ::core::option::Option::None,
                    valid_versions: #p::VersionRange::NONE,
                    flexible_versions: #p::VersionRange::NONE,
                    listeners: &[],
                    latest_version_unstable: false,
                    body: <#ident as #p::Struct>::STRUCT_SCHEMA,
                    about: "",
                };
            }
        }
    });
    let span = Span::call_site();
    quote_spanned! {span=>
        impl #p::Struct for #ident {
            const STRUCT_SCHEMA: #p::StructSchema = #p::StructSchema { name: #name, fields: &[] };
        }
        impl ::core::default::Default for #ident {
            fn default() -> Self { #failed }
        }
        impl #p::Wire for #ident {
            const TYPE: #p::TypeSchema = #p::TypeSchema::Struct(&<Self as #p::Struct>::STRUCT_SCHEMA);
            fn size(&self, _: #p::Cx) -> ::core::result::Result<usize, #p::EncodeError> { #failed }
            fn write<B: #p::BufMut>(&self, _: &mut B, _: #p::Cx) -> ::core::result::Result<(), #p::EncodeError> { #failed }
            fn read(_: &mut #p::Reader<'_>, _: #p::Cx) -> ::core::result::Result<Self, #p::DecodeError> { #failed }
        }
        impl #p::Nullable for #ident {
            fn null_size(_: #p::Cx) -> usize { #failed }
            fn write_null<B: #p::BufMut>(_: &mut B, _: #p::Cx) { #failed }
            fn read_nullable(_: &mut #p::Reader<'_>, _: #p::Cx)
                -> ::core::result::Result<::core::option::Option<Self>, #p::DecodeError> { #failed }
        }
        #message
    }
}
