//! Runtime schema metadata: what a message says about itself, field for field.
//!
//! Every derived message and struct carries one of these as an associated constant,
//! so tests and tools can compare it with Kafka's JSON schemas or print it, and
//! [`MessageSchema::to_kafka_json`] writes it out as Kafka's JSON schema file.

mod camel_case;
mod coding;
mod export;
mod min_size;
pub(crate) mod nested;
pub(crate) mod released;

use std::fmt;

use crate::VersionRange;

pub use camel_case::json_name;
#[doc(hidden)]
pub use camel_case::json_name_bytes;
/// Kafka's JSON schema file as data, what [`MessageSchema::to_kafka_schema`] gives
/// (from the `kwire-schema` crate).
#[doc(no_inline)]
pub use export::ExportError;
pub use kwire_schema::{SchemaDefault, SchemaField, SchemaMessage, SchemaStruct};
pub use min_size::MinSizes;

/// What kind of schema a message is, Kafka's `"type"` key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MessageKind {
    /// A request body, sent by a client.
    Request,
    /// A response body, sent by a broker or controller.
    Response,
    /// A request or response header.
    Header,
    /// A data structure stored or embedded elsewhere (records, snapshots, assignments).
    Data,
}

impl MessageKind {
    /// Kafka's spelling: `request`, `response`, `header` or `data`.
    pub const fn as_str(self) -> &'static str {
        match self {
            MessageKind::Request => "request",
            MessageKind::Response => "response",
            MessageKind::Header => "header",
            MessageKind::Data => "data",
        }
    }
}

impl fmt::Display for MessageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The Kafka type of a field, as the schema language names it.
///
/// Nullability is not part of the type: it is [`FieldSchema::nullable_versions`].
///
/// ```
/// use kwire::schema::TypeSchema;
///
/// const ARRAY_OF_INT32: TypeSchema = TypeSchema::Array(&TypeSchema::Int32);
/// assert_eq!(ARRAY_OF_INT32.to_string(), "[]int32");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum TypeSchema {
    /// `bool`
    Bool,
    /// `int8`
    Int8,
    /// `int16`
    Int16,
    /// `uint16`
    Uint16,
    /// `int32`
    Int32,
    /// `uint32`
    Uint32,
    /// `int64`
    Int64,
    /// `float64`
    Float64,
    /// `uuid`
    Uuid,
    /// `string`
    String,
    /// `bytes`
    Bytes,
    /// `records`
    Records,
    /// `[]T`
    Array(&'static TypeSchema),
    /// A nested structure.
    Struct(&'static StructSchema),
}

impl TypeSchema {
    /// The struct this type holds, directly or as array elements.
    pub const fn struct_schema(&self) -> Option<&'static StructSchema> {
        match self {
            TypeSchema::Struct(s) => Some(s),
            TypeSchema::Array(inner) => inner.struct_schema(),
            _ => None,
        }
    }

    /// The fewest bytes a value of this type takes at `version`: `compact` when its
    /// lengths are varints there, `nullable` when it may be null there (a null struct
    /// is its one-byte marker). Bounds what decoding reserves for an array's elements.
    ///
    /// ```
    /// use kwire::schema::TypeSchema;
    ///
    /// assert_eq!(TypeSchema::Int64.min_size(0, false, false), 8);
    /// assert_eq!(TypeSchema::String.min_size(0, false, false), 2); // int16 length
    /// assert_eq!(TypeSchema::String.min_size(0, true, false), 1); // varint length
    /// ```
    #[inline]
    pub const fn min_size(&self, version: i16, compact: bool, nullable: bool) -> usize {
        if let Some(size) = self.fixed_size() {
            return size;
        }
        match self {
            TypeSchema::Bool
            | TypeSchema::Int8
            | TypeSchema::Int16
            | TypeSchema::Uint16
            | TypeSchema::Int32
            | TypeSchema::Uint32
            | TypeSchema::Int64
            | TypeSchema::Float64
            | TypeSchema::Uuid => 0, // fixed-size: returned above
            TypeSchema::String if compact => 1,
            TypeSchema::String => 2,
            TypeSchema::Bytes | TypeSchema::Records | TypeSchema::Array(_) if compact => 1,
            TypeSchema::Bytes | TypeSchema::Records | TypeSchema::Array(_) => 4,
            TypeSchema::Struct(_) if nullable => 1,
            TypeSchema::Struct(s) => s.min_size(version, compact),
        }
    }
}

impl TypeSchema {
    /// The size of a value of a fixed-size type (`int32`: 4, `uuid`: 16), the same
    /// at every version; `None` for strings, bytes, records, arrays and structs.
    ///
    /// ```
    /// use kwire::schema::TypeSchema;
    ///
    /// assert_eq!(TypeSchema::Uuid.fixed_size(), Some(16));
    /// assert_eq!(TypeSchema::String.fixed_size(), None);
    /// ```
    #[inline]
    pub const fn fixed_size(&self) -> Option<usize> {
        match self {
            TypeSchema::Bool | TypeSchema::Int8 => Some(1),
            TypeSchema::Int16 | TypeSchema::Uint16 => Some(2),
            TypeSchema::Int32 | TypeSchema::Uint32 => Some(4),
            TypeSchema::Int64 | TypeSchema::Float64 => Some(8),
            TypeSchema::Uuid => Some(16),
            _ => None,
        }
    }
}

impl fmt::Display for TypeSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            TypeSchema::Bool => "bool",
            TypeSchema::Int8 => "int8",
            TypeSchema::Int16 => "int16",
            TypeSchema::Uint16 => "uint16",
            TypeSchema::Int32 => "int32",
            TypeSchema::Uint32 => "uint32",
            TypeSchema::Int64 => "int64",
            TypeSchema::Float64 => "float64",
            TypeSchema::Uuid => "uuid",
            TypeSchema::String => "string",
            TypeSchema::Bytes => "bytes",
            TypeSchema::Records => "records",
            TypeSchema::Array(inner) => return write!(f, "[]{inner}"),
            TypeSchema::Struct(s) => s.name,
        };
        f.write_str(name)
    }
}

/// One field of a message or struct, with everything its schema entry says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldSchema {
    /// The field's name in PascalCase, as in the JSON schema.
    pub name: &'static str,
    /// Its Kafka type.
    pub ty: TypeSchema,
    /// The versions the field exists in.
    pub versions: VersionRange,
    /// The versions in which it may be null.
    pub nullable_versions: VersionRange,
    /// The versions in which it is a tagged field (empty when it never is).
    pub tagged_versions: VersionRange,
    /// Its tag, for tagged fields.
    pub tag: Option<u32>,
    /// Whether it may be dropped silently when written at a version that lacks it.
    pub ignorable: bool,
    /// The default as written in the attribute (`"-1"`, `"null"`, `"0x7fffffff"`);
    /// `None` means the type's zero value.
    pub default: Option<&'static str>,
    /// A field-level override of the flexible versions (strings and bytes only).
    pub flexible_versions: Option<VersionRange>,
    /// Whether the field is the key of a map-like array.
    pub map_key: bool,
    /// The entity this field names (`topicName`, `groupId`, …), if any.
    pub entity_type: Option<&'static str>,
    /// Whether bytes are handed out as slices of the input rather than copied.
    pub zero_copy: bool,
    /// The documentation of the field: its `///` comment.
    pub about: &'static str,
}

impl FieldSchema {
    /// A field with only the required parts set; used by the derive and in tests.
    pub const fn new(name: &'static str, ty: TypeSchema, versions: VersionRange) -> Self {
        FieldSchema {
            name,
            ty,
            versions,
            nullable_versions: VersionRange::NONE,
            tagged_versions: VersionRange::NONE,
            tag: None,
            ignorable: false,
            default: None,
            flexible_versions: None,
            map_key: false,
            entity_type: None,
            zero_copy: false,
            about: "",
        }
    }

    /// The field's name in Kafka's JSON form ([`json_name`]).
    pub fn json_name(&self) -> String {
        json_name(self.name)
    }

    /// True when the field is written in the tagged section at `version`.
    #[inline]
    pub const fn is_tagged_at(&self, version: i16) -> bool {
        self.tagged_versions.contains(version)
    }

    /// True when the field may be null at `version`.
    #[inline]
    pub const fn is_nullable_at(&self, version: i16) -> bool {
        self.nullable_versions.contains(version)
    }

    /// The fewest bytes the field takes in its struct's body at `version`: nothing
    /// when the version lacks it or puts it in the tagged section.
    pub const fn min_size(&self, version: i16, flexible: bool) -> usize {
        if !self.versions.contains(version) || self.is_tagged_at(version) {
            return 0;
        }
        let compact = self.is_compact_at(version, flexible);
        self.ty
            .min_size(version, compact, self.is_nullable_at(version))
    }

    /// True when the field uses compact (varint-length) encoding at `version`,
    /// given whether the enclosing message is flexible there.
    #[inline]
    pub const fn is_compact_at(&self, version: i16, message_flexible: bool) -> bool {
        match self.flexible_versions {
            Some(range) => range.contains(version),
            None => message_flexible,
        }
    }
}

/// A nested structure: its name and fields.
///
/// ```
/// use kwire::schema::{MinSizes, StructSchema};
///
/// const EMPTY: StructSchema = StructSchema {
///     name: "Empty",
///     fields: &[],
///     keeps_unknown_tags: false,
///     min_sizes: MinSizes::UNTABULATED,
/// };
/// assert!(EMPTY.field("Missing").is_none());
/// assert_eq!(EMPTY.min_size(3, true), 1); // just the empty tagged section
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StructSchema {
    /// The struct's type name, as used in `"[]Name"`.
    pub name: &'static str,
    /// Its fields, in wire order.
    pub fields: &'static [FieldSchema],
    /// Whether it has an `unknown_tagged` field that keeps tags this code does not know
    /// (without one, decoding an unknown tag is an error rather than a silent loss).
    pub keeps_unknown_tags: bool,
    /// The fewest bytes the struct takes at each version, worked out from `fields`
    /// when the program is compiled (see [`MinSizes::table`]).
    pub min_sizes: MinSizes,
}

impl StructSchema {
    /// The field called `name`, if there is one.
    pub fn field(&self, name: &str) -> Option<&'static FieldSchema> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The fewest bytes the struct takes at `version`, `flexible` or not.
    #[inline]
    pub const fn min_size(&self, version: i16, flexible: bool) -> usize {
        match self.min_sizes.get(version, flexible) {
            Some(size) => size,
            None => min_size::of_fields(self.fields, version, flexible),
        }
    }
}

/// A whole message: a request, response, header or data structure.
///
/// ```
/// use kwire::schema::{MessageKind, TypeSchema};
/// use kwire::{KafkaString, Message};
///
/// /// Names a thing.
/// #[derive(Debug, Clone, PartialEq, kwire::Message)]
/// #[kafka(kind = data, versions = "0-1")]
/// struct Named {
///     /// The name, if any.
///     #[kafka(versions = "0+", nullable = "1+")]
///     name: Option<KafkaString>,
/// }
///
/// let schema = Named::SCHEMA;
/// assert_eq!((schema.name, schema.kind, schema.max_version()), ("Named", MessageKind::Data, 1));
/// let field = &schema.body.fields[0];
/// assert_eq!((field.name, field.ty, field.default), ("Name", TypeSchema::String, None));
/// assert_eq!(field.nullable_versions.to_string(), "1+");
/// assert_eq!(field.about, "The name, if any.");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MessageSchema {
    /// The message's name, e.g. `ApiVersionsRequest`.
    pub name: &'static str,
    /// Request, response, header or data.
    pub kind: MessageKind,
    /// The API key, for requests and responses.
    pub api_key: Option<i16>,
    /// The versions of the message that exist.
    pub valid_versions: VersionRange,
    /// The versions that use the compact, tagged-field encoding.
    pub flexible_versions: VersionRange,
    /// Which listeners accept the request (`broker`, `controller`).
    pub listeners: &'static [&'static str],
    /// Whether the latest version is still unstable.
    pub latest_version_unstable: bool,
    /// The message's top-level fields.
    pub body: StructSchema,
    /// The documentation of the message: its `///` comment.
    pub about: &'static str,
}

impl MessageSchema {
    /// True when `version` uses the flexible encoding.
    #[inline]
    pub const fn is_flexible(&self, version: i16) -> bool {
        self.flexible_versions.contains(version)
    }

    /// The highest valid version.
    pub const fn max_version(&self) -> i16 {
        match self.valid_versions.max() {
            Some(v) => v,
            None => -1,
        }
    }
}
