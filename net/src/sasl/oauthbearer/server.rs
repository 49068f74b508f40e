//! The server side (Kafka's `OAuthBearerSaslServer`).

use super::client::AFTER_ERROR;
use super::initial_response::ClientInitialResponse;
use super::token::{SaslExtensions, TokenRejected, TokenValidator, ValidatedToken};
use crate::sasl::error::SaslError;
use crate::sasl::server::ServerStep;

/// One OAUTHBEARER exchange on the server: the client's message is judged by a
/// [`TokenValidator`]; a good token ends it with empty bytes, a bad one is
/// answered with RFC 7628's JSON error as a challenge, the client's `%x01` to
/// that with [`SaslError::TokenRejected`].
#[derive(Debug)]
pub(crate) struct OAuthBearerServer {
    state: State,
}

#[derive(Debug)]
enum State {
    Initial,
    ErrorSent(TokenRejected),
    Done {
        token: ValidatedToken,
        extensions: SaslExtensions,
    },
    Failed,
}

impl OAuthBearerServer {
    pub(crate) fn new() -> Self {
        OAuthBearerServer {
            state: State::Initial,
        }
    }

    /// Reads the client's next message; `now_ms` (since the Unix epoch) is when,
    /// to refuse a token that has expired whatever the validator thought.
    pub(crate) fn step(
        &mut self,
        from_client: &[u8],
        validator: Option<&dyn TokenValidator>,
        now_ms: i64,
    ) -> Result<ServerStep, SaslError> {
        match std::mem::replace(&mut self.state, State::Failed) {
            State::Initial => {
                let validator = validator.ok_or(SaslError::NoTokenValidator)?;
                let message = ClientInitialResponse::parse(from_client)?;
                let token = message.token();
                let validated = validator
                    .validate(token.value(), token.extensions())
                    .and_then(|validated| {
                        // A validator's slip must not let in a token that stands
                        // for nobody, or one already dead.
                        if validated.principal.is_empty() || validated.expires_at_ms <= now_ms {
                            Err(TokenRejected::invalid_token())
                        } else {
                            Ok(validated)
                        }
                    });
                let validated = match validated {
                    Ok(validated) => validated,
                    Err(refused) => {
                        let json = refused.to_json();
                        self.state = State::ErrorSent(refused);
                        return Ok(ServerStep::Challenge(json));
                    }
                };
                // Kafka's rule: one may only act as oneself.
                if message
                    .authorization_id()
                    .is_some_and(|id| id != validated.principal)
                {
                    return Err(SaslError::AuthenticationFailed);
                }
                self.state = State::Done {
                    extensions: token.extensions().clone(),
                    token: validated,
                };
                Ok(ServerStep::Done(Vec::new()))
            }
            State::ErrorSent(refused) if from_client == AFTER_ERROR => {
                Err(SaslError::TokenRejected(refused))
            }
            State::ErrorSent(_) => Err(SaslError::Malformed {
                what: "OAUTHBEARER client message",
                detail: "after the server's error, something other than %x01".into(),
            }),
            other @ (State::Done { .. } | State::Failed) => {
                self.state = other;
                Err(SaslError::OutOfOrder {
                    step: "OAUTHBEARER client message",
                })
            }
        }
    }

    /// The token, once accepted.
    pub(crate) fn token(&self) -> Option<&ValidatedToken> {
        match &self.state {
            State::Done { token, .. } => Some(token),
            _ => None,
        }
    }

    /// The client's extensions, once its token is accepted.
    pub(crate) fn extensions(&self) -> Option<&SaslExtensions> {
        match &self.state {
            State::Done { extensions, .. } => Some(extensions),
            _ => None,
        }
    }
}
