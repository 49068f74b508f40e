//! Kafka's JSON form (`JsonWire`), when kafka-wire's `json` feature is on: one
//! runtime call per field and direction, like the binary codec. The rules are the
//! runtime's (`kafka-wire/src/json/field.rs`), and so is the JSON name rule
//! (`kafka-wire/src/schema/camel_case.rs`): the expansion hands it each field's
//! schema name, and each key is a constant worked out when the struct compiles.

use proc_macro2::TokenStream;

use crate::model::Container;

/// The `JsonWire` impl.
#[cfg(feature = "json")]
pub fn json_impl(container: &Container) -> TokenStream {
    use quote::quote;

    use super::defaults::is_default_fn;
    use crate::private_path;

    let ident = &container.ident;
    let p = private_path::private();
    let fields = &container.fields;
    let tys: Vec<_> = fields.iter().map(|f| &f.ty).collect();
    let idents: Vec<_> = fields.iter().map(|f| &f.ident).collect();
    let schema_names = fields.iter().map(|f| &f.name);
    let count = fields.len();
    let index: Vec<usize> = (0..count).collect();
    let is_default: Vec<_> = index.iter().map(|&i| is_default_fn(i)).collect();
    let drop_own = container.unknown_field().map(|u| {
        let field = &u.ident;
        quote!(self.#field.clear();)
    });
    quote! {
        // Each field's key, from the runtime's rule, worked out when compiling.
        const JSON_NAMES: [&str; #count] = [#(#p::json_name!(#schema_names)),*];

        // Inline: compiled where it is used, so that a library of messages does not
        // compile every conversion for users who convert a few (or none).
        #[automatically_derived]
        impl #p::JsonWire for #ident {
            #[inline]
            fn write_json(&self, version: ::core::primitive::i16) -> #p::Result<#p::JsonValue, #p::JsonError> {
                let mut object = #p::JsonMap::new();
                #( <#tys as #p::JsonField>::write_json_field(&self.#idents, &mut object, JSON_NAMES[#index], &FIELDS[#index], version, #is_default)?; )*
                #p::Ok(#p::JsonValue::Object(object))
            }

            #[inline]
            fn read_json(value: &#p::JsonValue, version: ::core::primitive::i16) -> #p::Result<Self, #p::JsonError> {
                let object = #p::json_object(value)?;
                #p::json_check_keys(object, &JSON_NAMES)?;
                let mut this = <Self as ::core::default::Default>::default();
                #( <#tys as #p::JsonField>::read_json_field(&mut this.#idents, object, JSON_NAMES[#index], &FIELDS[#index], version, #is_default)?; )*
                #p::Ok(this)
            }

            #[inline]
            fn drop_unknown_tags(&mut self) {
                #drop_own
                #( <#tys as #p::JsonWire>::drop_unknown_tags(&mut self.#idents); )*
            }
        }
    }
}

/// Nothing: the JSON form is off.
#[cfg(not(feature = "json"))]
pub fn json_impl(_container: &Container) -> TokenStream {
    TokenStream::new()
}
