//! The client's one error type: everything a connection can fail with, each kind
//! its own variant, and every lower error converting into it so that `?` works.

use std::io;
use std::time::Duration;

use kwire::records::RecordsError;
use kwire::{EncodeError, WrongMessage};
use kwire_messages::{ApiKey, ErrorCode, Response};

use crate::negotiation::NegotiationError;
use crate::sasl::{LoginError, SaslError};
use crate::session::SessionError;
use crate::FrameIoError;

/// Why a [`Connection`](super::Connection) could not be opened or a request not
/// answered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// Connecting, or reading or writing the socket, failed.
    #[error("connection I/O failed: {0}")]
    Io(#[from] io::Error),
    /// The connection did not open within the connect timeout.
    #[error("no connection to {address} within {after:?}")]
    ConnectTimeout {
        /// The address tried.
        address: String,
        /// The timeout.
        after: Duration,
    },
    /// TLS could not be set up.
    #[cfg(feature = "tls")]
    #[error(transparent)]
    Tls(#[from] crate::tls::TlsError),
    /// A frame was malformed (its length prefix, or a stream that ended inside it).
    #[error(transparent)]
    Frame(#[from] FrameIoError),
    /// A request could not be framed or a response frame not read.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The request could not be encoded at the version chosen (in a strict
    /// connection: a field it holds would be dropped at that version).
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// A strict connection refused to send a request holding a value that its
    /// version lacks (an ignorable field, which encoding would drop): at Produce
    /// and Fetch v13, a topic named without its `topic_id`, say. The error names
    /// the field's path and the version
    /// ([`IgnorableFieldDropped`](kwire::EncodeErrorKind::IgnorableFieldDropped)).
    #[error("{0}; set the fields of that version, or send at another")]
    WouldDrop(EncodeError),
    /// No version of the API is usable with this broker.
    #[error(transparent)]
    Negotiation(#[from] NegotiationError),
    /// The broker answered with a response of another API than the request's
    /// (boxed: it holds the whole response).
    #[error("the broker answered with the wrong message: {0}")]
    WrongResponse(Box<WrongMessage<Response>>),
    /// The request was not answered within the request timeout.
    #[error("{} v{version} not answered within {after:?}", api.name())]
    Timeout {
        /// The API of the request.
        api: ApiKey,
        /// Its version.
        version: i16,
        /// The timeout.
        after: Duration,
    },
    /// The connection is closed: the broker closed it, or reading it failed
    /// (`reason` says which); requests in flight are not answered.
    #[error("the connection is closed: {reason}")]
    Closed {
        /// What closed it.
        reason: String,
    },
    /// The SASL exchange failed on this side (the broker's messages did not
    /// check out, or the credentials could not be used).
    #[error(transparent)]
    Sasl(#[from] SaslError),
    /// The broker refused to authenticate the client.
    #[error("authentication failed with {code}: {message}")]
    Authentication {
        /// The broker's error code (SASL_AUTHENTICATION_FAILED,
        /// UNSUPPORTED_SASL_MECHANISM, ILLEGAL_SASL_STATE, ...).
        code: ErrorCode,
        /// The broker's message, or the mechanisms it enabled.
        message: String,
    },
    /// The broker's answers during the login were not the ones the login
    /// awaits.
    #[error("logging in failed: {0}")]
    Login(LoginError),
    /// A Kafka error code, from a response (see [`ErrorCode::check`]).
    #[error("the broker answered {0}")]
    Kafka(#[from] ErrorCode),
    /// Record batches could not be built or read.
    #[error(transparent)]
    Records(#[from] RecordsError),
}

impl From<WrongMessage<Response>> for ClientError {
    fn from(wrong: WrongMessage<Response>) -> Self {
        ClientError::WrongResponse(Box::new(wrong))
    }
}

/// A refusal is [`ClientError::Authentication`], as the broker's other refusals;
/// a login the broker's versions rule out is [`ClientError::Authentication`]
/// with UNSUPPORTED_VERSION (v0 handshakes) or [`ClientError::Negotiation`].
impl From<LoginError> for ClientError {
    fn from(error: LoginError) -> Self {
        match error {
            LoginError::Refused { code, message } => ClientError::Authentication { code, message },
            LoginError::HandshakeV0Only => ClientError::Authentication {
                code: ErrorCode::UnsupportedVersion,
                message: LoginError::HandshakeV0Only.to_string(),
            },
            LoginError::Negotiation(error) => ClientError::Negotiation(error),
            LoginError::Sasl(error) => ClientError::Sasl(error),
            other => ClientError::Login(other),
        }
    }
}
