//! Whether a field's type is still the type a released schema gave it, asked in
//! `const` context by a struct that names its released schema
//! (`compatible_with = "…"`): the macro cannot see types (aliases and nested
//! structs hide them), the compiler can.

use super::TypeSchema;

/// True when `ty` is what the released schema's type text `released` names:
/// `int32`, `[]string`, `[]Seat`, `Seat`.
///
/// A struct name matches any struct, and an array of structs any array of
/// structs: struct names are in neither the bytes nor the JSON form, and a nested
/// struct's own fields are checked by that struct's own `compatible_with`.
pub const fn matches_released_type(ty: &TypeSchema, released: &str) -> bool {
    matches_bytes(ty, released.as_bytes().trim_ascii())
}

const fn matches_bytes(ty: &TypeSchema, text: &[u8]) -> bool {
    if let [b'[', b']', element @ ..] = text {
        return match ty {
            TypeSchema::Array(inner) => matches_bytes(inner, element.trim_ascii()),
            _ => false,
        };
    }
    let expected = match primitive(text) {
        Some(expected) => expected,
        // Not one of Kafka's primitive names: a struct's.
        None => return matches!(ty, TypeSchema::Struct(_)),
    };
    same(ty, &expected)
}

/// The primitive `text` names, if it names one.
const fn primitive(text: &[u8]) -> Option<TypeSchema> {
    Some(match text {
        b"bool" => TypeSchema::Bool,
        b"int8" => TypeSchema::Int8,
        b"int16" => TypeSchema::Int16,
        b"uint16" => TypeSchema::Uint16,
        b"int32" => TypeSchema::Int32,
        b"uint32" => TypeSchema::Uint32,
        b"int64" => TypeSchema::Int64,
        b"float64" => TypeSchema::Float64,
        b"uuid" => TypeSchema::Uuid,
        b"string" => TypeSchema::String,
        b"bytes" => TypeSchema::Bytes,
        b"records" => TypeSchema::Records,
        _ => return None,
    })
}

/// Whether two primitives are the same (`PartialEq` is not callable in `const`).
const fn same(a: &TypeSchema, b: &TypeSchema) -> bool {
    matches!(
        (a, b),
        (TypeSchema::Bool, TypeSchema::Bool)
            | (TypeSchema::Int8, TypeSchema::Int8)
            | (TypeSchema::Int16, TypeSchema::Int16)
            | (TypeSchema::Uint16, TypeSchema::Uint16)
            | (TypeSchema::Int32, TypeSchema::Int32)
            | (TypeSchema::Uint32, TypeSchema::Uint32)
            | (TypeSchema::Int64, TypeSchema::Int64)
            | (TypeSchema::Float64, TypeSchema::Float64)
            | (TypeSchema::Uuid, TypeSchema::Uuid)
            | (TypeSchema::String, TypeSchema::String)
            | (TypeSchema::Bytes, TypeSchema::Bytes)
            | (TypeSchema::Records, TypeSchema::Records)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{MinSizes, StructSchema};

    const SEAT: StructSchema = StructSchema {
        name: "Seat",
        fields: &[],
        keeps_unknown_tags: false,
        min_sizes: MinSizes::from_table(&[]),
    };

    #[test]
    fn primitives_match_their_names_only() {
        assert!(matches_released_type(&TypeSchema::Int32, "int32"));
        assert!(matches_released_type(&TypeSchema::Int32, " int32 "));
        assert!(!matches_released_type(&TypeSchema::Int64, "int32"));
        assert!(!matches_released_type(&TypeSchema::String, "bytes"));
        assert!(!matches_released_type(&TypeSchema::Int32, "[]int32"));
    }

    #[test]
    fn arrays_match_element_by_element() {
        const STRINGS: TypeSchema = TypeSchema::Array(&TypeSchema::String);
        assert!(matches_released_type(&STRINGS, "[]string"));
        assert!(!matches_released_type(&STRINGS, "[]int32"));
        assert!(!matches_released_type(&STRINGS, "string"));
    }

    #[test]
    fn structs_match_any_struct_name() {
        const ONE: TypeSchema = TypeSchema::Struct(&SEAT);
        const MANY: TypeSchema = TypeSchema::Array(&ONE);
        assert!(matches_released_type(&ONE, "Seat"));
        assert!(matches_released_type(&ONE, "Chair"));
        assert!(matches_released_type(&MANY, "[]Seat"));
        assert!(!matches_released_type(&MANY, "Seat"));
        assert!(!matches_released_type(&ONE, "[]Seat"));
        assert!(!matches_released_type(&TypeSchema::String, "Seat"));
    }
}
