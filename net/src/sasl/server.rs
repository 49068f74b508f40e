//! The server side of any mechanism, and where it finds users.

use std::collections::HashMap;
use std::sync::Arc;

use super::error::SaslError;
use super::mechanism::Mechanism;
use super::oauthbearer::{
    now_ms, OAuthBearerServer, SaslExtensions, TokenValidator, ValidatedToken,
};
use super::plain;
use super::scram::{ScramCredential, ScramHash, ScramServer};

/// Where a server finds its users' credentials, and how it judges OAUTHBEARER
/// tokens.
///
/// Only salted SCRAM credentials are asked for: PLAIN is checked against them
/// too ([`ScramCredential::matches_password`]), so no password need be stored.
/// OAUTHBEARER needs a [`token_validator`](Self::token_validator); without one
/// (the default) it is not offered.
pub trait Credentials {
    /// The credential of `username` for `hash`, if the user has one.
    fn scram(&self, hash: ScramHash, username: &str) -> Option<ScramCredential>;

    /// Whether `password` is `username`'s (for PLAIN). By default checked
    /// against the user's SCRAM credentials, and as slow for a user that does
    /// not exist as for one that does.
    fn plain(&self, username: &str, password: &str) -> bool {
        let found = [ScramHash::Sha512, ScramHash::Sha256]
            .into_iter()
            .find_map(|hash| self.scram(hash, username));
        match found {
            Some(credential) => credential.matches_password(password),
            None => {
                // The same derivation a real credential's check runs.
                let hash = ScramHash::Sha512;
                let _ = hash.keys(password, b"stand-in", hash.min_iterations());
                false
            }
        }
    }

    /// What judges OAUTHBEARER tokens; `None` (the default): OAUTHBEARER is
    /// refused, and a [`ServerAuthenticator`](super::ServerAuthenticator) does
    /// not offer it.
    fn token_validator(&self) -> Option<&dyn TokenValidator> {
        None
    }
}

/// Users held in memory, each with a SCRAM credential per hash, and
/// optionally a [`TokenValidator`] for OAUTHBEARER.
///
/// ```
/// use kwire_net::sasl::{Credentials, ScramHash, UnsecuredValidator, Users};
///
/// let users = Users::new().with_user("alice", "secret").unwrap();
/// assert!(users.scram(ScramHash::Sha256, "alice").is_some());
/// assert!(users.plain("alice", "secret"));
/// assert!(!users.plain("alice", "guess"));
/// assert!(users.token_validator().is_none());
///
/// let users = users.with_token_validator(UnsecuredValidator::new());
/// assert!(users.token_validator().is_some());
/// ```
#[derive(Clone, Default)]
pub struct Users {
    by_name: HashMap<String, Vec<ScramCredential>>,
    validator: Option<Arc<dyn TokenValidator + Send + Sync>>,
}

impl std::fmt::Debug for Users {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Users")
            .field("by_name", &self.by_name)
            .field("token_validator", &self.validator.is_some())
            .finish()
    }
}

impl Users {
    /// No users.
    pub fn new() -> Self {
        Users::default()
    }

    /// Adds `username` with credentials for both hashes made from `password` at
    /// Kafka's minimum iterations (4096), salted at random.
    pub fn with_user(mut self, username: &str, password: &str) -> Result<Self, SaslError> {
        for hash in ScramHash::ALL {
            let credential = ScramCredential::new(hash, password, hash.min_iterations())?;
            self = self.with_credential(username, credential);
        }
        Ok(self)
    }

    /// Adds (or replaces) one credential of `username`.
    pub fn with_credential(mut self, username: &str, credential: ScramCredential) -> Self {
        let credentials = self.by_name.entry(username.to_owned()).or_default();
        credentials.retain(|c| c.hash() != credential.hash());
        credentials.push(credential);
        self
    }

    /// Judges OAUTHBEARER tokens with `validator` (replacing any before), so
    /// that a [`ServerAuthenticator`](super::ServerAuthenticator) offers it.
    pub fn with_token_validator(
        mut self,
        validator: impl TokenValidator + Send + Sync + 'static,
    ) -> Self {
        self.validator = Some(Arc::new(validator));
        self
    }

    /// How many users there are.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }
}

impl Credentials for Users {
    fn scram(&self, hash: ScramHash, username: &str) -> Option<ScramCredential> {
        self.by_name
            .get(username)?
            .iter()
            .find(|c| c.hash() == hash)
            .cloned()
    }

    fn token_validator(&self) -> Option<&dyn TokenValidator> {
        self.validator.as_deref().map(|v| v as &dyn TokenValidator)
    }
}

/// What the server sends back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerStep {
    /// A challenge: the client must answer.
    Challenge(Vec<u8>),
    /// Authenticated; these bytes (empty for PLAIN and OAUTHBEARER, the
    /// signature for SCRAM) go in the last SaslAuthenticate response.
    Done(Vec<u8>),
}

impl ServerStep {
    /// The bytes to send, whichever step this is.
    pub fn message(&self) -> &[u8] {
        match self {
            ServerStep::Challenge(bytes) | ServerStep::Done(bytes) => bytes,
        }
    }

    /// Whether the client is authenticated.
    pub fn is_done(&self) -> bool {
        matches!(self, ServerStep::Done(_))
    }
}

/// A server's side of one SASL exchange, whatever the mechanism: each client
/// message to [`step`](Self::step) until [`ServerStep::Done`]; any error ends the
/// exchange (answer it with [`SaslError::error_code`]).
///
/// OAUTHBEARER refuses a token with a [`ServerStep::Challenge`] holding RFC
/// 7628's error message; the client's `%x01` to it then fails with
/// [`SaslError::TokenRejected`], as Kafka's broker does.
///
/// See [`SaslClient`](super::SaslClient) for an exchange end to end.
#[derive(Debug)]
pub struct SaslServer {
    inner: Inner,
    principal: Option<String>,
    failed: bool,
}

#[derive(Debug)]
enum Inner {
    Plain,
    Scram(ScramServer),
    OAuthBearer(OAuthBearerServer),
}

impl SaslServer {
    /// A server for one exchange with `mechanism`.
    pub fn new(mechanism: Mechanism) -> Self {
        let inner = match mechanism {
            Mechanism::Plain => Inner::Plain,
            Mechanism::Scram(hash) => Inner::Scram(ScramServer::new(hash)),
            Mechanism::OAuthBearer => Inner::OAuthBearer(OAuthBearerServer::new()),
        };
        SaslServer {
            inner,
            principal: None,
            failed: false,
        }
    }

    /// The mechanism of this exchange.
    pub fn mechanism(&self) -> Mechanism {
        match &self.inner {
            Inner::Plain => Mechanism::Plain,
            Inner::Scram(server) => Mechanism::Scram(server.hash()),
            Inner::OAuthBearer(_) => Mechanism::OAuthBearer,
        }
    }

    /// Reads the client's next message, checking it against `credentials`.
    pub fn step(
        &mut self,
        from_client: &[u8],
        credentials: &dyn Credentials,
    ) -> Result<ServerStep, SaslError> {
        if self.failed || self.principal.is_some() {
            self.failed = true;
            return Err(SaslError::OutOfOrder {
                step: "client message",
            });
        }
        let step = self.run(from_client, credentials);
        self.failed = step.is_err();
        step
    }

    fn run(
        &mut self,
        from_client: &[u8],
        credentials: &dyn Credentials,
    ) -> Result<ServerStep, SaslError> {
        match &mut self.inner {
            Inner::Plain => {
                let given = plain::parse(from_client)?;
                if !credentials.plain(&given.username, &given.password) {
                    return Err(SaslError::AuthenticationFailed);
                }
                self.principal = Some(given.username);
                Ok(ServerStep::Done(Vec::new()))
            }
            Inner::Scram(server) => {
                if !server.has_started() {
                    let hash = server.hash();
                    let reply = server
                        .server_first(from_client, |name, _| credentials.scram(hash, name))?;
                    return Ok(ServerStep::Challenge(reply));
                }
                let outcome = server.server_final(from_client)?;
                self.principal = Some(outcome.username);
                Ok(ServerStep::Done(outcome.server_final))
            }
            Inner::OAuthBearer(server) => {
                let step = server.step(from_client, credentials.token_validator(), now_ms())?;
                if let Some(token) = server.token() {
                    self.principal = Some(token.principal.clone());
                }
                Ok(step)
            }
        }
    }

    /// OAUTHBEARER: the token accepted, once done (its expiry bounds the
    /// session).
    pub fn token(&self) -> Option<&ValidatedToken> {
        match &self.inner {
            Inner::OAuthBearer(server) => server.token(),
            _ => None,
        }
    }

    /// OAUTHBEARER: the extensions the client sent with its accepted token.
    pub fn extensions(&self) -> Option<&SaslExtensions> {
        match &self.inner {
            Inner::OAuthBearer(server) => server.extensions(),
            _ => None,
        }
    }

    /// Who authenticated, once done.
    pub fn principal(&self) -> Option<&str> {
        self.principal.as_deref()
    }
}
