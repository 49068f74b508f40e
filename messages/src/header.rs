//! Request and response headers.

use kwire::schema::MessageSchema;
use kwire::{KafkaString, UnknownTaggedFields};

/// The header that starts every request.
///
/// ```
/// use kwire::{KafkaString, Message};
/// use kwire_messages::RequestHeader;
///
/// let header = RequestHeader::default()
///     .with_request_api_key(18)
///     .with_request_api_version(3)
///     .with_correlation_id(2)
///     .with_client_id(Some(KafkaString::from_static("u03")));
/// // Version 2 is flexible, yet ClientId keeps its int16 length.
/// assert_eq!(&header.encode(2).unwrap()[..], b"\0\x12\0\x03\0\0\0\x02\0\x03u03\0");
/// ```
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = header, versions = "1-2", flexible = "2+")]
pub struct RequestHeader {
    /// The API key of this request.
    #[kafka(versions = "0+")]
    pub request_api_key: i16,
    /// The API version of this request.
    #[kafka(versions = "0+")]
    pub request_api_version: i16,
    /// The correlation ID of this request.
    #[kafka(versions = "0+")]
    pub correlation_id: i32,
    /// The client ID string.
    #[kafka(versions = "1+", nullable = "1+", flexible = "none")]
    pub client_id: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The header that starts every response.
///
/// ```
/// use kwire::Message;
/// use kwire_messages::ResponseHeader;
///
/// let header = ResponseHeader::default().with_correlation_id(7);
/// assert_eq!(&header.encode(0).unwrap()[..], [0, 0, 0, 7]);
/// assert_eq!(&header.encode(1).unwrap()[..], [0, 0, 0, 7, 0]);
/// ```
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = header, versions = "0-1", flexible = "1+")]
pub struct ResponseHeader {
    /// The correlation ID of this response.
    #[kafka(versions = "0+")]
    pub correlation_id: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The request header version for a body of `schema` at `version`: 2 when the body
/// is flexible, 1 otherwise (header v0 belonged only to the retired
/// ControlledShutdown v0). The one place this rule is written.
pub(crate) const fn request_version_for(schema: &MessageSchema, version: i16) -> i16 {
    if schema.is_flexible(version) {
        2
    } else {
        1
    }
}

/// The response header version for a body of `schema` at `version`: 1 when the body
/// is flexible, 0 otherwise, and 0 always when `always_v0` (ApiVersions, from the API
/// table). The one place this rule is written.
pub(crate) const fn response_version_for(
    schema: &MessageSchema,
    version: i16,
    always_v0: bool,
) -> i16 {
    if !always_v0 && schema.is_flexible(version) {
        1
    } else {
        0
    }
}
