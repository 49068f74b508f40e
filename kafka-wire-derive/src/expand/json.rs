//! Kafka's JSON form (`JsonWire`), when kafka-wire's `json` feature is on: one
//! runtime call per field and direction, like the binary codec; the rules are in
//! `kafka-wire/src/json/field.rs`.

use proc_macro2::TokenStream;

use crate::model::Container;

/// The JSON name of a field: the schema's PascalCase name with its first letter
/// lowered, as Kafka's `FieldSpec.camelCaseName` has it.
#[cfg(feature = "json")]
fn json_name(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

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
    let names: Vec<String> = fields.iter().map(|f| json_name(&f.name)).collect();
    let index: Vec<usize> = (0..fields.len()).collect();
    let is_default: Vec<_> = index.iter().map(|&i| is_default_fn(i)).collect();
    let drop_own = container.unknown_field().map(|u| {
        let field = &u.ident;
        quote!(self.#field.clear();)
    });
    quote! {
        // Inline: compiled where it is used, so that a library of messages does not
        // compile every conversion for users who convert a few (or none).
        #[automatically_derived]
        impl #p::JsonWire for #ident {
            #[inline]
            fn write_json(&self, version: i16) -> ::core::result::Result<#p::JsonValue, #p::JsonError> {
                let mut object = ::kwire::json::Map::new();
                #( <#tys as #p::JsonField>::write_json_field(&self.#idents, &mut object, #names, &FIELDS[#index], version, #is_default)?; )*
                ::core::result::Result::Ok(#p::JsonValue::Object(object))
            }

            #[inline]
            fn read_json(value: &#p::JsonValue, version: i16) -> ::core::result::Result<Self, #p::JsonError> {
                let object = #p::json_object(value)?;
                #p::json_check_keys(object, &[#(#names),*])?;
                let mut this = <Self as ::core::default::Default>::default();
                #( <#tys as #p::JsonField>::read_json_field(&mut this.#idents, object, #names, &FIELDS[#index], version, #is_default)?; )*
                ::core::result::Result::Ok(this)
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

#[cfg(all(test, feature = "json"))]
mod tests {
    use super::json_name;

    #[test]
    fn names_are_kafkas_camel_case() {
        assert_eq!(json_name("ThrottleTimeMs"), "throttleTimeMs");
        assert_eq!(json_name("validateOnly"), "validateOnly");
        assert_eq!(json_name("ZkVersion"), "zkVersion");
    }
}
