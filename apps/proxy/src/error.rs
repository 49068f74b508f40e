//! The proxy's own errors: what can end a connection, a listener or the program.
//!
//! A hand-written enum rather than `thiserror` (not a dependency of the examples) or
//! `Box<dyn Error>` (the caller decides by kind: a bad frame from a peer is logged
//! differently from a socket error).

use std::error::Error;
use std::fmt;
use std::io;

use kwire_messages::frame::FrameLengthError;
use kwire_messages::FrameError;
use kwire_net::negotiation::NegotiationError;
use kwire_net::sasl::SaslError;
use kwire_net::server::ServerError;
use kwire_net::tls::TlsError;
use std::time::Duration;

/// Why the proxy could not do something.
#[derive(Debug)]
pub enum ProxyError {
    /// The command line is wrong; the text says how.
    Usage(String),
    /// A socket or file operation failed.
    Io(io::Error),
    /// A peer sent a length prefix that cannot start a frame (negative or too large):
    /// the stream cannot be resynchronised, so its connection is closed.
    BadFrame(FrameLengthError),
    /// A frame could not be written (a rewritten response that does not encode).
    Encode(FrameError),
    /// A broker advertised a port that is not a TCP port.
    BadPort(i32),
    /// Connecting to the upstream broker took too long.
    ConnectTimeout,
    /// Every port of `--broker-ports` is taken.
    NoFreePort,
    /// A frame was not read within the limits (too large for the budget, idle,
    /// evicted), or its stream failed.
    Frame(ServerError),
    /// The upstream broker left a request unanswered past `--request-timeout-ms`.
    UpstreamTimeout {
        /// The request's API name.
        api: &'static str,
        /// Its correlation id.
        correlation_id: i32,
        /// The timeout.
        timeout: Duration,
    },
    /// A certificate or key could not be loaded, or a TLS handshake failed.
    Tls(TlsError),
    /// The proxy's own SASL exchange with the upstream failed on SASL's terms (a
    /// SCRAM server signature that does not verify, a malformed challenge).
    Sasl(SaslError),
    /// The upstream broker refused the proxy's login, or cannot take one; the
    /// text says which and why.
    UpstreamLogin(String),
    /// The upstream broker offers no version of an API the proxy's login needs.
    Negotiation(NegotiationError),
    /// A client the proxy authenticates did not: a request before logging in, a
    /// failed exchange, SASL where the proxy takes none. The text says which.
    Unauthenticated(String),
    /// A response answered another request than the one the proxy sent.
    UnexpectedResponse {
        /// The correlation id the proxy sent.
        sent: i32,
        /// The one that came back.
        received: i32,
    },
    /// The upstream closed the connection while the proxy awaited an answer.
    UpstreamClosed,
}

impl fmt::Display for ProxyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProxyError::Usage(text) => f.write_str(text),
            ProxyError::Io(_) => f.write_str("I/O error"),
            ProxyError::BadFrame(_) => f.write_str("bad frame"),
            ProxyError::Encode(_) => f.write_str("cannot encode frame"),
            ProxyError::BadPort(port) => write!(f, "{port} is not a TCP port"),
            ProxyError::ConnectTimeout => f.write_str("timed out connecting"),
            ProxyError::NoFreePort => f.write_str("no port of --broker-ports is free"),
            ProxyError::Frame(_) => f.write_str("frame not read"),
            ProxyError::UpstreamTimeout {
                api,
                correlation_id,
                timeout,
            } => write!(
                f,
                "upstream did not answer {api} (correlation id {correlation_id}) within \
                 {timeout:?} (request.timeout.ms)"
            ),
            // Their messages hold their causes already.
            ProxyError::Tls(error) => write!(f, "{error}"),
            ProxyError::Sasl(error) => write!(f, "SASL login upstream failed: {error}"),
            ProxyError::UpstreamLogin(text) => write!(f, "SASL login upstream failed: {text}"),
            ProxyError::Negotiation(error) => write!(f, "SASL login upstream impossible: {error}"),
            ProxyError::Unauthenticated(text) => write!(f, "client not authenticated: {text}"),
            ProxyError::UnexpectedResponse { sent, received } => write!(
                f,
                "upstream answered correlation id {received} where {sent} was awaited"
            ),
            ProxyError::UpstreamClosed => f.write_str("upstream closed the connection"),
        }
    }
}

impl Error for ProxyError {
    // The cause is the source, not part of the message, so that `chain` says each
    // fact once.
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            ProxyError::Io(error) => Some(error),
            ProxyError::BadFrame(error) => Some(error),
            ProxyError::Encode(error) => Some(error),
            ProxyError::Frame(error) => Some(error),
            // Displayed whole above: kwire-net's TLS errors name their cause in
            // their message and as their source both.
            ProxyError::Tls(_) | ProxyError::Sasl(_) | ProxyError::Negotiation(_) => None,
            ProxyError::UpstreamTimeout { .. }
            | ProxyError::UpstreamLogin(_)
            | ProxyError::Unauthenticated(_)
            | ProxyError::UnexpectedResponse { .. }
            | ProxyError::UpstreamClosed
            | ProxyError::Usage(_)
            | ProxyError::BadPort(_)
            | ProxyError::ConnectTimeout
            | ProxyError::NoFreePort => None,
        }
    }
}

impl From<io::Error> for ProxyError {
    fn from(error: io::Error) -> Self {
        ProxyError::Io(error)
    }
}

impl From<FrameLengthError> for ProxyError {
    fn from(error: FrameLengthError) -> Self {
        ProxyError::BadFrame(error)
    }
}

impl From<ServerError> for ProxyError {
    fn from(error: ServerError) -> Self {
        match error {
            ServerError::Io(error) => ProxyError::Io(error),
            ServerError::Length(error) => ProxyError::BadFrame(error),
            error => ProxyError::Frame(error),
        }
    }
}

impl From<FrameError> for ProxyError {
    fn from(error: FrameError) -> Self {
        ProxyError::Encode(error)
    }
}

impl From<TlsError> for ProxyError {
    fn from(error: TlsError) -> Self {
        ProxyError::Tls(error)
    }
}

impl From<SaslError> for ProxyError {
    fn from(error: SaslError) -> Self {
        ProxyError::Sasl(error)
    }
}

impl From<NegotiationError> for ProxyError {
    fn from(error: NegotiationError) -> Self {
        ProxyError::Negotiation(error)
    }
}

/// An error and its sources on one line, `outer: inner: innermost`: the crates'
/// errors say each fact once across the chain, so a log line needs all of it.
pub fn chain(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
