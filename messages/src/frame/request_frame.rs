//! A server's half: requests read header first, then the body, exactly or as
//! Kafka's broker reads it (see [the module](super) on why).

use bytes::Bytes;
use kwire::{DecodeLimits, Message, Reader, RequestEnum};

use crate::frame::{self, FrameError};
use crate::ApiKeyError;
use crate::{header, ApiKey, RequestHeader};

/// What reading a request body does with bytes after the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TrailingBytes {
    /// Refuse them: the frame must end with the body (conformance; what
    /// [`frame::decode_request`] does).
    Refuse,
    /// Skip them and report how many there were, as Kafka's broker does (servers:
    /// some clients send a few, see [`frame`](super)).
    Ignore,
}

/// A request frame whose header has been read and whose body has not (yet).
///
/// The header is read for any API key: for the keys of the [API table](crate::ApiKey)
/// at the header version the table gives for the request's version, and for any
/// other key at header version 1 (API key, version, correlation id and client id,
/// which every header version from 1 up starts with), so that a server can answer or
/// log a request it does not understand.
///
/// ```
/// use bytes::Bytes;
/// use kwire_messages::frame::{RequestFrame, TrailingBytes};
/// use kwire_messages::{ApiKey, Request};
///
/// // librdkafka 2.16.0's MetadataRequest v12, three bytes longer than its body.
/// let hex = "000000230003000c000000030011696e7465726f702d636f6e666c75656e740000000000010000";
/// let bytes: Vec<u8> = (0..hex.len()).step_by(2)
///     .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
///     .collect();
/// let frame = RequestFrame::parse(&Bytes::from(bytes)).unwrap();
/// assert_eq!(frame.api(), Ok(ApiKey::Metadata));
/// assert_eq!((frame.api_version(), frame.correlation_id()), (12, 3));
///
/// let read = frame.decode::<Request>(TrailingBytes::Ignore).unwrap();
/// assert_eq!(read.ignored, 3);
/// assert!(matches!(read.body, Request::Metadata(_)));
/// assert!(frame.decode::<Request>(TrailingBytes::Refuse).is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RequestFrame {
    header: RequestHeader,
    body: Bytes,
}

/// A request body, with the number of bytes skipped after it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct DecodedBody<T> {
    /// The body.
    pub body: T,
    /// Bytes after the body, skipped under [`TrailingBytes::Ignore`] (always 0 under
    /// [`TrailingBytes::Refuse`]).
    pub ignored: usize,
}

/// A request body that could not be read, with the header that was: enough to answer
/// the request with an error, or to log it.
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot read the body of request {} v{} (correlation id {})",
    header.request_api_key,
    header.request_api_version,
    header.correlation_id
)]
#[non_exhaustive]
pub struct RequestError {
    /// The request's header.
    pub header: Box<RequestHeader>,
    /// Why the body could not be read.
    #[source]
    pub error: FrameError,
}

impl RequestFrame {
    /// Reads the length prefix and the header of a whole request frame (its int32
    /// length prefix included), keeping the body's bytes unread.
    pub fn parse(frame: &Bytes) -> Result<Self, FrameError> {
        Self::read_header(&mut frame::open(frame)?)
    }

    /// Reads the header of a request frame's contents: the bytes after its length
    /// prefix (what a stream splitter hands out).
    pub fn parse_contents(contents: &Bytes) -> Result<Self, FrameError> {
        Self::read_header(&mut Reader::new(contents))
    }

    fn read_header(reader: &mut Reader<'_>) -> Result<Self, FrameError> {
        let mut peek = reader.clone();
        let key = i16::from_be_bytes(peek.read_array()?);
        let version = i16::from_be_bytes(peek.read_array()?);
        let header_version = match ApiKey::from_i16(key) {
            Ok(api) => header::request_version_for(api.request_schema(), version),
            // Unknown: the part every header version from 1 up shares.
            Err(_) => 1,
        };
        let header = RequestHeader::read_from(reader, header_version)?;
        let body = reader.read_bytes(reader.remaining())?;
        Ok(RequestFrame { header, body })
    }

    /// The header.
    pub fn header(&self) -> &RequestHeader {
        &self.header
    }

    /// The header, keeping nothing else.
    pub fn into_header(self) -> RequestHeader {
        self.header
    }

    /// The API the header names, or why its key is not one of Kafka's APIs.
    pub fn api(&self) -> Result<ApiKey, ApiKeyError> {
        ApiKey::from_i16(self.header.request_api_key)
    }

    /// The API key the header names.
    pub fn api_key(&self) -> i16 {
        self.header.request_api_key
    }

    /// The version of the request body.
    pub fn api_version(&self) -> i16 {
        self.header.request_api_version
    }

    /// The correlation id the response must carry.
    pub fn correlation_id(&self) -> i32 {
        self.header.correlation_id
    }

    /// The body's bytes, unread (for an API key this crate does not know, after a
    /// flexible header's tagged fields too: its header was read at version 1).
    pub fn body(&self) -> &Bytes {
        &self.body
    }

    /// Reads the body into the request enum `R` ([`Request`](crate::Request), or any
    /// enum deriving [`RequestEnum`](derive@kwire::RequestEnum)), by the
    /// header's API key.
    pub fn decode<R: RequestEnum>(
        &self,
        trailing: TrailingBytes,
    ) -> Result<DecodedBody<R>, RequestError> {
        self.decode_with_limits(trailing, &DecodeLimits::DEFAULT)
    }

    /// [`decode`](Self::decode) within a server's `limits`: a string, bytes
    /// value, array or records over them is
    /// [`LimitExceeded`](kwire::DecodeErrorKind::LimitExceeded), with the header
    /// kept to answer it.
    ///
    /// ```
    /// use kwire::{DecodeErrorKind, DecodeLimits, Limit};
    /// use kwire_messages::api::metadata::{MetadataRequest, MetadataRequestTopic};
    /// use kwire_messages::frame::{self, FrameError, RequestFrame, TrailingBytes};
    /// use kwire_messages::{Request, RequestHeader};
    ///
    /// let header = RequestHeader::default()
    ///     .with_request_api_key(3)
    ///     .with_request_api_version(12)
    ///     .with_correlation_id(7);
    /// let topics = vec![MetadataRequestTopic::default(); 3];
    /// let body = MetadataRequest::default().with_topics(Some(topics));
    /// let bytes = frame::encode_request(&header, &body).unwrap();
    ///
    /// let limits = DecodeLimits::default().with_max_array_len(2);
    /// let request = RequestFrame::parse(&bytes).unwrap();
    /// let err = request
    ///     .decode_with_limits::<Request>(TrailingBytes::Ignore, &limits)
    ///     .unwrap_err();
    /// assert_eq!(err.header.correlation_id, 7);
    /// match err.error {
    ///     FrameError::Decode(e) => assert_eq!(
    ///         e.kind(),
    ///         &DecodeErrorKind::LimitExceeded { limit: Limit::ArrayLength, value: 3, max: 2 }
    ///     ),
    ///     other => panic!("{other:?}"),
    /// }
    /// ```
    pub fn decode_with_limits<R: RequestEnum>(
        &self,
        trailing: TrailingBytes,
        limits: &DecodeLimits,
    ) -> Result<DecodedBody<R>, RequestError> {
        self.read_body(trailing, limits, |reader| {
            R::read_from(self.api_key(), self.api_version(), reader).map_err(FrameError::from)
        })
    }

    /// Reads the body as an `M`, whose API key must be the header's.
    pub fn decode_as<M: Message>(
        &self,
        trailing: TrailingBytes,
    ) -> Result<DecodedBody<M>, RequestError> {
        self.decode_as_with_limits(trailing, &DecodeLimits::DEFAULT)
    }

    /// [`decode_as`](Self::decode_as) within a server's `limits` (see
    /// [`decode_with_limits`](Self::decode_with_limits)).
    ///
    /// ```
    /// use kwire::DecodeLimits;
    /// use kwire_messages::api::HeartbeatRequest;
    /// use kwire_messages::frame::{self, RequestFrame, TrailingBytes};
    /// use kwire_messages::RequestHeader;
    ///
    /// let header = RequestHeader::default().with_request_api_key(12).with_request_api_version(4);
    /// let bytes = frame::encode_request(&header, &HeartbeatRequest::default()).unwrap();
    /// let request = RequestFrame::parse(&bytes).unwrap();
    /// let read = request
    ///     .decode_as_with_limits::<HeartbeatRequest>(TrailingBytes::Refuse, &DecodeLimits::default())
    ///     .unwrap();
    /// assert_eq!(read.body, HeartbeatRequest::default());
    /// ```
    pub fn decode_as_with_limits<M: Message>(
        &self,
        trailing: TrailingBytes,
        limits: &DecodeLimits,
    ) -> Result<DecodedBody<M>, RequestError> {
        self.read_body(trailing, limits, |reader| {
            frame::expect_api_key::<M>(self.api_key())?;
            M::read_from(reader, self.api_version()).map_err(FrameError::from)
        })
    }

    fn read_body<T>(
        &self,
        trailing: TrailingBytes,
        limits: &DecodeLimits,
        read: impl FnOnce(&mut Reader<'_>) -> Result<T, FrameError>,
    ) -> Result<DecodedBody<T>, RequestError> {
        let mut reader = Reader::with_limits(&self.body, limits);
        let read = read(&mut reader).and_then(|body| {
            let ignored = reader.remaining();
            match trailing {
                TrailingBytes::Ignore => Ok(DecodedBody { body, ignored }),
                TrailingBytes::Refuse => {
                    reader.expect_end()?;
                    Ok(DecodedBody { body, ignored: 0 })
                }
            }
        });
        read.map_err(|error| RequestError {
            header: Box::new(self.header.clone()),
            error,
        })
    }
}

#[cfg(test)]
mod tests {
    use kwire::{DecodeErrorKind, KafkaString};

    use super::*;
    use crate::{api::HeartbeatRequest, api::MetadataRequest, frame, Request};

    const LIBRDKAFKA_METADATA_V12: &str =
        "000000230003000c000000030011696e7465726f702d636f6e666c75656e740000000000010000";

    fn unhex(hex: &str) -> Bytes {
        (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect::<Vec<u8>>()
            .into()
    }

    /// `contents` behind its int32 length prefix.
    fn framed(contents: &[u8]) -> Bytes {
        let mut bytes = (contents.len() as i32).to_be_bytes().to_vec();
        bytes.extend_from_slice(contents);
        bytes.into()
    }

    #[test]
    fn librdkafka_metadata_reads_with_its_three_extra_bytes_ignored_and_not_exactly() {
        let frame = RequestFrame::parse(&unhex(LIBRDKAFKA_METADATA_V12)).unwrap();
        assert_eq!(
            frame.header().client_id.as_deref(),
            Some("interop-confluent")
        );
        let read = frame
            .decode_as::<MetadataRequest>(TrailingBytes::Ignore)
            .unwrap();
        assert_eq!(read.ignored, 3);
        assert_eq!(read.body.topics, None);
        assert!(!read.body.allow_auto_topic_creation);

        let err = frame.decode::<Request>(TrailingBytes::Refuse).unwrap_err();
        assert_eq!(err.header.correlation_id, 3);
        match err.error {
            FrameError::Decode(e) => assert_eq!(e.kind(), &DecodeErrorKind::TrailingBytes(3)),
            other => panic!("{other:?}"),
        }
        // The strict whole-frame function refuses it too.
        assert!(frame::decode_any_request(&unhex(LIBRDKAFKA_METADATA_V12)).is_err());
    }

    #[test]
    fn an_unknown_api_key_still_gives_key_version_and_correlation_id() {
        // Key 4 (retired LeaderAndIsr) v7, correlation id 9, client id "x", then 5
        // bytes this crate cannot read.
        let frame = framed(&unhex("00040007000000090001780000616200"));
        let read = RequestFrame::parse(&frame).unwrap();
        assert_eq!(read.api_key(), 4);
        assert_eq!(read.api_version(), 7);
        assert_eq!(read.correlation_id(), 9);
        assert_eq!(read.header().client_id.as_deref(), Some("x"));
        assert!(matches!(
            read.api(),
            Err(ApiKeyError::Retired { key: 4, .. })
        ));
        assert_eq!(&read.body()[..], b"\0\0ab\0");
        let err = read.decode::<Request>(TrailingBytes::Ignore).unwrap_err();
        assert!(matches!(err.error, FrameError::Dispatch(_)), "{err:?}");
        assert_eq!(err.header.correlation_id, 9);
    }

    #[test]
    fn a_body_that_does_not_decode_keeps_the_header_for_the_answer() {
        // Heartbeat v4 (flexible) whose body ends early.
        let header = RequestHeader::default()
            .with_request_api_key(12)
            .with_request_api_version(4)
            .with_correlation_id(77)
            .with_client_id(Some(KafkaString::from_static("c")));
        let whole = frame::encode_request(&header, &HeartbeatRequest::default()).unwrap();
        let frame = RequestFrame::parse(&framed(&whole[4..whole.len() - 3])).unwrap();
        let err = frame.decode::<Request>(TrailingBytes::Ignore).unwrap_err();
        assert_eq!(*err.header, header);
        assert!(matches!(err.error, FrameError::Decode(_)));
        assert_eq!(
            err.to_string(),
            "cannot read the body of request 12 v4 (correlation id 77)"
        );
    }

    #[test]
    fn a_version_above_ours_reads_its_header_by_the_api_table() {
        // ApiVersions v9 (newer than any we know): flexible, so header v2.
        let header = RequestHeader::default()
            .with_request_api_key(18)
            .with_request_api_version(9)
            .with_correlation_id(1)
            .with_client_id(Some(KafkaString::from_static("future")));
        let mut contents = header.encode(2).unwrap().to_vec();
        contents.extend_from_slice(b"\x07future\x021\0");
        let frame = RequestFrame::parse(&framed(&contents)).unwrap();
        assert_eq!(
            RequestFrame::parse_contents(&Bytes::from(contents)).unwrap(),
            frame
        );
        assert_eq!(*frame.header(), header);
        assert_eq!(frame.api(), Ok(ApiKey::ApiVersions));
        let err = frame.decode::<Request>(TrailingBytes::Ignore).unwrap_err();
        match err.error {
            FrameError::Decode(e) => {
                assert!(matches!(
                    e.kind(),
                    DecodeErrorKind::UnsupportedVersion { version: 9, .. }
                ))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_bad_length_prefix_is_refused() {
        let mut bytes = unhex(LIBRDKAFKA_METADATA_V12).to_vec();
        bytes[3] += 1;
        assert!(matches!(
            RequestFrame::parse(&Bytes::from(bytes)),
            Err(FrameError::Length(_))
        ));
        assert!(RequestFrame::parse(&Bytes::from_static(&[0, 0])).is_err());
    }
}
