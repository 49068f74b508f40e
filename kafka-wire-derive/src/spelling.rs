//! What a field type's spelling tells the derive before the compiler knows the
//! type: that it is one of Kafka's leaf types (no struct inside), or an `Option`.
//! Only ever used to leave out code a type does not need; the runtime's
//! `leaves_are_leaves` checks each guess when the struct compiles.

use syn::{GenericArgument, PathArguments, Type};

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
/// types from the macro), which only ever leaves out checks and strict passes that
/// such a type needs not: `leaves_are_leaves` checks the guess when the struct
/// compiles.
pub fn spelled_as_leaf(ty: &Type) -> bool {
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

/// True when `ty` is spelled as a leaf type that owns no heap memory when
/// decoded: a scalar, a uuid, or a string, bytes or records value (slices of the
/// input). Only ever used to leave out a `retained_size` call that would add zero.
pub fn spelled_as_scalar(ty: &Type) -> bool {
    match ty {
        Type::Paren(inner) => spelled_as_scalar(&inner.elem),
        Type::Group(inner) => spelled_as_scalar(&inner.elem),
        Type::Path(path) if path.qself.is_none() => path.path.segments.last().is_some_and(|last| {
            matches!(last.arguments, PathArguments::None)
                && last.ident != "String"
                && LEAF_TYPES.iter().any(|leaf| last.ident == leaf)
        }),
        _ => false,
    }
}

/// True when `ty` is spelled `Option<...>`.
pub fn spelled_as_option(ty: &Type) -> bool {
    match ty {
        Type::Paren(inner) => spelled_as_option(&inner.elem),
        Type::Group(inner) => spelled_as_option(&inner.elem),
        Type::Path(path) if path.qself.is_none() => path
            .path
            .segments
            .last()
            .is_some_and(|last| last.ident == "Option"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn options_are_told_by_their_last_segment() {
        let options: [Type; 3] = [
            syn::parse_quote!(Option<KafkaString>),
            syn::parse_quote!(::core::option::Option<Topic>),
            syn::parse_quote!((Option<i32>)),
        ];
        assert!(options.iter().all(spelled_as_option));
        let others: [Type; 2] = [
            syn::parse_quote!(KafkaString),
            syn::parse_quote!(Vec<Option<i32>>),
        ];
        assert!(!others.iter().any(spelled_as_option));
    }

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

    #[test]
    fn only_values_that_own_no_heap_are_scalars() {
        let scalars: [Type; 4] = [
            syn::parse_quote!(i64),
            syn::parse_quote!(kwire::KafkaString),
            syn::parse_quote!(Records),
            syn::parse_quote!((Uuid)),
        ];
        for ty in &scalars {
            assert!(spelled_as_scalar(ty), "{}", quote!(#ty));
        }
        // Owned strings, arrays, options and anything else are asked.
        let others: [Type; 5] = [
            syn::parse_quote!(String),
            syn::parse_quote!(Vec<i32>),
            syn::parse_quote!(Option<KafkaString>),
            syn::parse_quote!(BrokerIds),
            syn::parse_quote!(Topic),
        ];
        for ty in &others {
            assert!(!spelled_as_scalar(ty), "{}", quote!(#ty));
        }
    }
}
