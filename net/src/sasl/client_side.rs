//! The client's SASL login in Kafka's framing, sans-IO: SaslHandshake v1 naming
//! the mechanism, then SaslAuthenticate carrying each token until the mechanism
//! is done, and the session's lifetime (KIP-368) read from the last answer. The
//! counterpart of [`ServerAuthenticator`](super::ServerAuthenticator).
//!
//! The caller moves the requests (a client connection, a proxy logging in
//! upstream) and negotiates versions first: [`LoginVersions::negotiated`].

use std::time::Duration;

use bytes::Bytes;
use kwire_messages::api::{SaslAuthenticateRequest, SaslHandshakeRequest};
use kwire_messages::{ApiKey, ErrorCode, Request, Response};

use super::{ClientStep, Login, SaslClient, SaslError};
use crate::negotiation::{Negotiated, NegotiationError};

/// Why a login in Kafka's framing failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoginError {
    /// The broker answered SaslHandshake or SaslAuthenticate with an error: the
    /// mechanism is not enabled (the message lists those that are), or the
    /// credentials were refused (the broker's message).
    #[error("authentication failed with {code}: {message}")]
    Refused {
        /// The broker's error code (UNSUPPORTED_SASL_MECHANISM,
        /// SASL_AUTHENTICATION_FAILED, ILLEGAL_SASL_STATE, ...).
        code: ErrorCode,
        /// The broker's message, or the mechanisms it enabled.
        message: String,
    },
    /// The broker speaks SaslHandshake v0 only, whose tokens go bare, outside
    /// Kafka's framing; every broker since Kafka 1.0 speaks v1.
    #[error(
        "the broker offers only SaslHandshake v0 (bare tokens), which this login does not speak"
    )]
    HandshakeV0Only,
    /// The broker lacks SaslHandshake or SaslAuthenticate at any version both
    /// sides know.
    #[error(transparent)]
    Negotiation(#[from] NegotiationError),
    /// The mechanism failed on this side (the broker's messages did not check
    /// out, or the credentials could not be used).
    #[error(transparent)]
    Sasl(#[from] SaslError),
    /// The answer is not to the request last given.
    #[error("a {} response where {} was awaited", got.name(), awaited.name())]
    UnexpectedResponse {
        /// The API of the request last given.
        awaited: ApiKey,
        /// The API of the answer.
        got: ApiKey,
    },
}

/// The SaslHandshake and SaslAuthenticate versions to log in at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoginVersions {
    /// SaslHandshake's (1 at least).
    pub handshake: i16,
    /// SaslAuthenticate's.
    pub authenticate: i16,
}

impl LoginVersions {
    /// The versions negotiated with the broker.
    pub fn negotiated(negotiated: &Negotiated) -> Result<Self, LoginError> {
        let handshake = negotiated.version(ApiKey::SaslHandshake)?;
        if handshake < 1 {
            return Err(LoginError::HandshakeV0Only);
        }
        let authenticate = negotiated.version(ApiKey::SaslAuthenticate)?;
        Ok(LoginVersions {
            handshake,
            authenticate,
        })
    }
}

/// What the client does next.
#[derive(Debug)]
pub enum LoginStep {
    /// Send this request at this version and give its answer to
    /// [`ClientLogin::on_response`] (boxed: the request enum is large).
    Send(Box<Request>, i16),
    /// Logged in; the broker ends the session after `session_lifetime` unless the
    /// client logs in again before (KIP-368), if it gave one.
    Done {
        /// How long the broker keeps the session, if it limits it.
        session_lifetime: Option<Duration>,
    },
}

/// One login in Kafka's framing, sans-IO.
///
/// ```
/// use kwire_messages::{Request, Response};
/// use kwire_net::sasl::{
///     ClientLogin, Gate, Login, LoginStep, LoginVersions, Mechanism, ScramHash,
///     ServerAuthenticator, Users,
/// };
///
/// let users = Users::new().with_user("alice", "alice-secret").unwrap();
/// let mut broker = ServerAuthenticator::new(Mechanism::ALL.to_vec());
/// let versions = LoginVersions { handshake: 1, authenticate: 2 };
/// let login = Login::scram(ScramHash::Sha512, "alice", "alice-secret");
/// let (mut client, mut step) = ClientLogin::start(&login, versions).unwrap();
/// while let LoginStep::Send(request, version) = step {
///     let Gate::Answer(answer) = broker.on_request(&request, version, &users, std::time::Instant::now()) else {
///         panic!("the broker answers each step")
///     };
///     step = client.on_response(answer).unwrap();
/// }
/// assert_eq!(broker.principal(), Some("alice"));
/// ```
#[derive(Debug)]
pub struct ClientLogin {
    mechanism: &'static str,
    client: SaslClient,
    versions: LoginVersions,
    /// Whether SaslHandshake has been answered.
    handshaken: bool,
}

impl ClientLogin {
    /// Starts a login with `login`'s credentials (a fresh exchange each time): the
    /// first step is SaslHandshake.
    pub fn start(login: &Login, versions: LoginVersions) -> Result<(Self, LoginStep), LoginError> {
        let mechanism = login.mechanism_name();
        let handshake = SaslHandshakeRequest::default().with_mechanism(mechanism.into());
        let login = ClientLogin {
            mechanism,
            client: login.client()?,
            versions,
            handshaken: false,
        };
        Ok((
            login,
            LoginStep::Send(Box::new(handshake.into()), versions.handshake),
        ))
    }

    /// Reads the answer to the request last given.
    pub fn on_response(&mut self, response: Response) -> Result<LoginStep, LoginError> {
        match response {
            Response::SaslHandshake(answer) if !self.handshaken => {
                if let Err(code) = ErrorCode::check(answer.error_code) {
                    let message = if code == ErrorCode::UnsupportedSaslMechanism {
                        let enabled: Vec<&str> =
                            answer.mechanisms.iter().map(|m| m.as_str()).collect();
                        format!(
                            "{} is not enabled; the broker offers {}",
                            self.mechanism,
                            enabled.join(", ")
                        )
                    } else {
                        // ILLEGAL_SASL_STATE: a handshake the broker takes at no
                        // time now (a re-authentication it does not allow, or a
                        // second within a second).
                        format!("the broker refused the {} handshake", self.mechanism)
                    };
                    return Err(LoginError::Refused { code, message });
                }
                self.handshaken = true;
                let token = self.client.start()?;
                Ok(self.authenticate(token))
            }
            Response::SaslAuthenticate(answer) if self.handshaken => {
                if let Err(code) = ErrorCode::check(answer.error_code) {
                    let mut message = answer
                        .error_message
                        .map_or_else(|| code.message().to_owned(), |m| m.as_str().to_owned());
                    // OAUTHBEARER's server said why before failing the exchange.
                    if let Some(refusal) = self.client.refusal() {
                        message = format!("{message} ({refusal})");
                    }
                    return Err(LoginError::Refused { code, message });
                }
                match self.client.step(&answer.auth_bytes)? {
                    ClientStep::Send(token) => Ok(self.authenticate(token)),
                    ClientStep::Done => {
                        let lifetime = u64::try_from(answer.session_lifetime_ms).unwrap_or(0);
                        Ok(LoginStep::Done {
                            session_lifetime: (lifetime > 0)
                                .then(|| Duration::from_millis(lifetime)),
                        })
                    }
                }
            }
            other => Err(LoginError::UnexpectedResponse {
                awaited: if self.handshaken {
                    ApiKey::SaslAuthenticate
                } else {
                    ApiKey::SaslHandshake
                },
                got: other.api(),
            }),
        }
    }

    /// The versions this login runs at (to log in again at).
    pub fn versions(&self) -> LoginVersions {
        self.versions
    }

    fn authenticate(&self, token: Vec<u8>) -> LoginStep {
        let request = SaslAuthenticateRequest::default().with_auth_bytes(Bytes::from(token));
        LoginStep::Send(Box::new(request.into()), self.versions.authenticate)
    }
}
