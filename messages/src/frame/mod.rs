//! Framing: `[int32 length][header][body]`, as requests and responses travel on a
//! connection. The header version follows from the body's version: flexible bodies
//! take the flexible header, except where the [API table](crate::ApiKey) says a
//! response header is always v0 (ApiVersions, so that a client can read it whatever
//! version it asked for).
//!
//! Typed functions (`encode_request`, `decode_request::<M>`) serve code that knows
//! the message; the `*_any_*` functions read and write [`Request`] and [`Response`]
//! (or any enum deriving [`RequestEnum`](derive@kwire::RequestEnum)), choosing
//! the type by the header's API key. Every frame's length prefix is read and
//! written by [`frame_contents`], [`read_length`] and [`length_prefix`].
//!
//! Encoders come in three forms with the same bytes: a new buffer
//! ([`encode_request`]), appended to a buffer kept for reuse
//! ([`encode_request_into`]), and as chunks ([`encode_request_vectored`]), where
//! records and `zero_copy` bytes are attached rather than copied, Kafka's
//! `SendBuilder` way: a Produce or Fetch of megabytes is framed by writing its few
//! hundred bytes of fields, and sent with one gather write.
//!
//! # A server's half: [`RequestFrame`]
//!
//! A server reads a request's header first, for any API key and version, then the
//! body, either exactly or the way Kafka's broker reads it. Why two ways
//! ([`TrailingBytes`]): Kafka's broker reads a request body and does not check
//! that the frame ends there, and some clients rely on it. confluent-kafka 2.16.1
//! (librdkafka 2.16.0) sends MetadataRequest v12 with three bytes after the body:
//!
//! ```text
//! 00000023 0003 000c 00000003 0011 "interop-confluent" 00 | 00000000 01 00 | 00 00 00
//! length   key  v12  corr id  client id             tags  | body            | extra
//! ```
//!
//! A server that refuses them cannot serve that client, so a server reads with
//! [`TrailingBytes::Ignore`] and learns how many bytes it skipped. Conformance
//! tests, and [`Message::decode`], stay exact ([`TrailingBytes::Refuse`]): every
//! byte must belong to the message.

use bytes::Bytes;
use kwire::schema::MessageSchema;
use kwire::{
    DecodeError, DecodeLimits, DispatchError, EncodeError, Message, Reader, RequestEnum,
    ResponseEnum,
};

mod encode;
mod length;
mod request_frame;

pub use length::{frame_contents, length_prefix, read_length, FrameLengthError, PREFIX_LEN};

pub use encode::{
    encode_any_request, encode_any_request_into, encode_any_request_vectored, encode_any_response,
    encode_any_response_into, encode_any_response_vectored, encode_request, encode_request_into,
    encode_request_vectored, encode_response, encode_response_into, encode_response_vectored,
};
pub use request_frame::{DecodedBody, RequestError, RequestFrame, TrailingBytes};

use crate::header;
use crate::{ApiKey, Request, RequestHeader, Response, ResponseHeader};

/// Why a frame could not be built or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// The header or body could not be encoded.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The header or body could not be decoded.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The header names another API than the body is.
    #[error("the header's API key {header} does not match the body's API key {body}")]
    ApiKeyMismatch {
        /// The key in the header.
        header: i16,
        /// The key of the body's message type.
        body: i16,
    },
    /// The body's message type is not a request or response with an API key.
    #[error("{0} has no API key, so it cannot be framed as a request or response")]
    NoApiKey(&'static str),
    /// The length prefix disagrees with the bytes that follow it, or a frame is
    /// too large for its int32 length.
    #[error(transparent)]
    Length(#[from] FrameLengthError),
    /// The header's API key has no message type to decode the body as.
    #[error(transparent)]
    Dispatch(DispatchError),
}

impl From<DispatchError> for FrameError {
    fn from(error: DispatchError) -> Self {
        match error {
            DispatchError::Decode(error) => FrameError::Decode(error),
            other => FrameError::Dispatch(other),
        }
    }
}

/// The request header version for a body of `M` at `version`: 2 when the body is
/// flexible, 1 otherwise.
pub fn request_header_version<M: Message>(version: i16) -> i16 {
    header::request_version_for(&M::SCHEMA, version)
}

/// The response header version for a body of `M` at `version`: a Kafka API's
/// follows [`ApiKey::response_header_version`]; another message's is 1 when the body
/// is flexible, 0 otherwise.
pub fn response_header_version<M: Message>(version: i16) -> i16 {
    response_header_version_of(&M::SCHEMA, version)
}

pub(crate) fn response_header_version_of(schema: &MessageSchema, version: i16) -> i16 {
    let kafka_api = schema.api_key.and_then(|key| ApiKey::from_i16(key).ok());
    match kafka_api {
        Some(api) if api.response_schema().name == schema.name => {
            api.response_header_version(version)
        }
        _ => header::response_version_for(schema, version, false),
    }
}

/// The API key of a body of the type `schema` describes.
pub(crate) fn api_key_of(schema: &'static MessageSchema) -> Result<i16, FrameError> {
    schema.api_key.ok_or(FrameError::NoApiKey(schema.name))
}

/// Checks that a header naming `header_key` can carry a body of `M`.
pub(crate) fn expect_api_key<M: Message>(header_key: i16) -> Result<(), FrameError> {
    expect_api_key_of(&M::SCHEMA, header_key)
}

/// Checks that a header naming `header_key` can carry a body of the type `schema`
/// describes.
pub(crate) fn expect_api_key_of(
    schema: &'static MessageSchema,
    header_key: i16,
) -> Result<(), FrameError> {
    let body = api_key_of(schema)?;
    if header_key != body {
        return Err(FrameError::ApiKeyMismatch {
            header: header_key,
            body,
        });
    }
    Ok(())
}

/// Checks the length prefix and returns a reader positioned after it.
pub(crate) fn open(frame: &Bytes) -> Result<Reader<'_>, FrameError> {
    open_with_limits(frame, &DecodeLimits::DEFAULT)
}

/// Checks the length prefix, and the frame's size against `limits`, and returns
/// a reader positioned after it that keeps to `limits`.
pub(crate) fn open_with_limits<'a>(
    frame: &'a Bytes,
    limits: &'a DecodeLimits,
) -> Result<Reader<'a>, FrameError> {
    let contents = frame_contents(frame)?;
    if contents.len() > limits.max_frame_size() {
        return Err(FrameError::Length(FrameLengthError::TooLarge {
            len: contents.len(),
            max: limits.max_frame_size(),
        }));
    }
    let mut reader = Reader::with_limits(frame, limits);
    let _prefix: [u8; PREFIX_LEN] = reader.read_array()?;
    Ok(reader)
}

/// The API key and version that lead every request header version, read without
/// moving `reader`, so that they can pick the header version.
fn peek_key_and_version(reader: &Reader<'_>) -> Result<(i16, i16), FrameError> {
    let mut peek = reader.clone();
    let key = i16::from_be_bytes(peek.read_array()?);
    let version = i16::from_be_bytes(peek.read_array()?);
    Ok((key, version))
}

fn unknown_key<R>(api_key: i16) -> FrameError {
    FrameError::Dispatch(DispatchError::UnknownApiKey {
        api_key,
        enum_name: std::any::type_name::<R>(),
    })
}

fn finish<T>(reader: &Reader<'_>, value: T) -> Result<T, FrameError> {
    reader.expect_end()?;
    Ok(value)
}

/// Reads a framed request whose body is an `M`; the header says which version.
pub fn decode_request<M: Message>(frame: &Bytes) -> Result<(RequestHeader, M), FrameError> {
    decode_request_with_limits(frame, &DecodeLimits::DEFAULT)
}

/// [`decode_request`] within a server's `limits`: a frame larger than they
/// allow is [`FrameLengthError::TooLarge`]; a string, array, bytes value or
/// records over them in the header or body is
/// [`LimitExceeded`](kwire::DecodeErrorKind::LimitExceeded).
///
/// ```
/// use kwire::{DecodeErrorKind, DecodeLimits, Limit};
/// use kwire_messages::api::MetadataRequest;
/// use kwire_messages::{frame, RequestHeader};
///
/// let header = RequestHeader::default()
///     .with_request_api_key(3)
///     .with_request_api_version(12)
///     .with_client_id(Some("a-rather-long-client-id".into()));
/// let bytes = frame::encode_request(&header, &MetadataRequest::default()).unwrap();
/// let limits = DecodeLimits::default().with_max_string_len(16);
/// match frame::decode_request_with_limits::<MetadataRequest>(&bytes, &limits) {
///     Err(frame::FrameError::Decode(e)) => assert!(matches!(
///         e.kind(),
///         DecodeErrorKind::LimitExceeded { limit: Limit::StringLength, value: 23, max: 16 }
///     )),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn decode_request_with_limits<M: Message>(
    frame: &Bytes,
    limits: &DecodeLimits,
) -> Result<(RequestHeader, M), FrameError> {
    let mut reader = open_with_limits(frame, limits)?;
    let (key, version) = peek_key_and_version(&reader)?;
    expect_api_key::<M>(key)?;
    let header = RequestHeader::read_from(&mut reader, request_header_version::<M>(version))?;
    let body = M::read_from(&mut reader, version)?;
    finish(&reader, (header, body))
}

/// Reads a framed response to a request made at `version`.
pub fn decode_response<M: Message>(
    frame: &Bytes,
    version: i16,
) -> Result<(ResponseHeader, M), FrameError> {
    let mut reader = open(frame)?;
    let header = ResponseHeader::read_from(&mut reader, response_header_version::<M>(version))?;
    let body = M::read_from(&mut reader, version)?;
    finish(&reader, (header, body))
}

/// The correlation id of a response frame (its int32 length prefix included), read
/// without knowing the request: it leads every response header version.
pub fn response_correlation_id(frame: &Bytes) -> Result<i32, FrameError> {
    let mut reader = Reader::new(frame);
    let _length: [u8; 4] = reader.read_array()?;
    Ok(i32::from_be_bytes(reader.read_array()?))
}

/// Reads a response frame's header at `header_version` and hands back the body's
/// bytes unread, for code that decides how to read the body itself (ApiVersions'
/// fallback to version 0, a proxy passing bodies through).
pub fn split_response(
    frame: &Bytes,
    header_version: i16,
) -> Result<(ResponseHeader, Bytes), FrameError> {
    let mut reader = open(frame)?;
    let header = ResponseHeader::read_from(&mut reader, header_version)?;
    let body = reader.read_bytes(reader.remaining())?;
    Ok((header, body))
}

/// Reads any Kafka request frame: the header's API key picks the body's type.
pub fn decode_any_request(frame: &Bytes) -> Result<(RequestHeader, Request), FrameError> {
    decode_request_enum(frame)
}

/// [`decode_any_request`] within a server's `limits` (see
/// [`decode_request_with_limits`]).
///
/// ```
/// use kwire::DecodeLimits;
/// use kwire_messages::api::HeartbeatRequest;
/// use kwire_messages::{frame, Request, RequestHeader};
///
/// let header = RequestHeader::default().with_request_api_key(12).with_request_api_version(4);
/// let bytes = frame::encode_request(&header, &HeartbeatRequest::default()).unwrap();
/// let (_, request) = frame::decode_any_request_with_limits(&bytes, &DecodeLimits::default()).unwrap();
/// assert!(matches!(request, Request::Heartbeat(_)));
/// // A frame over the limit is refused before its body is read.
/// let tiny = DecodeLimits::default().with_max_frame_size(8);
/// assert!(frame::decode_any_request_with_limits(&bytes, &tiny).is_err());
/// ```
pub fn decode_any_request_with_limits(
    frame: &Bytes,
    limits: &DecodeLimits,
) -> Result<(RequestHeader, Request), FrameError> {
    decode_request_enum_with_limits(frame, limits)
}

/// Reads a request frame into the enum `R` (any enum deriving
/// [`RequestEnum`](derive@kwire::RequestEnum)): the header's API key picks the
/// variant.
pub fn decode_request_enum<R: RequestEnum>(
    frame: &Bytes,
) -> Result<(RequestHeader, R), FrameError> {
    decode_request_enum_with_limits(frame, &DecodeLimits::DEFAULT)
}

/// [`decode_request_enum`] within a server's `limits` (see
/// [`decode_request_with_limits`]).
///
/// ```
/// use kwire::DecodeLimits;
/// use kwire_messages::api::HeartbeatRequest;
/// use kwire_messages::{frame, Request, RequestHeader};
///
/// let header = RequestHeader::default().with_request_api_key(12).with_request_api_version(4);
/// let bytes = frame::encode_request(&header, &HeartbeatRequest::default()).unwrap();
/// let limits = DecodeLimits::default().with_max_string_len(64);
/// let (header, _) = frame::decode_request_enum_with_limits::<Request>(&bytes, &limits).unwrap();
/// assert_eq!(header.request_api_key, 12);
/// ```
pub fn decode_request_enum_with_limits<R: RequestEnum>(
    frame: &Bytes,
    limits: &DecodeLimits,
) -> Result<(RequestHeader, R), FrameError> {
    let mut reader = open_with_limits(frame, limits)?;
    let (key, version) = peek_key_and_version(&reader)?;
    let schema = R::schema_of(key).ok_or_else(|| unknown_key::<R>(key))?;
    let header =
        RequestHeader::read_from(&mut reader, header::request_version_for(schema, version))?;
    let body = R::read_from(key, version, &mut reader)?;
    finish(&reader, (header, body))
}

/// Reads any Kafka response frame, answering a request to `api` made at `version`.
///
/// ```
/// use kwire_messages::{frame, ApiKey, api::HeartbeatResponse, Response, ResponseHeader};
///
/// let header = ResponseHeader::default().with_correlation_id(5);
/// let response = Response::Heartbeat(HeartbeatResponse::default());
/// let bytes = frame::encode_any_response(&header, &response, 4).unwrap();
/// let (_, read) = frame::decode_any_response(&bytes, ApiKey::Heartbeat, 4).unwrap();
/// assert_eq!(read, response);
/// ```
pub fn decode_any_response(
    frame: &Bytes,
    api: ApiKey,
    version: i16,
) -> Result<(ResponseHeader, Response), FrameError> {
    decode_response_enum(frame, api.key(), version)
}

/// Reads a response frame into the enum `R`, answering a request with `api_key`
/// made at `version`.
pub fn decode_response_enum<R: ResponseEnum>(
    frame: &Bytes,
    api_key: i16,
    version: i16,
) -> Result<(ResponseHeader, R), FrameError> {
    let mut reader = open(frame)?;
    let schema = R::schema_of(api_key).ok_or_else(|| unknown_key::<R>(api_key))?;
    let header =
        ResponseHeader::read_from(&mut reader, response_header_version_of(schema, version))?;
    let body = R::read_from(api_key, version, &mut reader)?;
    finish(&reader, (header, body))
}
