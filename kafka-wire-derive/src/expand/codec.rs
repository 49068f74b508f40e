//! The codec impls: `Wire` (size, write, read), one runtime call per field and
//! pass, and `Nullable` for the struct.

use proc_macro2::{Ident, TokenStream};
use quote::{quote, quote_spanned};
use syn::{GenericArgument, PathArguments, Type};

use super::defaults::is_default_fn;
use crate::model::Container;
use crate::private_path;

/// Indices of tagged fields, in tag order.
fn tagged_in_order(container: &Container) -> Vec<usize> {
    let mut tagged: Vec<(u32, usize)> = container
        .fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.tag_number().map(|tag| (tag, i)))
        .collect();
    tagged.sort_unstable();
    tagged.into_iter().map(|(_, i)| i).collect()
}

/// The last path segments of the types that hold no struct: Kafka's scalars,
/// strings, bytes, records and uuids as the runtime spells them.
const LEAF_TYPES: &[&str] = &[
    "bool",
    "i8",
    "i16",
    "u16",
    "i32",
    "u32",
    "i64",
    "f64",
    "Uuid",
    "KafkaString",
    "String",
    "Bytes",
    "Records",
];

/// True when `ty` is spelled as a type that holds no struct: a leaf type, or a
/// `Vec`, `SmallVec` or `Option` of one. A guess from the spelling (aliases hide
/// types from the macro), which only ever leaves out fields that need no strict
/// pass: `leaves_hold_no_struct` checks the guess when the struct compiles.
fn spelled_as_leaf(ty: &Type) -> bool {
    match ty {
        Type::Paren(inner) => spelled_as_leaf(&inner.elem),
        Type::Group(inner) => spelled_as_leaf(&inner.elem),
        Type::Array(array) => spelled_as_leaf(&array.elem),
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else {
                return false;
            };
            match &last.arguments {
                PathArguments::None => LEAF_TYPES.iter().any(|leaf| last.ident == leaf),
                PathArguments::AngleBracketed(args)
                    if ["Vec", "SmallVec", "Option"]
                        .iter()
                        .any(|container| last.ident == container) =>
                {
                    let mut types = args.args.iter().filter_map(|arg| match arg {
                        GenericArgument::Type(ty) => Some(ty),
                        _ => None,
                    });
                    matches!((types.next(), types.next()), (Some(ty), None) if spelled_as_leaf(ty))
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// `check_lossless`, strict encoding's pass: one runtime call for each field that
/// can lose a value (the ignorable ones) or hold one that can (nested structs).
/// Fields of neither kind, most of Kafka's, get no call, so that a struct of them
/// keeps the trait's provided method and compiles nothing more; the spelling that
/// tells them apart is checked by a `const` assertion. Returns the method and
/// the assertion.
fn strict_pass(container: &Container) -> (TokenStream, TokenStream) {
    let p = private_path::private();
    let fields = &container.fields;
    let mut calls = Vec::new();
    let mut leaves = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let (ty, ident) = (&field.ty, &field.ident);
        if field.ignorable {
            let is_default = is_default_fn(index);
            calls.push(quote! {
                <#ty as #p::FieldRules>::strict_ignorable(&self.#ident, &FIELDS[#index], cx, #is_default)?;
            });
        } else if spelled_as_leaf(ty) {
            leaves.push(index);
        } else {
            calls.push(quote! {
                <#ty as #p::FieldRules>::strict_nested(&self.#ident, &FIELDS[#index], cx)?;
            });
        }
    }
    let method = (!calls.is_empty()).then(|| {
        quote! {
            // Inline, so that only programs encoding strictly compile it.
            #[inline]
            fn check_lossless(&self, cx: #p::Cx) -> ::core::result::Result<(), #p::EncodeError> {
                #(#calls)*
                ::core::result::Result::Ok(())
            }
        }
    });
    let guard = (!leaves.is_empty()).then(|| {
        quote! {
            const _: () = #p::leaves_hold_no_struct(FIELDS, &[#(#leaves),*]);
        }
    });
    (quote!(#method), quote!(#guard))
}

/// The `Wire` impl.
pub fn wire_impl(container: &Container) -> TokenStream {
    let ident = &container.ident;
    let p = private_path::private();
    let fields = &container.fields;
    let tys: Vec<_> = fields.iter().map(|f| &f.ty).collect();
    let idents: Vec<_> = fields.iter().map(|f| &f.ident).collect();
    let index: Vec<usize> = (0..fields.len()).collect();
    let is_default: Vec<Ident> = index.iter().map(|&i| is_default_fn(i)).collect();

    let (strict, strict_guard) = strict_pass(container);
    let tagged = tagged_in_order(container);
    let known_tags = tagged.len() as u32;
    let t_tys: Vec<_> = tagged.iter().map(|&i| &fields[i].ty).collect();
    let t_idents: Vec<_> = tagged.iter().map(|&i| &fields[i].ident).collect();
    let t_is_default: Vec<Ident> = tagged.iter().map(|&i| is_default_fn(i)).collect();
    let t_tags: Vec<u32> = tagged
        .iter()
        .filter_map(|&i| fields[i].tag_number())
        .collect();

    // `unknown` binds the unknown-tags field, typed where it is taken so a field of
    // another type is reported on its type, once per kind of borrow.
    let (unknown_ref, unknown_mut) = match container.unknown_field() {
        Some(u) => {
            let span = u.ty_span;
            let mut field = u.ident.clone();
            field.set_span(span);
            (
                quote_spanned! {span=>
                    let unknown: &#p::UnknownTaggedFields = &self.#field;
                    let unknown = ::core::option::Option::Some(unknown);
                },
                quote_spanned! {span=>
                    let unknown: &mut #p::UnknownTaggedFields = &mut this.#field;
                    let unknown = ::core::option::Option::Some(unknown);
                },
            )
        }
        None => {
            let none = quote!(let unknown = ::core::option::Option::None;);
            (none.clone(), none)
        }
    };

    // A struct without tags of its own needs no section state while sizing.
    let size_section = if tagged.is_empty() {
        quote! {
            #unknown_ref
            size += #p::TaggedSize::of_unknown_only(unknown, cx)?;
        }
    } else {
        quote! {
            let mut section = #p::TaggedSize::begin(#known_tags, cx, sizes);
            #( <#t_tys as #p::FieldRules>::size_tagged(&self.#t_idents, &mut section, &FIELDS[#tagged], cx, sizes, #t_is_default)?; )*
            #unknown_ref
            size += section.finish(unknown, #known_tags, cx.version)?;
        }
    };

    // The same for writing.
    let write_section = if tagged.is_empty() {
        quote! {
            #unknown_ref
            #p::TaggedWriter::write_unknown_only(buf, unknown);
        }
    } else {
        quote! {
            #unknown_ref
            let mut section = #p::TaggedWriter::begin(buf, #known_tags, unknown, sizes)?;
            #( <#t_tys as #p::FieldRules>::write_tagged(&self.#t_idents, &mut section, buf, &FIELDS[#tagged], cx, sizes)?; )*
            section.finish(buf);
        }
    };

    quote! {
        #[automatically_derived]
        impl #p::Wire for #ident {
            const TYPE: #p::TypeSchema = #p::TypeSchema::Struct(&<Self as #p::Struct>::STRUCT_SCHEMA);

            #strict

            #[inline]
            fn size(&self, cx: #p::Cx, sizes: &mut #p::Sizes) -> ::core::result::Result<usize, #p::EncodeError> {
                let mut size = 0usize;
                #( size += <#tys as #p::FieldRules>::size_field(&self.#idents, &FIELDS[#index], cx, sizes, #is_default)?; )*
                #size_section
                ::core::result::Result::Ok(size)
            }

            #[inline]
            fn write<B: #p::BufMut>(&self, buf: &mut B, cx: #p::Cx, sizes: &mut #p::Sizes) -> ::core::result::Result<(), #p::EncodeError> {
                #( <#tys as #p::FieldRules>::write_field(&self.#idents, buf, &FIELDS[#index], cx, sizes)?; )*
                if cx.flexible {
                    #write_section
                }
                ::core::result::Result::Ok(())
            }

            // Inline: an array builds each element from this where it will live, and a
            // value returned from an out-of-line call is copied with loads that stall
            // on the stores that just wrote it.
            #[inline]
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
                let this = self;
                #( <#tys as #p::FieldRules>::read_field(&mut this.#idents, reader, &FIELDS[#index], cx)?; )*
                if cx.flexible {
                    #p::read_tagged_section(reader, this, cx)?;
                }
                ::core::result::Result::Ok(())
            }
        }

        #strict_guard

        // Reached through a `dyn` from the one tagged-section loop in the runtime.
        #[automatically_derived]
        impl #p::ReadTagged for #ident {
            #[allow(unused_variables)]
            fn read_tag(&mut self, tag: u32, reader: &mut #p::Reader<'_>, cx: #p::Cx) -> ::core::result::Result<bool, #p::DecodeError> {
                let this = self;
                match tag {
                    #( #t_tags => <#t_tys as #p::FieldRules>::read_tagged(&mut this.#t_idents, reader, &FIELDS[#tagged], cx), )*
                    _ => ::core::result::Result::Ok(false),
                }
            }

            fn unknown_tags(&mut self) -> ::core::option::Option<&mut #p::UnknownTaggedFields> {
                let this = self;
                #unknown_mut
                unknown
            }
        }
    }
}

/// The `Nullable` impl: a nullable struct is a one-byte marker, then the struct.
/// Inline, so that a struct never nullable costs no code (`read_nullable` would
/// otherwise be compiled for every struct, with its whole decode inside).
pub fn nullable_impl(ident: &Ident) -> TokenStream {
    let p = private_path::private();
    quote! {
        #[automatically_derived]
        impl #p::Nullable for #ident {
            #[inline]
            fn null_size(_cx: #p::Cx) -> usize { 1 }
            #[inline]
            fn write_null<B: #p::BufMut>(buf: &mut B, _cx: #p::Cx) { #p::write_struct_null(buf) }
            #[inline]
            fn present_marker_size() -> usize { 1 }
            #[inline]
            fn write_present_marker<B: #p::BufMut>(buf: &mut B) { #p::write_struct_present(buf) }
            #[inline]
            fn read_nullable(reader: &mut #p::Reader<'_>, cx: #p::Cx)
                -> ::core::result::Result<::core::option::Option<Self>, #p::DecodeError> {
                #p::read_nullable_struct(reader, cx)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_spellings_of_types_without_structs_are_leaves() {
        let leaves: [Type; 7] = [
            syn::parse_quote!(i32),
            syn::parse_quote!(kwire::KafkaString),
            syn::parse_quote!(Option<KafkaString>),
            syn::parse_quote!(Vec<Uuid>),
            syn::parse_quote!(SmallVec<[i32; 4]>),
            syn::parse_quote!(Option<Vec<::kwire::Records>>),
            syn::parse_quote!((bool)),
        ];
        for ty in &leaves {
            assert!(spelled_as_leaf(ty), "{}", quote!(#ty));
        }
        let others: [Type; 6] = [
            syn::parse_quote!(Topic),
            syn::parse_quote!(Vec<Topic>),
            syn::parse_quote!(Option<Topic>),
            syn::parse_quote!(BrokerIds),
            syn::parse_quote!(Vec<i32, Topic>),
            syn::parse_quote!(<T as Trait>::KafkaString),
        ];
        for ty in &others {
            assert!(!spelled_as_leaf(ty), "{}", quote!(#ty));
        }
    }
}
