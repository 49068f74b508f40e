//! The value class of a runtime type, so that its default is read as the schema's is.

use kwire::schema::TypeSchema;

use super::meaning::ValueClass;

/// The class of a runtime type.
pub fn of_type(ty: &TypeSchema) -> ValueClass {
    match ty {
        TypeSchema::Int8
        | TypeSchema::Int16
        | TypeSchema::Uint16
        | TypeSchema::Int32
        | TypeSchema::Uint32
        | TypeSchema::Int64 => ValueClass::Integer,
        TypeSchema::Bool => ValueClass::Bool,
        TypeSchema::Float64 => ValueClass::Float,
        TypeSchema::Uuid => ValueClass::Uuid,
        TypeSchema::String => ValueClass::Text,
        TypeSchema::Bytes | TypeSchema::Records | TypeSchema::Array(_) | TypeSchema::Struct(_) => {
            ValueClass::Composite
        }
        other => panic!("the checker does not know the type {other}"),
    }
}
