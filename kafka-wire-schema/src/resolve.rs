//! What a field's type names: a primitive, an inline struct, or a commonStruct.

use crate::model::{SchemaField, SchemaMessage};

/// The primitive type names of Kafka's schema language.
pub const PRIMITIVES: &[&str] = &[
    "bool", "int8", "int16", "uint16", "int32", "uint32", "int64", "float64", "uuid", "string",
    "bytes", "records",
];

/// A type split into whether it is an array and its element type: `[]Topic` →
/// `(true, "Topic")`.
pub fn element(ty: &str) -> (bool, &str) {
    let ty = ty.trim();
    match ty.strip_prefix("[]") {
        Some(inner) => (true, inner.trim()),
        None => (false, ty),
    }
}

/// What a field's type resolves to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape<'a> {
    /// A primitive or an array of primitives.
    Plain,
    /// A struct (or array of structs) defined inline in the field.
    Inline(&'a str, &'a [SchemaField]),
    /// A struct (or array of structs) from the file's `commonStructs`.
    Common(&'a str, &'a [SchemaField]),
    /// A struct type that is neither inline nor a commonStruct.
    Unknown(&'a str),
}

impl<'a> Shape<'a> {
    /// The struct's name and fields, when the type is one.
    pub fn struct_fields(self) -> Option<(&'a str, &'a [SchemaField])> {
        match self {
            Shape::Inline(name, fields) | Shape::Common(name, fields) => Some((name, fields)),
            Shape::Plain | Shape::Unknown(_) => None,
        }
    }
}

/// Resolves `field`'s type within `message`.
pub fn shape<'a>(message: &'a SchemaMessage, field: &'a SchemaField) -> Shape<'a> {
    let (_, name) = element(&field.ty);
    if PRIMITIVES.contains(&name) {
        Shape::Plain
    } else if !field.fields.is_empty() {
        Shape::Inline(name, &field.fields)
    } else if let Some(common) = message.common_struct(name) {
        Shape::Common(name, &common.fields)
    } else {
        Shape::Unknown(name)
    }
}

/// The fields of the struct named `name` anywhere in `message`: a commonStruct,
/// or inline in a field at any depth.
pub fn struct_fields<'a>(message: &'a SchemaMessage, name: &str) -> Option<&'a [SchemaField]> {
    if let Some(common) = message.common_struct(name) {
        return Some(&common.fields);
    }
    fn inline<'a>(fields: &'a [SchemaField], name: &str) -> Option<&'a [SchemaField]> {
        fields.iter().find_map(|field| {
            let (_, element) = element(&field.ty);
            if element == name && !field.fields.is_empty() {
                Some(field.fields.as_slice())
            } else {
                inline(&field.fields, name)
            }
        })
    }
    inline(&message.fields, name)
}
