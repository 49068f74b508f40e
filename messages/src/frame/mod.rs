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

use bytes::{BufMut, Bytes, BytesMut};
use kwire::schema::MessageSchema;
use kwire::{
    DecodeError, DispatchError, EncodeError, Message, Reader, RequestEnum, ResponseEnum,
    WithMessage,
};

mod length;
mod request_frame;

pub use length::{frame_contents, length_prefix, read_length, FrameLengthError, PREFIX_LEN};

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

fn response_header_version_of(schema: &MessageSchema, version: i16) -> i16 {
    let kafka_api = schema.api_key.and_then(|key| ApiKey::from_i16(key).ok());
    match kafka_api {
        Some(api) if api.response_schema().name == schema.name => {
            api.response_header_version(version)
        }
        _ => header::response_version_for(schema, version, false),
    }
}

fn api_key_of<M: Message>() -> Result<i16, FrameError> {
    M::SCHEMA
        .api_key
        .ok_or(FrameError::NoApiKey(M::SCHEMA.name))
}

/// Checks that a header naming `header_key` can carry a body of `M`.
pub(crate) fn expect_api_key<M: Message>(header_key: i16) -> Result<(), FrameError> {
    let body = api_key_of::<M>()?;
    if header_key != body {
        return Err(FrameError::ApiKeyMismatch {
            header: header_key,
            body,
        });
    }
    Ok(())
}

/// Sizes the header and the body once each, then appends prefix, header and body.
fn frame_into<H: Message, M: Message>(
    header: &H,
    header_version: i16,
    body: &M,
    version: i16,
    buf: &mut BytesMut,
) -> Result<(), FrameError> {
    let body = body.encoder(version)?;
    let body_len = body.len();
    let mut body = Some(body);
    let mut write_body = |buf: &mut BytesMut| match body.take() {
        Some(body) => body.write_into(buf),
        None => Ok(()),
    };
    let start = buf.len();
    let written = frame_around(header, header_version, body_len, &mut write_body, buf);
    if written.is_err() {
        // Nothing of a frame that failed stays behind.
        buf.truncate(start);
    }
    written
}

/// Everything of a frame but the body's own encoding: one copy per header type
/// rather than one per message, which a build of every API's frames pays for.
#[inline(never)]
fn frame_around<H: Message>(
    header: &H,
    header_version: i16,
    body_len: usize,
    write_body: &mut dyn FnMut(&mut BytesMut) -> Result<(), EncodeError>,
    buf: &mut BytesMut,
) -> Result<(), FrameError> {
    let header = header.encoder(header_version)?;
    let len = header.len() + body_len;
    let prefix = length_prefix(len)?;
    buf.reserve(PREFIX_LEN + len);
    buf.put_slice(&prefix);
    header.write_into(buf)?;
    write_body(buf)?;
    Ok(())
}

/// Frames a request: the body is written at `header.request_api_version`, which with
/// the body's flexibility decides the header version.
///
/// ```
/// use kwire::KafkaString;
/// use kwire_messages::{frame, api::ApiVersionsRequest, RequestHeader};
///
/// let header = RequestHeader::default()
///     .with_request_api_key(18)
///     .with_request_api_version(2)
///     .with_correlation_id(1)
///     .with_client_id(Some(KafkaString::from_static("u03")));
/// let bytes = frame::encode_request(&header, &ApiVersionsRequest::default()).unwrap();
/// assert_eq!(&bytes[..], b"\0\0\0\x0d\0\x12\0\x02\0\0\0\x01\0\x03u03");
/// let (read_header, _body) = frame::decode_request::<ApiVersionsRequest>(&bytes).unwrap();
/// assert_eq!(read_header, header);
/// ```
pub fn encode_request<M: Message>(header: &RequestHeader, body: &M) -> Result<Bytes, FrameError> {
    let mut buf = BytesMut::new();
    encode_request_into(header, body, &mut buf)?;
    Ok(buf.freeze())
}

/// Frames a response to a request made at `version`.
pub fn encode_response<M: Message>(
    header: &ResponseHeader,
    body: &M,
    version: i16,
) -> Result<Bytes, FrameError> {
    let mut buf = BytesMut::new();
    encode_response_into(header, body, version, &mut buf)?;
    Ok(buf.freeze())
}

/// Appends a request frame to `buf`, like [`encode_request`]: for a buffer kept
/// and reused (cleared between frames), which costs no allocation once it has
/// grown to the frames' size. On an error `buf` is as it was.
///
/// ```
/// use bytes::BytesMut;
/// use kwire_messages::{frame, api::ApiVersionsRequest, RequestHeader};
///
/// let header = RequestHeader::default()
///     .with_request_api_key(18)
///     .with_request_api_version(3)
///     .with_correlation_id(1);
/// let mut buf = BytesMut::new();
/// frame::encode_request_into(&header, &ApiVersionsRequest::default(), &mut buf).unwrap();
/// let one = buf.len();
/// frame::encode_request_into(&header, &ApiVersionsRequest::default(), &mut buf).unwrap();
/// assert_eq!(buf.len(), 2 * one); // appended, not replaced
/// assert_eq!(buf[..one], frame::encode_request(&header, &ApiVersionsRequest::default()).unwrap());
/// ```
pub fn encode_request_into<M: Message>(
    header: &RequestHeader,
    body: &M,
    buf: &mut BytesMut,
) -> Result<(), FrameError> {
    expect_api_key::<M>(header.request_api_key)?;
    let version = header.request_api_version;
    frame_into(
        header,
        request_header_version::<M>(version),
        body,
        version,
        buf,
    )
}

/// Appends a response frame to `buf`, like [`encode_response`] (see
/// [`encode_request_into`]).
pub fn encode_response_into<M: Message>(
    header: &ResponseHeader,
    body: &M,
    version: i16,
    buf: &mut BytesMut,
) -> Result<(), FrameError> {
    api_key_of::<M>()?;
    frame_into(
        header,
        response_header_version::<M>(version),
        body,
        version,
        buf,
    )
}

/// Checks the length prefix and returns a reader positioned after it.
pub(crate) fn open(frame: &Bytes) -> Result<Reader<'_>, FrameError> {
    frame_contents(frame)?;
    let mut reader = Reader::new(frame);
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
    let mut reader = open(frame)?;
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

/// Frames whichever request `request` holds, like [`encode_request`].
///
/// ```
/// use kwire_messages::{frame, api::ApiVersionsRequest, Request, RequestHeader};
///
/// let header = RequestHeader::default()
///     .with_request_api_key(18)
///     .with_request_api_version(3)
///     .with_correlation_id(5);
/// let request = Request::ApiVersions(ApiVersionsRequest::default());
/// let bytes = frame::encode_any_request(&header, &request).unwrap();
/// let (read_header, read) = frame::decode_any_request(&bytes).unwrap();
/// assert_eq!((read_header, read), (header, request));
/// ```
pub fn encode_any_request<R: RequestEnum>(
    header: &RequestHeader,
    request: &R,
) -> Result<Bytes, FrameError> {
    let mut buf = BytesMut::new();
    encode_any_request_into(header, request, &mut buf)?;
    Ok(buf.freeze())
}

/// Frames whichever response `response` holds, answering a request made at
/// `version`, like [`encode_response`].
pub fn encode_any_response<R: ResponseEnum>(
    header: &ResponseHeader,
    response: &R,
    version: i16,
) -> Result<Bytes, FrameError> {
    let mut buf = BytesMut::new();
    encode_any_response_into(header, response, version, &mut buf)?;
    Ok(buf.freeze())
}

/// Appends whichever request `request` holds to `buf`, like
/// [`encode_request_into`].
pub fn encode_any_request_into<R: RequestEnum>(
    header: &RequestHeader,
    request: &R,
    buf: &mut BytesMut,
) -> Result<(), FrameError> {
    struct Encode<'h, 'b>(&'h RequestHeader, &'b mut BytesMut);
    impl WithMessage for Encode<'_, '_> {
        type Output = Result<(), FrameError>;
        fn call<M: Message>(self, body: &M) -> Self::Output {
            encode_request_into(self.0, body, self.1)
        }
    }
    request.with_message(Encode(header, buf))
}

/// Appends whichever response `response` holds to `buf`, answering a request made
/// at `version`, like [`encode_response_into`].
///
/// ```
/// use bytes::BytesMut;
/// use kwire_messages::{frame, api::HeartbeatResponse, Response, ResponseHeader};
///
/// let header = ResponseHeader::default().with_correlation_id(9);
/// let response = Response::Heartbeat(HeartbeatResponse::default());
/// let mut buf = BytesMut::new();
/// frame::encode_any_response_into(&header, &response, 4, &mut buf).unwrap();
/// assert_eq!(buf, frame::encode_any_response(&header, &response, 4).unwrap());
/// ```
pub fn encode_any_response_into<R: ResponseEnum>(
    header: &ResponseHeader,
    response: &R,
    version: i16,
    buf: &mut BytesMut,
) -> Result<(), FrameError> {
    struct Encode<'h, 'b>(&'h ResponseHeader, i16, &'b mut BytesMut);
    impl WithMessage for Encode<'_, '_> {
        type Output = Result<(), FrameError>;
        fn call<M: Message>(self, body: &M) -> Self::Output {
            encode_response_into(self.0, body, self.1, self.2)
        }
    }
    response.with_message(Encode(header, version, buf))
}

/// Reads any Kafka request frame: the header's API key picks the body's type.
#[inline]
pub fn decode_any_request(frame: &Bytes) -> Result<(RequestHeader, Request), FrameError> {
    decode_request_enum(frame)
}

/// Reads a request frame into the enum `R` (any enum deriving
/// [`RequestEnum`](derive@kwire::RequestEnum)): the header's API key picks the
/// variant.
#[inline]
pub fn decode_request_enum<R: RequestEnum>(
    frame: &Bytes,
) -> Result<(RequestHeader, R), FrameError> {
    let mut reader = open(frame)?;
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
#[inline]
pub fn decode_any_response(
    frame: &Bytes,
    api: ApiKey,
    version: i16,
) -> Result<(ResponseHeader, Response), FrameError> {
    decode_response_enum(frame, api.key(), version)
}

/// Reads a response frame into the enum `R`, answering a request with `api_key`
/// made at `version`.
#[inline]
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
