//! Encoding frames: `[int32 length][header][body]`, appended to a buffer (every
//! byte copied in) or as chunks (Kafka's `SendBuilder`: the records and
//! `zero_copy` bytes of the body attached, not copied, for one gather write).

use bytes::{Bytes, BytesMut};
use kwire::wire::{ChunkedBytes, Writer};
use kwire::{AnyMessage, Message, RequestEnum, ResponseEnum};

use super::{
    api_key_of, expect_api_key_of, length_prefix, response_header_version_of, FrameError,
    PREFIX_LEN,
};
use crate::header::request_version_for;
use crate::{RequestHeader, ResponseHeader};

/// Where a frame goes.
enum Target<'b> {
    /// Appended to a buffer; on an error the buffer is left as it was.
    Append(&'b mut BytesMut),
    /// Into chunks of its own, zero-copy values attached.
    Chunks,
}

/// Sizes the header and the body once each, then writes prefix, header and body
/// to `target`; chunks for [`Target::Chunks`], none when appending. Not generic:
/// one copy for every message, whose own codecs are reached through
/// [`AnyMessage`].
fn frame_with(
    header: AnyMessage<'_>,
    header_version: i16,
    body: AnyMessage<'_>,
    version: i16,
    target: Target<'_>,
) -> Result<ChunkedBytes, FrameError> {
    let body = body.encoder(version)?;
    let header = header.encoder(header_version)?;
    let len = header.len() + body.len();
    let (body_zero_copy, attachments) = (body.zero_copy_len(), body.zero_copy_values());
    let prefix = length_prefix(len)?;
    let write = |writer: &mut Writer| -> Result<(), FrameError> {
        writer.put_slice(&prefix);
        header.write_to(writer)?;
        body.write_to(writer)?;
        Ok(())
    };
    match target {
        Target::Append(buf) => {
            let start = buf.len();
            buf.reserve(PREFIX_LEN + len);
            let mut writer = Writer::appending(std::mem::take(buf));
            let written = write(&mut writer);
            *buf = writer.into_buf();
            if written.is_err() {
                // Nothing of a frame that failed stays behind.
                buf.truncate(start);
            }
            written.map(|()| ChunkedBytes::new())
        }
        Target::Chunks => {
            let mut writer = Writer::vectored(PREFIX_LEN + len - body_zero_copy, attachments);
            write(&mut writer)?;
            Ok(writer.into_chunks())
        }
    }
}

/// A request frame: the body written at `header.request_api_version`, which with
/// the body's flexibility decides the header version.
fn request_frame(
    header: &RequestHeader,
    body: AnyMessage<'_>,
    target: Target<'_>,
) -> Result<ChunkedBytes, FrameError> {
    let schema = body.schema();
    expect_api_key_of(schema, header.request_api_key)?;
    let version = header.request_api_version;
    let header_version = request_version_for(schema, version);
    frame_with(
        AnyMessage::new(header),
        header_version,
        body,
        version,
        target,
    )
}

/// A response frame, answering a request made at `version`.
fn response_frame(
    header: &ResponseHeader,
    body: AnyMessage<'_>,
    version: i16,
    target: Target<'_>,
) -> Result<ChunkedBytes, FrameError> {
    let schema = body.schema();
    api_key_of(schema)?;
    let header_version = response_header_version_of(schema, version);
    frame_with(
        AnyMessage::new(header),
        header_version,
        body,
        version,
        target,
    )
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
    request_frame(header, AnyMessage::new(body), Target::Append(buf)).map(drop)
}

/// Appends a response frame to `buf`, like [`encode_response`] (see
/// [`encode_request_into`]).
pub fn encode_response_into<M: Message>(
    header: &ResponseHeader,
    body: &M,
    version: i16,
    buf: &mut BytesMut,
) -> Result<(), FrameError> {
    response_frame(header, AnyMessage::new(body), version, Target::Append(buf)).map(drop)
}

/// Frames a request as chunks, the way Kafka's client sends it: prefix, header and
/// the body's ordinary fields in one buffer, and each records field (a
/// ProduceRequest's batches) as a chunk of its own, the batch's own memory, not
/// copied. The same bytes as [`encode_request`]; a [`bytes::Buf`] whose
/// `chunks_vectored` gives a socket every chunk in one gather write.
///
/// ```
/// use bytes::{Buf, Bytes};
/// use kwire::Records;
/// use kwire_messages::api::produce::{PartitionProduceData, ProduceRequest, TopicProduceData};
/// use kwire_messages::{frame, RequestHeader};
///
/// let batch = Bytes::from(vec![0u8; 16 * 1024]); // a record batch, say
/// let request = ProduceRequest::default().with_topic_data(vec![TopicProduceData::default()
///     .with_name("orders".into())
///     .with_partition_data(vec![PartitionProduceData::default()
///         .with_records(Some(Records(batch.clone())))])]);
/// let header = RequestHeader::default()
///     .with_request_api_key(0)
///     .with_request_api_version(9)
///     .with_correlation_id(7);
/// let chunks = frame::encode_request_vectored(&header, &request).unwrap();
/// assert_eq!(chunks.chunk_count(), 3); // before the batch, the batch, after it
/// assert_eq!(chunks.chunks().nth(1).unwrap().as_ptr(), batch.as_ptr()); // not copied
/// assert_eq!(chunks.to_bytes(), frame::encode_request(&header, &request).unwrap());
/// ```
pub fn encode_request_vectored<M: Message>(
    header: &RequestHeader,
    body: &M,
) -> Result<ChunkedBytes, FrameError> {
    request_frame(header, AnyMessage::new(body), Target::Chunks)
}

/// Frames a response to a request made at `version` as chunks, like
/// [`encode_request_vectored`]: a FetchResponse's record batches are attached, not
/// copied.
pub fn encode_response_vectored<M: Message>(
    header: &ResponseHeader,
    body: &M,
    version: i16,
) -> Result<ChunkedBytes, FrameError> {
    response_frame(header, AnyMessage::new(body), version, Target::Chunks)
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
    request_frame(header, request.as_message(), Target::Append(buf)).map(drop)
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
    response_frame(header, response.as_message(), version, Target::Append(buf)).map(drop)
}

/// Frames whichever request `request` holds as chunks, like
/// [`encode_request_vectored`].
pub fn encode_any_request_vectored<R: RequestEnum>(
    header: &RequestHeader,
    request: &R,
) -> Result<ChunkedBytes, FrameError> {
    request_frame(header, request.as_message(), Target::Chunks)
}

/// Frames whichever response `response` holds as chunks, answering a request made
/// at `version`, like [`encode_response_vectored`].
///
/// ```
/// use kwire_messages::{frame, api::HeartbeatResponse, Response, ResponseHeader};
///
/// let header = ResponseHeader::default().with_correlation_id(9);
/// let response = Response::Heartbeat(HeartbeatResponse::default());
/// let chunks = frame::encode_any_response_vectored(&header, &response, 4).unwrap();
/// assert_eq!(chunks.to_bytes(), frame::encode_any_response(&header, &response, 4).unwrap());
/// ```
pub fn encode_any_response_vectored<R: ResponseEnum>(
    header: &ResponseHeader,
    response: &R,
    version: i16,
) -> Result<ChunkedBytes, FrameError> {
    response_frame(header, response.as_message(), version, Target::Chunks)
}
