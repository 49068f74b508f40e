//! One client connection: frames in, answers out, in order.
//!
//! Requests are answered one at a time, in the order they arrived, as Kafka does
//! (it reads no further request from a connection until the current one is
//! answered); pipelined requests wait in the socket and the frame buffer. A frame
//! that cannot be read closes this connection only.
//!
//! Frames come from a [`FrameReader`]: each is paid for from the shared request
//! budget before its body is read, and its bytes given back once it is answered;
//! the reader also closes the connection when idle or evicted.
//!
//! The stream is TCP or TLS over TCP (`listeners.rs` makes it); SASL is asked
//! for on SASL_PLAINTEXT and SASL_SSL listeners only.

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use kwire::wire::ChunkedBytes;
use kwire::MessageEnum;
use kwire_messages::frame::{self, FrameError};
use kwire_messages::frame::{RequestError, RequestFrame, TrailingBytes};
use kwire_messages::Listener;
use kwire_messages::{ApiKey, ErrorCode, Request, Response, ResponseHeader};
use kwire_net::negotiation::answer_api_versions;
use kwire_net::sasl::Gate;
use kwire_net::server::{FrameReader, ServerError};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

use crate::api::{self, Unanswered};
use crate::held::Held;
use crate::listeners::Endpoint;
use crate::security::SaslConnection;
use crate::Broker;

/// Why a connection was closed by us.
#[derive(Debug)]
enum Closed {
    Frame(FrameError),
    Request(RequestError),
    NotServed {
        api_key: i16,
        version: i16,
    },
    Encode(FrameError),
    /// The SASL gate closed it: a request before authenticating, a failed or
    /// expired session.
    Unauthenticated(String),
    /// A Produce with acks = 0 that a partition refused (`api::Unanswered`).
    AcksZeroRefused(ErrorCode),
}

impl fmt::Display for Closed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Closed::Frame(error) => write!(f, "unreadable request frame: {error}"),
            Closed::Request(error) => write!(f, "unreadable request: {error}"),
            Closed::NotServed { api_key, version } => {
                write!(f, "API key {api_key} v{version} is not served")
            }
            Closed::Encode(error) => write!(f, "cannot encode the answer: {error}"),
            Closed::Unauthenticated(why) => write!(f, "SASL: {why}"),
            Closed::AcksZeroRefused(error) => write!(
                f,
                "a Produce with acks=0 was not written ({}); closed, as Kafka does, so that \
                 the producer refreshes its metadata",
                error.name()
            ),
        }
    }
}

pub async fn serve<R, W>(
    broker: Arc<Broker>,
    endpoint: Arc<Endpoint>,
    mut frames: FrameReader<R>,
    mut writer: W,
    peer: SocketAddr,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    tracing::debug!(%peer, listener = %endpoint.protocol, "connected");
    let mut sasl = match (endpoint.protocol.sasl(), &broker.security) {
        (false, _) => None,
        (true, Some(security)) => Some(security.connection(&broker.authentication)),
        // The command line refuses a SASL listener without users; were one
        // here, nobody could log in, and nobody is served unauthenticated.
        (true, None) => {
            tracing::error!(%peer, "SASL listener without users; closing");
            return;
        }
    };
    loop {
        // The frame, and the budget it holds, live until it is answered.
        let frame = match frames.next_frame().await {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            // Routine: the limits doing their job, not the client's error.
            Err(error @ (ServerError::Idle(_) | ServerError::Evicted)) => {
                tracing::debug!(%peer, %error, "closing the connection");
                return;
            }
            // A TLS client that hangs up without close_notify, between requests:
            // an ordinary disconnect (most clients do it). Kafka's length
            // prefixes, not TLS, tell a request cut short, and that is an
            // UnexpectedEof of the reader's own.
            Err(ServerError::Io(error))
                if error.kind() == std::io::ErrorKind::UnexpectedEof && frames.buffered() == 0 =>
            {
                break;
            }
            Err(error) => {
                tracing::warn!(%peer, %error, "closing the connection");
                return;
            }
        };
        // What the answer takes of the response budget, held until it is written.
        let mut held = Held::default();
        let answered = match &mut sasl {
            // After SaslHandshake v0 the frames are bare tokens, no header.
            Some(sasl) if sasl.expects_raw_token() => sasl
                .raw_token(&frame)
                .await
                .map(|bytes| Answer::Frame(bytes.into()))
                .map_err(Closed::Unauthenticated),
            _ => answer(&broker, &endpoint, &frame, peer, &mut held, sasl.as_mut()).await,
        };
        // The answer is encoded afresh: the request's bytes go back to the budget
        // now, so that a client slow to read its answers holds none of them.
        drop(frame);
        // Logged in: from the next frame on, requests may be as large as any
        // client's and are paid for from the budget, and the connection is
        // never evicted for a newcomer.
        if sasl.as_ref().is_some_and(|sasl| sasl.is_authenticated()) {
            frames.authenticated();
        }
        if matches!(
            answered,
            Ok(Answer::Last(_)) | Err(Closed::Unauthenticated(_))
        ) {
            // connection.failed.authentication.delay.ms: a guess costs the
            // guesser this long, and holds no thread meanwhile.
            tokio::time::sleep(broker.failed_authentication_delay).await;
        }
        match answered {
            Ok(Answer::Nothing) => {}
            Ok(Answer::Frame(mut response)) => {
                if let Err(error) = write(&mut writer, &mut response).await {
                    tracing::debug!(%peer, %error, "write failed; closing");
                    return;
                }
                drop(held);
            }
            Ok(Answer::Last(mut response)) => {
                // A failed SASL exchange: answered, then closed, as Kafka does.
                let _ = write(&mut writer, &mut response).await;
                tracing::info!(%peer, "closing the connection: SASL authentication failed");
                return;
            }
            // Routine answers to a client's mistakes, not the server's trouble.
            Err(closed @ (Closed::Unauthenticated(_) | Closed::AcksZeroRefused(_))) => {
                tracing::info!(%peer, "closing the connection: {closed}");
                return;
            }
            Err(closed) => {
                tracing::warn!(%peer, "closing the connection: {closed}");
                return;
            }
        }
    }
    tracing::debug!(%peer, "disconnected");
}

/// Writes a whole frame out, its chunks gathered (a Fetch's record batches go
/// from the log's memory to the socket); TLS keeps what is written in its buffer
/// until flushed (plain TCP's flush does nothing).
async fn write<W: AsyncWrite + Unpin>(
    writer: &mut W,
    frame: &mut ChunkedBytes,
) -> std::io::Result<()> {
    writer.write_all_buf(frame).await?;
    writer.flush().await
}

/// What one request frame gets.
enum Answer {
    /// This response frame.
    Frame(ChunkedBytes),
    /// This response frame, and then the connection is closed.
    Last(ChunkedBytes),
    /// No answer (a Produce with acks = 0).
    Nothing,
}

/// The answer to one request frame; `sasl` is the connection's SASL state when
/// SASL is on.
async fn answer(
    broker: &Broker,
    endpoint: &Endpoint,
    frame: &Bytes,
    peer: SocketAddr,
    held: &mut Held,
    sasl: Option<&mut SaslConnection>,
) -> Result<Answer, Closed> {
    let started = Instant::now();
    let request = RequestFrame::parse(frame).map_err(Closed::Frame)?;
    let (api_key, version) = (request.api_key(), request.api_version());
    let api = ApiKey::from_i16(api_key).ok();
    let served = api.and_then(api::served_versions);
    let in_range = served.is_some_and(|(min, max)| (min..=max).contains(&version));

    // KIP-511: a client asking ApiVersions at a version we do not know gets our
    // range in a v0 body, so that it can ask again at one we do.
    if api == Some(ApiKey::ApiVersions) && !in_range {
        let response = answer_api_versions(&request, Listener::Broker).map_err(Closed::Encode)?;
        log(
            peer,
            &request,
            started,
            "UNSUPPORTED_VERSION, answered at v0",
        );
        return Ok(Answer::Frame(response.into()));
    }
    if !in_range {
        return Err(Closed::NotServed { api_key, version });
    }

    // Within the broker's decode limits: a request over one fails here, before
    // what it claims is allocated, and the connection closes as for any body
    // that cannot be read.
    let decoded = request
        .decode_with_limits::<Request>(TrailingBytes::Ignore, &broker.config.decode)
        .map_err(Closed::Request)?;
    if decoded.ignored > 0 {
        tracing::debug!(%peer, ignored = decoded.ignored, "bytes after the request body ignored");
    }
    let client_id = request
        .header()
        .client_id
        .as_ref()
        .map_or("", |id| id.as_str())
        .to_owned();
    if let Some(sasl) = sasl {
        match sasl.on_request(&decoded.body, version).await {
            Gate::Serve => {}
            Gate::Answer(response) => {
                let bytes = respond(broker, &request, response, held).await?;
                log(peer, &request, started, "answered (SASL)");
                return Ok(Answer::Frame(bytes));
            }
            Gate::AnswerAndClose(response) => {
                let bytes = respond(broker, &request, response, held).await?;
                log(peer, &request, started, "refused (SASL)");
                return Ok(Answer::Last(bytes));
            }
            Gate::Close(why) => return Err(Closed::Unauthenticated(why)),
        }
    }
    let mut response = match api::answer(broker, &client_id, decoded.body, version).await {
        Ok(response) => response,
        Err(Unanswered::Refused(error)) => return Err(Closed::AcksZeroRefused(error)),
        Err(Unanswered::Written) => {
            log(peer, &request, started, "no answer (acks=0)");
            return Ok(Answer::Nothing);
        }
        Err(Unanswered::NotServed) => {
            log(peer, &request, started, "not served; no answer");
            return Ok(Answer::Nothing);
        }
    };
    endpoint.advertise(&mut response, broker.config.node_id);
    let bytes = respond(broker, &request, response, held).await?;
    log(peer, &request, started, "answered");
    Ok(Answer::Frame(bytes))
}

/// Frames `response` to `request`, its bytes taken from the response budget
/// before it is written into them.
async fn respond(
    broker: &Broker,
    request: &RequestFrame,
    response: Response,
    held: &mut Held,
) -> Result<ChunkedBytes, Closed> {
    let version = request.api_version();
    let header = ResponseHeader::default().with_correlation_id(request.correlation_id());
    let size = encoded_size(&response, version).map_err(Closed::Encode)?;
    held.take(&broker.responses, size).await;
    // Vectored: each partition's records are a chunk of the frame, slices of the
    // log, not copied; the permit covers them as long as the frame holds them.
    frame::encode_any_response_vectored(&header, &response, version).map_err(Closed::Encode)
}

/// The one debug line per request.
fn log(peer: SocketAddr, request: &RequestFrame, started: Instant, outcome: &str) {
    tracing::debug!(
        %peer,
        api = request.api().map_or("unknown", |api| api.name()),
        version = request.api_version(),
        correlation_id = request.correlation_id(),
        client_id = request.header().client_id.as_ref().map_or("", |id| id.as_str()),
        micros = started.elapsed().as_micros() as u64,
        "{outcome}"
    );
}

/// The bytes a response frame takes: its body's exact size and room for the
/// length prefix and the largest response header (a correlation ID and tags).
fn encoded_size(response: &Response, version: i16) -> Result<usize, FrameError> {
    const HEADER: usize = 4 + 1;
    Ok(response.encoded_size(version)? + frame::PREFIX_LEN + HEADER)
}

#[cfg(test)]
#[path = "connection_tests.rs"]
mod tests;
