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
use kwire_net::server::ServerError;
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
            ProxyError::UpstreamTimeout { .. }
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
