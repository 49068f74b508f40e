//! The client side of any mechanism, as one state machine.

use super::error::SaslError;
use super::mechanism::Mechanism;
use super::oauthbearer::{OAuthBearerClient, TokenProvider};
use super::plain;
use super::scram::{ScramClient, ScramHash};

/// What the client does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientStep {
    /// Send these bytes and wait for the server's answer.
    Send(Vec<u8>),
    /// Authenticated (for SCRAM: the server proved itself too).
    Done,
}

/// A client's side of one SASL exchange, whatever the mechanism: the first
/// message from [`start`](Self::start), then each server message to
/// [`step`](Self::step) until [`ClientStep::Done`].
///
/// ```
/// use kwire_net::sasl::{ClientStep, SaslClient, ScramHash, SaslServer, Users};
///
/// let users = Users::new().with_user("alice", "secret").unwrap();
/// let mut client = SaslClient::scram(ScramHash::Sha512, "alice", "secret").unwrap();
/// let mut server = SaslServer::new(client.mechanism());
///
/// let mut to_server = client.start().unwrap();
/// loop {
///     let reply = server.step(&to_server, &users).unwrap();
///     match client.step(reply.message()).unwrap() {
///         ClientStep::Send(next) => to_server = next,
///         ClientStep::Done => break,
///     }
/// }
/// assert_eq!(server.principal(), Some("alice"));
/// ```
///
/// OAUTHBEARER, refused: the server's error is answered by `%x01` and then
/// reported with the server's status.
///
/// ```
/// use kwire_net::sasl::{ClientStep, OAuthBearerToken, SaslClient, SaslError};
///
/// let mut client = SaslClient::oauthbearer(&OAuthBearerToken::new("expired.token.").unwrap()).unwrap();
/// assert_eq!(client.start().unwrap(), b"n,,\x01auth=Bearer expired.token.\x01\x01");
/// let error = br#"{"status":"invalid_token"}"#;
/// assert_eq!(client.step(error).unwrap(), ClientStep::Send(b"\x01".to_vec()));
/// let Some(SaslError::TokenRejected(refused)) = client.refusal() else { panic!() };
/// assert_eq!(refused.status, "invalid_token");
/// ```
pub struct SaslClient {
    inner: Inner,
}

impl std::fmt::Debug for SaslClient {
    // The messages to come hold the password or the token: the mechanism only.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaslClient")
            .field("mechanism", &self.mechanism())
            .field("done", &self.is_done())
            .finish_non_exhaustive()
    }
}

enum Inner {
    Plain {
        message: Option<Vec<u8>>,
        sent: bool,
        done: bool,
    },
    Scram {
        client: ScramClient,
        sent_final: bool,
    },
    OAuthBearer(OAuthBearerClient),
}

impl SaslClient {
    /// PLAIN with `username` and `password` (only over TLS: the password travels
    /// as it is).
    pub fn plain(username: &str, password: &str) -> Result<Self, SaslError> {
        Ok(SaslClient {
            inner: Inner::Plain {
                message: Some(plain::message(username, password)?),
                sent: false,
                done: false,
            },
        })
    }

    /// SCRAM-SHA-256 or SCRAM-SHA-512 with `username` and `password`.
    pub fn scram(hash: ScramHash, username: &str, password: &str) -> Result<Self, SaslError> {
        Ok(Self::from_scram(ScramClient::new(
            hash, username, password,
        )?))
    }

    /// OAUTHBEARER with the token `provider` gives now (Kafka's
    /// `OAuthBearerSaslClient`): its value and extensions go in the one message;
    /// a fixed [`OAuthBearerToken`](super::OAuthBearerToken) is a provider.
    /// Only over TLS: whoever reads the token can use it.
    ///
    /// The server answers empty bytes (accepted, [`ClientStep::Done`]) or its
    /// error message; [`step`](Self::step) then gives `%x01` to send (RFC 7628
    /// section 3.2.3), after which the server fails the exchange, and
    /// [`refusal`](Self::refusal) says why.
    pub fn oauthbearer(provider: &(impl TokenProvider + ?Sized)) -> Result<Self, SaslError> {
        Ok(SaslClient {
            inner: Inner::OAuthBearer(OAuthBearerClient::new(provider.token()?)),
        })
    }

    /// A SCRAM client built by hand (with extensions, say).
    pub fn from_scram(client: ScramClient) -> Self {
        SaslClient {
            inner: Inner::Scram {
                client,
                sent_final: false,
            },
        }
    }

    /// The mechanism, to name in SaslHandshake.
    pub fn mechanism(&self) -> Mechanism {
        match &self.inner {
            Inner::Plain { .. } => Mechanism::Plain,
            Inner::Scram { client, .. } => Mechanism::Scram(client.hash()),
            Inner::OAuthBearer(_) => Mechanism::OAuthBearer,
        }
    }

    /// The first message, sent in the first SaslAuthenticate (or as the first
    /// raw token after SaslHandshake v0).
    pub fn start(&mut self) -> Result<Vec<u8>, SaslError> {
        match &mut self.inner {
            Inner::Plain { message, sent, .. } => {
                *sent = true;
                message
                    .take()
                    .ok_or(SaslError::OutOfOrder { step: "start" })
            }
            Inner::Scram { client, .. } => client.client_first(),
            Inner::OAuthBearer(client) => client.initial_response(),
        }
    }

    /// Reads the server's message (the `auth_bytes` of a successful
    /// SaslAuthenticate response).
    pub fn step(&mut self, from_server: &[u8]) -> Result<ClientStep, SaslError> {
        match &mut self.inner {
            // Kafka's broker answers a good PLAIN message with empty bytes.
            Inner::Plain {
                sent: true, done, ..
            } if !*done => {
                *done = true;
                Ok(ClientStep::Done)
            }
            Inner::Plain { .. } => Err(SaslError::OutOfOrder {
                step: "PLAIN reply",
            }),
            Inner::Scram { client, sent_final } if !*sent_final => {
                *sent_final = true;
                client.client_final(from_server).map(ClientStep::Send)
            }
            Inner::Scram { client, .. } => client
                .verify_server_final(from_server)
                .map(|()| ClientStep::Done),
            Inner::OAuthBearer(client) => Ok(match client.step(from_server)? {
                Some(after_error) => ClientStep::Send(after_error),
                None => ClientStep::Done,
            }),
        }
    }

    /// OAUTHBEARER, once the server has answered with its error message: why,
    /// as [`SaslError::TokenRejected`] with the server's status (or
    /// [`SaslError::Malformed`] if the message was not RFC 7628's JSON). The
    /// SaslAuthenticate response that follows the `%x01` only says
    /// SASL_AUTHENTICATION_FAILED. `None` for the other mechanisms.
    pub fn refusal(&self) -> Option<&SaslError> {
        match &self.inner {
            Inner::OAuthBearer(client) => client.refusal(),
            _ => None,
        }
    }

    /// Whether the exchange has completed.
    pub fn is_done(&self) -> bool {
        match &self.inner {
            Inner::Plain { done, .. } => *done,
            Inner::Scram { client, .. } => client.is_done(),
            Inner::OAuthBearer(client) => client.is_done(),
        }
    }
}
