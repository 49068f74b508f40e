//! Framing: `[int32 length][header][body]`, as requests and responses travel on a
//! connection. The header version follows from the body's version: flexible bodies
//! take the flexible header, except ApiVersions responses, which always use header v0
//! so that a client can read them whatever version it asked for.

use bytes::{BufMut, Bytes, BytesMut};
use kafka_wire::{DecodeError, EncodeError, Message, Reader};

use crate::{RequestHeader, ResponseHeader};

/// API key of ApiVersions, whose response header is never flexible.
const API_VERSIONS_KEY: i16 = 18;

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
    /// The length prefix disagrees with the bytes that follow it.
    #[error("frame length prefix says {declared} bytes, but {actual} follow")]
    Length {
        /// The prefix's value.
        declared: i64,
        /// The bytes after the prefix.
        actual: usize,
    },
    /// The frame is larger than an int32 length can say.
    #[error("frame of {0} bytes is too large for its int32 length")]
    TooLarge(usize),
}

/// The request header version for a body of `M` at `version`: 2 when the body is
/// flexible, 1 otherwise.
pub fn request_header_version<M: Message>(version: i16) -> i16 {
    if M::SCHEMA.is_flexible(version) {
        2
    } else {
        1
    }
}

/// The response header version for a body of `M` at `version`: 1 when the body is
/// flexible, 0 otherwise, and always 0 for ApiVersions.
pub fn response_header_version<M: Message>(version: i16) -> i16 {
    if M::SCHEMA.api_key != Some(API_VERSIONS_KEY) && M::SCHEMA.is_flexible(version) {
        1
    } else {
        0
    }
}

fn api_key_of<M: Message>() -> Result<i16, FrameError> {
    M::SCHEMA
        .api_key
        .ok_or(FrameError::NoApiKey(M::SCHEMA.name))
}

/// Sizes the header and the body once each, then writes prefix, header and body.
fn frame<H: Message, M: Message>(
    header: &H,
    header_version: i16,
    body: &M,
    version: i16,
) -> Result<Bytes, FrameError> {
    let header = header.encoder(header_version)?;
    let body = body.encoder(version)?;
    let len = header.len() + body.len();
    let prefix = i32::try_from(len).map_err(|_| FrameError::TooLarge(len))?;
    let mut buf = BytesMut::with_capacity(4 + len);
    buf.put_i32(prefix);
    header.write_into(&mut buf)?;
    body.write_into(&mut buf)?;
    Ok(buf.freeze())
}

/// Frames a request: the body is written at `header.request_api_version`, which with
/// the body's flexibility decides the header version.
///
/// ```
/// use kafka_wire::KafkaString;
/// use kafka_wire_messages::{frame, ApiVersionsRequest, RequestHeader};
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
    let key = api_key_of::<M>()?;
    if header.request_api_key != key {
        return Err(FrameError::ApiKeyMismatch {
            header: header.request_api_key,
            body: key,
        });
    }
    let version = header.request_api_version;
    frame(header, request_header_version::<M>(version), body, version)
}

/// Frames a response to a request made at `version`.
pub fn encode_response<M: Message>(
    header: &ResponseHeader,
    body: &M,
    version: i16,
) -> Result<Bytes, FrameError> {
    api_key_of::<M>()?;
    frame(header, response_header_version::<M>(version), body, version)
}

/// Checks the length prefix and returns a reader positioned after it.
fn open(frame: &Bytes) -> Result<Reader<'_>, FrameError> {
    let mut reader = Reader::new(frame);
    let declared = i32::from_be_bytes(reader.read_array()?);
    if declared < 0 || declared as usize != reader.remaining() {
        return Err(FrameError::Length {
            declared: i64::from(declared),
            actual: reader.remaining(),
        });
    }
    Ok(reader)
}

fn finish<T>(reader: &Reader<'_>, value: T) -> Result<T, FrameError> {
    reader.expect_end()?;
    Ok(value)
}

/// Reads a framed request whose body is an `M`; the header says which version.
pub fn decode_request<M: Message>(frame: &Bytes) -> Result<(RequestHeader, M), FrameError> {
    let mut reader = open(frame)?;
    // The key and version lead every header version, so peek them to pick the header.
    let mut peek = reader.clone();
    let key = i16::from_be_bytes(peek.read_array()?);
    let version = i16::from_be_bytes(peek.read_array()?);
    let expected = api_key_of::<M>()?;
    if key != expected {
        return Err(FrameError::ApiKeyMismatch {
            header: key,
            body: expected,
        });
    }
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
