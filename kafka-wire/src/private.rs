//! The one path generated code names the runtime by. Not a public API: names here
//! may change in any release. It holds re-exports only; what they are lives in the
//! modules named after their jobs.

pub use bytes::Bytes;
// Generated code spells these through this module too: shorter than their full
// paths, and as immune to a user's own `Result` or `Some`.
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{self, Err, Ok};

pub use crate::attribute_types::{
    BrokerIdEntity, FlexibleOverride, NullableField, ProducerIdEntity, StrDefault, StringEntity,
    ZeroCopy,
};
pub use crate::dispatch::{
    api_key_of, first_repeated_key, ApiRequest, ApiResponse, DispatchError, MessageEnum,
    RequestEnum, ResponseEnum, WithMessage, WrongMessage,
};
pub use crate::field_rules::{
    absent, decode_error_in, encode_error_in, tag_not_in_version, FieldRules,
};
pub use crate::message::{Message, Struct};
pub use crate::schema::nested::{
    keeps_unknown_tags_within, leaves_are_leaves, tags_within_flexible,
};
pub use crate::schema::released::matches_released_type;
pub use crate::schema::{
    FieldSchema, MessageKind, MessageSchema, MinSizes, StructSchema, TypeSchema,
};
pub use crate::wire::nullable::{read_nullable_struct, write_struct_null, write_struct_present};
pub use crate::wire::primitive::FixedWidth;
pub use crate::wire::tagged::{read_tagged_section, ReadTagged, TaggedSize, TaggedWriter};
pub use crate::wire::{Cx, Nullable, Sizes, UnknownTaggedFields, Wire, Writer};
pub use crate::{AnyMessage, DecodeError, EncodeError, Reader, VersionRange};

#[cfg(feature = "json")]
pub use crate::__json_name as json_name;
#[cfg(feature = "json")]
pub use crate::json::field::{check_keys as json_check_keys, object as json_object, JsonField};
#[cfg(feature = "json")]
pub use crate::json::{JsonError, JsonErrorKind, JsonWire, Map as JsonMap, Value as JsonValue};
