//! The client side (Kafka's `OAuthBearerSaslClient`).

use super::initial_response::ClientInitialResponse;
use super::token::{OAuthBearerToken, TokenRejected};
use crate::sasl::error::SaslError;

/// What the client sends after the server's error message: a lone kvsep
/// (RFC 7628 section 3.2.3), so the server can end the exchange.
pub(crate) const AFTER_ERROR: &[u8] = b"\x01";

/// One OAUTHBEARER exchange on the client: the initial response, then either
/// an empty answer (accepted) or the server's error, answered by `%x01`.
#[derive(Debug)]
pub(crate) struct OAuthBearerClient {
    state: State,
}

#[derive(Debug)]
enum State {
    Initial(ClientInitialResponse),
    Sent,
    Done,
    /// The server refused the token; what its error said (or why it could not
    /// be read).
    Refused(SaslError),
    Failed,
}

impl OAuthBearerClient {
    pub(crate) fn new(token: OAuthBearerToken) -> Self {
        OAuthBearerClient {
            state: State::Initial(ClientInitialResponse::new(token)),
        }
    }

    pub(crate) fn initial_response(&mut self) -> Result<Vec<u8>, SaslError> {
        match std::mem::replace(&mut self.state, State::Failed) {
            State::Initial(message) => {
                self.state = State::Sent;
                Ok(message.to_bytes())
            }
            other => {
                self.state = other;
                Err(SaslError::OutOfOrder {
                    step: "OAUTHBEARER initial response",
                })
            }
        }
    }

    /// The server's answer: `Ok(None)` when accepted, `Ok(Some(%x01))` to send
    /// after its error; after that, the error.
    pub(crate) fn step(&mut self, from_server: &[u8]) -> Result<Option<Vec<u8>>, SaslError> {
        match std::mem::replace(&mut self.state, State::Failed) {
            State::Sent if from_server.is_empty() => {
                self.state = State::Done;
                Ok(None)
            }
            // Whatever the server says, it is not an acceptance, and RFC 7628
            // wants the %x01 either way; a message that is not its JSON is kept
            // as the reason instead of the status.
            State::Sent => {
                let refusal = match TokenRejected::from_json(from_server) {
                    Ok(refused) => SaslError::TokenRejected(refused),
                    Err(unreadable) => unreadable,
                };
                self.state = State::Refused(refusal);
                Ok(Some(AFTER_ERROR.to_vec()))
            }
            State::Refused(refusal) => {
                self.state = State::Refused(refusal.clone());
                Err(refusal)
            }
            other => {
                self.state = other;
                Err(SaslError::OutOfOrder {
                    step: "OAUTHBEARER server message",
                })
            }
        }
    }

    pub(crate) fn refusal(&self) -> Option<&SaslError> {
        match &self.state {
            State::Refused(refusal) => Some(refusal),
            _ => None,
        }
    }

    pub(crate) fn is_done(&self) -> bool {
        matches!(self.state, State::Done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_answered_by_a_kvsep_then_reported() {
        let mut client = OAuthBearerClient::new(OAuthBearerToken::new("t").unwrap());
        assert_eq!(
            client.step(b""),
            Err(SaslError::OutOfOrder {
                step: "OAUTHBEARER server message"
            })
        );

        let mut client = OAuthBearerClient::new(OAuthBearerToken::new("t").unwrap());
        client.initial_response().unwrap();
        // RFC 7628 section 4.3's error.
        let error = br#"{"status":"invalid_token","scope":"example_scope","openid-configuration":"https://example.com/.well-known/openid-configuration"}"#;
        assert_eq!(client.step(error).unwrap(), Some(b"\x01".to_vec()));
        let Some(SaslError::TokenRejected(refused)) = client.refusal() else {
            panic!("{:?}", client.refusal());
        };
        assert_eq!(refused.status, "invalid_token");
        assert_eq!(refused.scope.as_deref(), Some("example_scope"));
        assert!(matches!(client.step(b""), Err(SaslError::TokenRejected(_))));
        assert!(!client.is_done());

        let mut client = OAuthBearerClient::new(OAuthBearerToken::new("t").unwrap());
        client.initial_response().unwrap();
        assert_eq!(client.step(b"not json").unwrap(), Some(b"\x01".to_vec()));
        assert!(matches!(
            client.refusal(),
            Some(SaslError::Malformed { .. })
        ));

        let mut client = OAuthBearerClient::new(OAuthBearerToken::new("t").unwrap());
        client.initial_response().unwrap();
        assert_eq!(client.step(b"").unwrap(), None);
        assert!(client.is_done());
        assert!(client.initial_response().is_err());
    }
}
