//! What can go wrong in a SASL exchange.

use kwire_messages::ErrorCode;

use super::oauthbearer::TokenRejected;

/// A SASL exchange that failed, on either side.
///
/// ```
/// use kwire_messages::ErrorCode;
/// use kwire_net::sasl::SaslError;
///
/// // What a server answers a client whose proof is wrong.
/// assert_eq!(SaslError::AuthenticationFailed.error_code(), ErrorCode::SaslAuthenticationFailed);
/// // A message over a mechanism's bound fails the same way, and says only its size.
/// let too_large = SaslError::TooLarge { what: "PLAIN message", len: 70_000, max: 65_536 };
/// assert_eq!(too_large.error_code(), ErrorCode::SaslAuthenticationFailed);
/// assert_eq!(too_large.to_string(), "PLAIN message of 70000 bytes is longer than the 65536 allowed");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SaslError {
    /// The mechanism asked for is not among those enabled.
    #[error("SASL mechanism {wanted} is not enabled; enabled: {}", enabled.join(", "))]
    UnsupportedMechanism {
        /// The mechanism asked for.
        wanted: String,
        /// Those the other side offers.
        enabled: Vec<String>,
    },
    /// The credentials are wrong, or the user does not exist: deliberately one
    /// error for both, as Kafka's broker answers.
    #[error("authentication failed: invalid credentials")]
    AuthenticationFailed,
    /// A message that does not follow the mechanism's grammar.
    #[error("malformed {what}: {detail}")]
    Malformed {
        /// Which message or part.
        what: &'static str,
        /// How it is wrong.
        detail: String,
    },
    /// A message (or a part of one) longer than the mechanism allows: refused
    /// before it is read any further, so that what a peer sends before it has
    /// authenticated costs no more than its own size. Never quotes the message.
    #[error("{what} of {len} bytes is longer than the {max} allowed")]
    TooLarge {
        /// Which message or part.
        what: &'static str,
        /// Its length in bytes.
        len: usize,
        /// The most allowed.
        max: usize,
    },
    /// More of something than the mechanism allows (extensions, attributes):
    /// refused at the first one over, without reading or counting the rest.
    #[error("more than {max} {what}")]
    TooMany {
        /// What there are too many of.
        what: &'static str,
        /// The most allowed.
        max: usize,
    },
    /// SCRAM: the server's nonce does not extend the client's, or the client's
    /// final message carries another nonce than the server's (a replay).
    #[error("SCRAM nonce mismatch")]
    NonceMismatch,
    /// SCRAM: an iteration count outside Kafka's bounds.
    #[error("SCRAM iteration count {iterations} outside {min}..={max}")]
    Iterations {
        /// The count given.
        iterations: u32,
        /// The fewest allowed.
        min: u32,
        /// The most allowed.
        max: u32,
    },
    /// SCRAM: the server's signature is not the one its stored credential makes:
    /// it is not the server it claims to be.
    #[error("SCRAM server signature does not verify")]
    ServerSignature,
    /// SCRAM: the server ended the exchange with `e=`.
    #[error("the server refused the SCRAM exchange: {0}")]
    ServerError(String),
    /// A step run out of order (or after the exchange failed or finished).
    #[error("SASL {step} out of order")]
    OutOfOrder {
        /// The step attempted.
        step: &'static str,
    },
    /// Re-authentication (KIP-368) asked for another mechanism than the
    /// session's login used, which Kafka's broker refuses.
    #[error("SASL mechanism '{requested}' requested by client is not supported for re-authentication of mechanism '{previous}'")]
    ReauthMechanismChanged {
        /// The mechanism of the session's login.
        previous: &'static str,
        /// The mechanism asked for now.
        requested: &'static str,
    },
    /// SCRAM: the client asked for channel binding, which is not supported.
    #[error("SCRAM channel binding is not supported")]
    ChannelBinding,
    /// The system's random source failed (nonces and salts need it).
    #[error("no random bytes: {0}")]
    Random(String),
    /// OAUTHBEARER: the server refused the token (RFC 7628 section 3.2.2). On a
    /// client, what the server's error message said; on a server, how the
    /// exchange ends once the client has acknowledged that message.
    #[error("the OAUTHBEARER token was refused: {0}")]
    TokenRejected(TokenRejected),
    /// OAUTHBEARER on a server whose [`Credentials`](super::Credentials) have
    /// no [`TokenValidator`](super::TokenValidator).
    #[error("OAUTHBEARER needs a token validator, and none is configured")]
    NoTokenValidator,
    /// OAUTHBEARER: the client's [`TokenProvider`](super::TokenProvider) has no
    /// token to give.
    #[error("no OAUTHBEARER token: {0}")]
    NoToken(String),
    /// Credentials given as text ([`Login`](super::Login)'s `FromStr`) that do
    /// not read.
    #[error("bad login: {0}")]
    BadLogin(&'static str),
    /// A stored SCRAM credential in Kafka's text form
    /// ([`ScramCredential::parse`](super::ScramCredential::parse)) that does not
    /// read: a key missing, repeated or unknown, a value that is not base64, an
    /// empty salt, keys of another length than the hash's output. (Iterations
    /// outside Kafka's bounds are [`Iterations`](Self::Iterations).)
    #[error("bad SCRAM credential: {0}")]
    BadCredential(String),
}

impl SaslError {
    /// [`TooLarge`](Self::TooLarge) if `len` is over `max`: every mechanism
    /// checks a message's size so, before it reads anything of it.
    pub(crate) fn check_len(what: &'static str, len: usize, max: usize) -> Result<(), SaslError> {
        if len > max {
            return Err(SaslError::TooLarge { what, len, max });
        }
        Ok(())
    }

    /// The Kafka error code a broker answers this failure with, in the
    /// SaslHandshake or SaslAuthenticate response: UNSUPPORTED_SASL_MECHANISM
    /// (OAUTHBEARER without a validator included),
    /// ILLEGAL_SASL_STATE for a step out of order, and SASL_AUTHENTICATION_FAILED
    /// for everything else (a malformed or oversized message included, as
    /// Kafka's broker answers it).
    pub fn error_code(&self) -> ErrorCode {
        match self {
            SaslError::UnsupportedMechanism { .. } | SaslError::NoTokenValidator => {
                ErrorCode::UnsupportedSaslMechanism
            }
            SaslError::OutOfOrder { .. } => ErrorCode::IllegalSaslState,
            _ => ErrorCode::SaslAuthenticationFailed,
        }
    }
}
