//! A client's side of one connection, without I/O: it numbers requests, remembers
//! the API and version of each one in flight, and reads each response frame as the
//! answer to the request with its correlation id. Many requests may be in flight at
//! once (pipelining); responses may come in any order.

use std::collections::HashMap;

use bytes::Bytes;
use kwire::wire::ChunkedBytes;
use kwire::KafkaString;

use crate::negotiation::read_api_versions_response;
use kwire_messages::frame::{self, FrameError};
use kwire_messages::{ApiKey, Request, RequestHeader, Response, ResponseHeader};

/// Why a request could not be sent or a response not read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The frame could not be built or read.
    #[error(transparent)]
    Frame(#[from] FrameError),
    /// No request with this correlation id was sent on this session.
    #[error("no request with correlation id {0} was sent")]
    UnknownCorrelationId(i32),
    /// The request with this correlation id was already answered.
    #[error("the request with correlation id {0} was already answered")]
    RepeatedCorrelationId(i32),
}

/// A request sent on a [`ClientSession`]: its correlation id and its frame.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Sent {
    /// The correlation id the response will carry.
    pub correlation_id: i32,
    /// The whole frame, length prefix included, to write to the connection: a
    /// [`bytes::Buf`] of chunks whose record batches are the request's own memory,
    /// not copies. Tokio's `write_all_buf` or
    /// [`blocking::write_all_buf`](crate::blocking::write_all_buf) sends it with one
    /// gather write; [`ChunkedBytes::to_bytes`] gives it as one buffer.
    pub frame: ChunkedBytes,
    /// Whether the broker answers it. Kafka answers every request but a
    /// Produce with `acks = 0`; that one is not kept in flight, so that no
    /// caller waits for an answer that never comes.
    pub answered: bool,
}

/// A response read on a [`ClientSession`], with what it answers.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Received {
    /// The API of the request answered.
    pub api: ApiKey,
    /// The version the request was sent at.
    pub version: i16,
    /// The version the body was read at: `version`, except for an ApiVersions
    /// response that fell back to version 0 (see
    /// [`negotiation`](crate::negotiation)).
    pub read_at: i16,
    /// The response header.
    pub header: ResponseHeader,
    /// The response.
    pub body: Response,
}

/// The client side of a connection.
///
/// ```
/// use kwire_net::session::ClientSession;
/// use kwire_messages::{frame, api::HeartbeatRequest, api::HeartbeatResponse, Request, Response, ResponseHeader};
///
/// let mut session = ClientSession::new(Some("my-client".into()));
/// let first = session.send(&Request::Heartbeat(HeartbeatRequest::default()), 4).unwrap();
/// let second = session.send(&Request::Heartbeat(HeartbeatRequest::default()), 4).unwrap();
/// assert_eq!(session.in_flight(), 2);
///
/// // The broker answers the second request first.
/// let header = ResponseHeader::default().with_correlation_id(second.correlation_id);
/// let answer = frame::encode_response(&header, &HeartbeatResponse::default(), 4).unwrap();
/// let read = session.receive(&answer).unwrap();
/// assert_eq!(read.header.correlation_id, second.correlation_id);
/// assert!(matches!(read.body, Response::Heartbeat(_)));
/// assert_eq!(session.in_flight(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct ClientSession {
    client_id: Option<KafkaString>,
    next_correlation_id: i32,
    in_flight: HashMap<i32, (ApiKey, i16)>,
}

impl ClientSession {
    /// A session whose requests carry `client_id`; correlation ids start at 0.
    pub fn new(client_id: Option<KafkaString>) -> Self {
        ClientSession {
            client_id,
            next_correlation_id: 0,
            in_flight: HashMap::new(),
        }
    }

    /// Frames `request` at `version` under the next correlation id, and remembers it
    /// until its response is read (unless the broker will not answer it: a
    /// Produce with `acks = 0`, see [`Sent::answered`]).
    pub fn send(&mut self, request: &Request, version: i16) -> Result<Sent, SessionError> {
        let correlation_id = self.next_correlation_id;
        let api = request.api();
        let header = RequestHeader::default()
            .with_request_api_key(api.key())
            .with_request_api_version(version)
            .with_correlation_id(correlation_id)
            .with_client_id(self.client_id.clone());
        let frame = frame::encode_any_request_vectored(&header, request)?;
        // Ids count up and wrap to 0; one in flight for 2^31 requests would clash.
        self.next_correlation_id = correlation_id.checked_add(1).unwrap_or(0);
        let answered = is_answered(request);
        if answered {
            self.in_flight.insert(correlation_id, (api, version));
        }
        Ok(Sent {
            correlation_id,
            frame,
            answered,
        })
    }

    /// Reads a response frame (length prefix included) as the answer to the request
    /// in flight with its correlation id.
    pub fn receive(&mut self, frame: &Bytes) -> Result<Received, SessionError> {
        let correlation_id = frame::response_correlation_id(frame)?;
        let Some(&(api, version)) = self.in_flight.get(&correlation_id) else {
            return Err(self.not_in_flight(correlation_id));
        };
        let received = read_response(frame, api, version)?;
        self.in_flight.remove(&correlation_id);
        Ok(received)
    }

    fn not_in_flight(&self, correlation_id: i32) -> SessionError {
        if (0..self.next_correlation_id).contains(&correlation_id) {
            SessionError::RepeatedCorrelationId(correlation_id)
        } else {
            SessionError::UnknownCorrelationId(correlation_id)
        }
    }

    /// Requests sent and not yet answered.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// The API and version of the request in flight with `correlation_id`.
    pub fn pending(&self, correlation_id: i32) -> Option<(ApiKey, i16)> {
        self.in_flight.get(&correlation_id).copied()
    }

    /// Takes the request with `correlation_id` out of flight without reading an
    /// answer, giving its API and version: for a connection that reads each
    /// response elsewhere with [`read_response`], or gives up waiting for one.
    pub fn forget(&mut self, correlation_id: i32) -> Option<(ApiKey, i16)> {
        self.in_flight.remove(&correlation_id)
    }
}

/// Whether a broker answers `request`: all but a Produce with `acks = 0`, to
/// which Kafka sends nothing, not even an error (a failed write closes the
/// connection instead).
pub fn is_answered(request: &Request) -> bool {
    !matches!(request, Request::Produce(produce) if produce.acks == 0)
}

/// Reads a response frame answering a request of `api` at `version`, ApiVersions'
/// fallback to version 0 included: what [`ClientSession::receive`] does once it
/// knows the request.
///
/// ```
/// use kwire_messages::{frame, api::HeartbeatResponse, ApiKey, Response, ResponseHeader};
/// use kwire_net::session::read_response;
///
/// let header = ResponseHeader::default().with_correlation_id(7);
/// let answer = frame::encode_response(&header, &HeartbeatResponse::default(), 4).unwrap();
/// let read = read_response(&answer, ApiKey::Heartbeat, 4).unwrap();
/// assert_eq!(read.header.correlation_id, 7);
/// assert!(matches!(read.body, Response::Heartbeat(_)));
/// ```
pub fn read_response(frame: &Bytes, api: ApiKey, version: i16) -> Result<Received, FrameError> {
    if api != ApiKey::ApiVersions {
        let (header, body) = frame::decode_any_response(frame, api, version)?;
        return Ok(Received {
            api,
            version,
            read_at: version,
            header,
            body,
        });
    }
    // Header v0 whatever the version: the correlation id, then the body.
    let (header, body) = frame::split_response(frame, api.response_header_version(version))?;
    let (body, read_at) = read_api_versions_response(&body, version)?;
    Ok(Received {
        api,
        version,
        read_at,
        header,
        body: Response::ApiVersions(body),
    })
}

#[cfg(test)]
mod tests {
    use kwire::Message;

    use super::*;
    use kwire_messages::{
        api::ApiVersionsRequest, api::ApiVersionsResponse, api::HeartbeatRequest,
        api::HeartbeatResponse,
    };

    fn answer<M: Message>(correlation_id: i32, body: &M, version: i16) -> Bytes {
        let header = ResponseHeader::default().with_correlation_id(correlation_id);
        frame::encode_response(&header, body, version).unwrap()
    }

    #[test]
    fn pipelined_requests_are_matched_in_any_order() {
        let mut session = ClientSession::new(None);
        let sent: Vec<Sent> = (0..10)
            .map(|_| {
                session
                    .send(&Request::Heartbeat(HeartbeatRequest::default()), 4)
                    .unwrap()
            })
            .collect();
        assert_eq!(session.in_flight(), 10);
        for s in sent.iter().rev() {
            let read = session
                .receive(&answer(s.correlation_id, &HeartbeatResponse::default(), 4))
                .unwrap();
            assert_eq!(read.header.correlation_id, s.correlation_id);
            assert_eq!((read.api, read.version), (ApiKey::Heartbeat, 4));
        }
        assert_eq!(session.in_flight(), 0);
    }

    #[test]
    fn unknown_and_repeated_correlation_ids_are_typed_errors() {
        let mut session = ClientSession::new(None);
        let sent = session
            .send(&Request::Heartbeat(HeartbeatRequest::default()), 4)
            .unwrap();
        let frame = answer(sent.correlation_id, &HeartbeatResponse::default(), 4);
        session.receive(&frame).unwrap();
        assert!(matches!(
            session.receive(&frame),
            Err(SessionError::RepeatedCorrelationId(0))
        ));
        let stranger = answer(99, &HeartbeatResponse::default(), 4);
        assert!(matches!(
            session.receive(&stranger),
            Err(SessionError::UnknownCorrelationId(99))
        ));
        let negative = answer(-1, &HeartbeatResponse::default(), 4);
        assert!(matches!(
            session.receive(&negative),
            Err(SessionError::UnknownCorrelationId(-1))
        ));
    }

    #[test]
    fn a_response_that_does_not_decode_stays_in_flight() {
        let mut session = ClientSession::new(None);
        let sent = session
            .send(&Request::Heartbeat(HeartbeatRequest::default()), 4)
            .unwrap();
        let good = answer(sent.correlation_id, &HeartbeatResponse::default(), 4);
        let mut cut = good[..good.len() - 1].to_vec();
        let len = (cut.len() - 4) as i32;
        cut[..4].copy_from_slice(&len.to_be_bytes());
        assert!(matches!(
            session.receive(&Bytes::from(cut)),
            Err(SessionError::Frame(_))
        ));
        assert_eq!(
            session.pending(sent.correlation_id),
            Some((ApiKey::Heartbeat, 4))
        );
    }

    #[test]
    fn a_produce_with_acks_0_is_not_kept_in_flight() {
        use kwire_messages::api::ProduceRequest;

        let mut session = ClientSession::new(None);
        let unanswered = session
            .send(&Request::Produce(ProduceRequest::default().with_acks(0)), 9)
            .unwrap();
        assert!(!unanswered.answered);
        assert_eq!(session.in_flight(), 0);
        assert_eq!(session.pending(unanswered.correlation_id), None);
        // acks = 1 and -1 are answered; the ids go on counting.
        for acks in [1, -1] {
            let produce = ProduceRequest::default().with_acks(acks);
            let sent = session.send(&Request::Produce(produce), 9).unwrap();
            assert!(sent.answered);
            assert_eq!(
                sent.correlation_id,
                unanswered.correlation_id + 1 + i32::from(acks == -1)
            );
        }
        assert_eq!(session.in_flight(), 2);
        // An answer under the unanswered request's id is a stranger's.
        let stray = answer(unanswered.correlation_id, &HeartbeatResponse::default(), 4);
        assert!(matches!(
            session.receive(&stray),
            Err(SessionError::RepeatedCorrelationId(0))
        ));
    }

    #[test]
    fn an_api_versions_error_body_at_v0_is_read_as_kafkas_client_reads_it() {
        let mut session = ClientSession::new(None);
        let sent = session
            .send(&Request::ApiVersions(ApiVersionsRequest::default()), 5)
            .unwrap();
        let v0 = ApiVersionsResponse::default().with_error_code(35);
        let read = session
            .receive(&answer(sent.correlation_id, &v0, 0))
            .unwrap();
        assert_eq!((read.version, read.read_at), (5, 0));
        assert_eq!(read.body, Response::ApiVersions(v0));
    }
}
