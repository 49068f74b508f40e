//! Defaults and building: each field's default (its `default` attribute, or the
//! type's schema default), `Default` from them, and a `with_<field>` setter per
//! field, so that code building a struct keeps compiling when fields are added
//! (Kafka adds some in every release).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{Ident, Type, Visibility};

use crate::attr::doc_text;
use crate::model::{Container, DefaultValue, Field};
use crate::private_path;

/// The helper returning field `index`'s default value.
pub fn default_fn(index: usize) -> Ident {
    format_ident!("__kafka_default_{}", index)
}

/// The helper telling whether field `index` holds its default value.
pub fn is_default_fn(index: usize) -> Ident {
    format_ident!("__kafka_is_default_{}", index)
}

/// The value of a field's default, as an expression.
fn default_value(field: &Field) -> TokenStream {
    let ty = &field.ty;
    let p = private_path::private();
    match &field.default {
        None => quote!(<#ty as #p::FieldRules>::schema_default_value()),
        Some(DefaultValue::Null(span)) => {
            // The alias spanned on `null` too: a path's error spans all its tokens,
            // and one from the call site would point the error at the derive.
            let p = private_path::private_at(*span);
            quote_spanned!(*span=> #p::None)
        }
        Some(DefaultValue::Literal { expr, .. }) => quote!(#expr),
        Some(DefaultValue::Str(s)) => {
            // Spanned on the literal, path too, so a type without string defaults
            // is reported there.
            let p = private_path::private_at(s.span());
            quote_spanned!(s.span()=> #p::StrDefault::from_default(#s))
        }
    }
}

/// The helpers of a field's default, where something needs them: a `default`
/// attribute's value, written out once in a function so that a default that does
/// not fit the type fails to type-check once, spanned on the literal; and, for
/// strict encoding's pass over an ignorable field and for the JSON form, a
/// function telling whether the field holds its default (which needs the type to
/// be `PartialEq`, asked of `Wire` like every use of the type, so reported on the
/// type). Fields without either cost no items.
fn field_helpers(field: &Field, index: usize) -> TokenStream {
    let ty = &field.ty;
    let p = private_path::private();
    let default = default_fn(index);
    let default_helper = field.default.as_ref().map(|_| {
        let value = default_value(field);
        quote! {
            #[inline]
            fn #default() -> #ty {
                #value
            }
        }
    });
    let needs_is_default = field.ignorable || cfg!(feature = "json");
    let is_default_helper = needs_is_default.then(|| {
        let is_default = is_default_fn(index);
        let compare = match &field.default {
            None => quote!(<#ty as #p::FieldRules>::is_schema_default_value(value)),
            Some(_) => quote!(<#ty as #p::FieldRules>::is_default_value(value, #default)),
        };
        quote! {
            #[inline]
            fn #is_default(value: &#ty) -> ::core::primitive::bool {
                #compare
            }
        }
    });
    quote!(#default_helper #is_default_helper)
}

/// Every field's helpers.
pub fn helpers(container: &Container) -> TokenStream {
    container
        .fields
        .iter()
        .enumerate()
        .map(|(index, field)| field_helpers(field, index))
        .collect()
}

/// `Default` from the schema defaults.
pub fn default_impl(container: &Container) -> TokenStream {
    let ident = &container.ident;
    let idents = container.fields.iter().map(|f| &f.ident);
    let defaults = container.fields.iter().enumerate().map(|(index, field)| {
        if field.default.is_some() {
            let default = default_fn(index);
            quote!(#default())
        } else {
            default_value(field)
        }
    });
    let unknown = container
        .unknown_field()
        .map(|u| &u.ident)
        .map(|u| quote!(#u: ::core::default::Default::default(),));
    quote! {
        #[automatically_derived]
        impl ::core::default::Default for #ident {
            #[inline]
            fn default() -> Self {
                Self { #(#idents: #defaults,)* #unknown }
            }
        }
    }
}

/// A field that gets a setter.
pub struct SetterField<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub ty: &'a Type,
    pub about: String,
}

/// The fields of a checked struct, unknown tags included.
pub fn setter_fields(container: &Container) -> Vec<SetterField<'_>> {
    let mut fields: Vec<SetterField<'_>> = container
        .fields
        .iter()
        .map(|f| SetterField {
            ident: &f.ident,
            vis: &f.vis,
            ty: &f.ty,
            about: f.about.clone(),
        })
        .collect();
    fields.extend(container.unknown_field().map(|u| SetterField {
        ident: &u.ident,
        vis: &u.vis,
        ty: &u.ty,
        about: "Tagged fields this code does not know.".into(),
    }));
    fields
}

/// The fields of any struct with named fields, as written (for the fallback).
pub fn raw_setter_fields(fields: &syn::FieldsNamed) -> Vec<SetterField<'_>> {
    fields
        .named
        .iter()
        .filter_map(|f| {
            Some(SetterField {
                ident: f.ident.as_ref()?,
                vis: &f.vis,
                ty: &f.ty,
                about: doc_text(&f.attrs),
            })
        })
        .collect()
}

/// `with_<field>(self, value) -> Self` for each field, with its field's visibility,
/// in an impl carrying `doc` (the schema table, where the struct was checked).
pub fn setters(ident: &Ident, fields: &[SetterField<'_>], doc: Option<&str>) -> TokenStream {
    let setters = fields.iter().map(|field| {
        let field_ident = field.ident;
        let name = field_ident.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name);
        let setter = Ident::new(&format!("with_{name}"), Span::call_site());
        let (vis, ty) = (field.vis, field.ty);
        let doc = format!(
            "Sets `{name}` and returns the value, for building one field at a time. {}",
            field.about
        );
        quote! {
            #[doc = #doc]
            #[inline]
            #[must_use]
            #vis fn #setter(mut self, value: #ty) -> Self {
                self.#field_ident = value;
                self
            }
        }
    });
    let doc = doc.map(|doc| quote!(#[doc = #doc]));
    quote! {
        #doc
        impl #ident {
            #(#setters)*
        }
    }
}
