//! The server's SASL gate in Kafka's framing: which requests a connection may
//! send before it has authenticated, the SaslHandshake and SaslAuthenticate
//! answers, SaslHandshake v0's raw tokens, and re-authentication (KIP-368), with
//! sessions bounded by OAUTHBEARER tokens' lifetimes.

use std::time::{Duration, Instant};

use kwire::KafkaString;
use kwire_messages::api::{SaslAuthenticateResponse, SaslHandshakeResponse};
use kwire_messages::{ErrorCode, Request, Response};

use super::error::SaslError;
use super::mechanism::Mechanism;
use super::oauthbearer::{now_ms, TokenRejected};
use super::server::{Credentials, SaslServer, ServerStep};

/// What the connection does with a request, as the gate decides.
#[derive(Debug, Clone, PartialEq)]
pub enum Gate {
    /// Serve it as usual: ApiVersions at any time, anything once authenticated.
    Serve,
    /// Send this answer (to SaslHandshake or SaslAuthenticate).
    Answer(Response),
    /// Send this answer, then close: the exchange failed (Kafka's broker closes
    /// the connection after answering a failed SaslAuthenticate).
    AnswerAndClose(Response),
    /// Close without an answer: a request other than ApiVersions, SaslHandshake
    /// and SaslAuthenticate before authenticating, or after the session expired,
    /// as Kafka's broker does.
    Close(String),
}

/// What to do with a raw token after SaslHandshake v0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawGate {
    /// Send these bytes as a length-prefixed token.
    Send(Vec<u8>),
    /// Authentication failed: close (v0 has no way to say why).
    Close(String),
}

/// One connection's SASL state on a server, sans-IO.
///
/// Give it each decoded request before serving it ([`on_request`](Self::on_request));
/// while [`expects_raw_token`](Self::expects_raw_token) holds (after a SaslHandshake
/// v0), the next frame is a raw token, not a request: give it to
/// [`on_raw_token`](Self::on_raw_token).
///
/// Re-authentication (KIP-368) keeps what the login settled, as Kafka's broker
/// requires: the same principal, and the same mechanism (another is answered at
/// the handshake and refused at the exchange that follows, with Kafka's message).
/// It is allowed only to a session that ends (a [session
/// lifetime](Self::with_session_lifetime), or an OAUTHBEARER token's), and at most
/// once a second, as Kafka's broker allows it; otherwise the SaslHandshake is
/// answered ILLEGAL_SASL_STATE and the connection closed, so that a logged-in
/// client cannot make the server check passwords in a loop. While it runs, any
/// request but ApiVersions and the exchange's closes the connection, as Kafka's
/// broker does.
///
/// Sans-IO: the caller says what time it is (`now`), and the gate reads no clock.
///
/// ```
/// use std::time::Instant;
/// use kwire_messages::{api::SaslHandshakeRequest, Request, Response};
/// use kwire_net::sasl::{Gate, Mechanism, ServerAuthenticator, Users};
///
/// let users = Users::new().with_user("alice", "secret").unwrap();
/// let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
/// let handshake = Request::SaslHandshake(SaslHandshakeRequest::default().with_mechanism("PLAIN".into()));
/// let now = Instant::now();
/// assert!(matches!(gate.on_request(&handshake, 1, &users, now), Gate::Answer(Response::SaslHandshake(_))));
/// // Anything but the exchange before authenticating closes the connection.
/// let metadata = Request::Metadata(Default::default());
/// assert!(matches!(gate.on_request(&metadata, 12, &users, now), Gate::Close(_)));
/// ```
#[derive(Debug)]
pub struct ServerAuthenticator {
    enabled: Vec<Mechanism>,
    session_lifetime: Option<Duration>,
    state: State,
    principal: Option<String>,
    /// The mechanism the session logged in with: re-authentication must use it.
    mechanism: Option<Mechanism>,
    expires: Option<Instant>,
    /// When the last re-authentication began: at most one a second.
    reauthenticated: Option<Instant>,
}

/// The least time between the starts of two re-authentications on one
/// connection, as Kafka's broker keeps it (`KafkaChannel`'s one second; the
/// first after the login is not held to it).
const MIN_REAUTHENTICATION_INTERVAL: Duration = Duration::from_secs(1);

#[derive(Debug)]
enum State {
    /// No SaslHandshake yet (or authenticated and not re-authenticating).
    Idle,
    /// SaslHandshake v1 accepted: SaslAuthenticate requests carry the tokens.
    Authenticating(SaslServer),
    /// SaslHandshake v0 accepted: raw tokens follow.
    RawTokens(SaslServer),
    /// Re-authenticating with another mechanism than the login's: the handshake
    /// is answered, the exchange that follows refused (as Kafka's broker does).
    MechanismChanged {
        /// The refusal.
        error: SaslError,
        /// Whether the handshake was v0, so that a raw token follows.
        raw: bool,
    },
    /// Failed: nothing more is served.
    Failed,
}

impl ServerAuthenticator {
    /// A gate offering `enabled`, in that order; OAUTHBEARER only to
    /// connections whose [`Credentials`] have a token validator.
    pub fn new(enabled: Vec<Mechanism>) -> Self {
        ServerAuthenticator {
            enabled,
            session_lifetime: None,
            state: State::Idle,
            principal: None,
            mechanism: None,
            expires: None,
            reauthenticated: None,
        }
    }

    /// Sessions last `lifetime` (Kafka's `connections.max.reauth.ms`): the client
    /// is told in SaslAuthenticate v1+ and must re-authenticate before it ends;
    /// a request after the end closes the connection. An OAUTHBEARER session
    /// ends when its token expires, if sooner, with or without this.
    pub fn with_session_lifetime(mut self, lifetime: Duration) -> Self {
        self.session_lifetime = Some(lifetime);
        self
    }

    /// Who authenticated, once someone has.
    pub fn principal(&self) -> Option<&str> {
        self.principal.as_deref()
    }

    /// Whether the next frame is a raw SASL token (after SaslHandshake v0).
    pub fn expects_raw_token(&self) -> bool {
        matches!(
            self.state,
            State::RawTokens(_) | State::MechanismChanged { raw: true, .. }
        )
    }

    /// Whether a login has succeeded and no exchange is under way: the
    /// connection's requests are served.
    pub fn is_authenticated(&self) -> bool {
        self.principal.is_some() && matches!(self.state, State::Idle)
    }

    /// Decides what to do with `request`, sent at `version`, at `now`.
    pub fn on_request(
        &mut self,
        request: &Request,
        version: i16,
        credentials: &dyn Credentials,
        now: Instant,
    ) -> Gate {
        match request {
            Request::ApiVersions(_) => Gate::Serve,
            Request::SaslHandshake(handshake) => {
                self.handshake(handshake.mechanism.as_str(), version, credentials, now)
            }
            Request::SaslAuthenticate(authenticate) => {
                self.authenticate(&authenticate.auth_bytes, credentials, now)
            }
            _ => match (&self.state, &self.principal, self.expires) {
                (State::Failed, ..) => Gate::Close("authentication failed".into()),
                (_, None, _) => {
                    Gate::Close(format!("{} before authenticating", request.api().name()))
                }
                (State::Idle, Some(_), Some(expires)) if now >= expires => {
                    Gate::Close("the session expired without re-authentication".into())
                }
                (State::Idle, Some(_), _) => Gate::Serve,
                // Kafka's broker takes nothing but the exchange until it ends.
                (_, Some(_), _) => {
                    Gate::Close(format!("{} during re-authentication", request.api().name()))
                }
            },
        }
    }

    fn handshake(
        &mut self,
        mechanism: &str,
        version: i16,
        credentials: &dyn Credentials,
        now: Instant,
    ) -> Gate {
        // OAUTHBEARER without a validator could only fail: not offered at all.
        let can_serve =
            |m: &Mechanism| *m != Mechanism::OAuthBearer || credentials.token_validator().is_some();
        let offered: Vec<Mechanism> = self.enabled.iter().copied().filter(can_serve).collect();
        let enabled: Vec<KafkaString> = offered
            .iter()
            .map(|m| KafkaString::from_static(m.name()))
            .collect();
        let answer = |error: ErrorCode| {
            Response::SaslHandshake(
                SaslHandshakeResponse::default()
                    .with_error_code(error.code())
                    .with_mechanisms(enabled.clone()),
            )
        };
        if !matches!(self.state, State::Idle) {
            self.state = State::Failed;
            return Gate::AnswerAndClose(answer(ErrorCode::IllegalSaslState));
        }
        if self.principal.is_some() {
            // Re-authentication: for a session that ends (else there is nothing
            // to renew, and a loop of logins is only a cost), at most once a second.
            let too_soon = self.reauthenticated.is_some_and(|began| {
                now.saturating_duration_since(began) < MIN_REAUTHENTICATION_INTERVAL
            });
            if self.expires.is_none() || too_soon {
                self.state = State::Failed;
                return Gate::AnswerAndClose(answer(ErrorCode::IllegalSaslState));
            }
            self.reauthenticated = Some(now);
        }
        let Some(chosen) = Mechanism::from_name(mechanism).filter(|m| offered.contains(m)) else {
            return Gate::AnswerAndClose(answer(ErrorCode::UnsupportedSaslMechanism));
        };
        if let Some(previous) = self.mechanism.filter(|previous| *previous != chosen) {
            self.state = State::MechanismChanged {
                error: SaslError::ReauthMechanismChanged {
                    previous: previous.name(),
                    requested: chosen.name(),
                },
                raw: version == 0,
            };
            return Gate::Answer(answer(ErrorCode::None));
        }
        let server = SaslServer::new(chosen);
        self.state = if version == 0 {
            State::RawTokens(server)
        } else {
            State::Authenticating(server)
        };
        Gate::Answer(answer(ErrorCode::None))
    }

    fn authenticate(&mut self, token: &[u8], credentials: &dyn Credentials, now: Instant) -> Gate {
        if let State::MechanismChanged { error, .. } = &self.state {
            let answer = failure(error);
            self.state = State::Failed;
            return Gate::AnswerAndClose(answer);
        }
        if !matches!(self.state, State::Authenticating(_)) {
            self.state = State::Failed;
            return Gate::AnswerAndClose(failure(&SaslError::OutOfOrder {
                step: "SaslAuthenticate before SaslHandshake",
            }));
        }
        match self.step(token, credentials, now) {
            Ok((bytes, lifetime_ms)) => Gate::Answer(success(bytes, lifetime_ms)),
            Err(error) => Gate::AnswerAndClose(failure(&error)),
        }
    }

    /// Reads a raw token (after SaslHandshake v0), at `now`.
    pub fn on_raw_token(
        &mut self,
        token: &[u8],
        credentials: &dyn Credentials,
        now: Instant,
    ) -> RawGate {
        if let State::MechanismChanged { error, .. } = &self.state {
            let reason = error.to_string();
            self.state = State::Failed;
            return RawGate::Close(reason);
        }
        if !matches!(self.state, State::RawTokens(_)) {
            self.state = State::Failed;
            return RawGate::Close("a raw SASL token outside a SaslHandshake v0 exchange".into());
        }
        match self.step(token, credentials, now) {
            Ok((bytes, _)) => RawGate::Send(bytes),
            Err(error) => RawGate::Close(error.to_string()),
        }
    }

    /// One step of the exchange in progress, whichever its framing: the bytes to
    /// send, and the session lifetime in ms once authenticated (0 before, or
    /// without one). Any error ends the exchange.
    fn step(
        &mut self,
        token: &[u8],
        credentials: &dyn Credentials,
        now: Instant,
    ) -> Result<(Vec<u8>, i64), SaslError> {
        let (State::Authenticating(server) | State::RawTokens(server)) = &mut self.state else {
            self.state = State::Failed;
            return Err(SaslError::OutOfOrder { step: "SASL token" });
        };
        match server.step(token, credentials) {
            Ok(ServerStep::Challenge(bytes)) => Ok((bytes, 0)),
            Ok(ServerStep::Done(bytes)) => {
                let principal = server.principal().unwrap_or_default().to_owned();
                let expires_at_ms = server.token().map(|token| token.expires_at_ms);
                let mechanism = server.mechanism();
                let lifetime_ms = self.finish(principal, expires_at_ms, now)?;
                self.mechanism = Some(mechanism);
                Ok((bytes, lifetime_ms))
            }
            Err(error) => {
                self.state = State::Failed;
                Err(error)
            }
        }
    }

    /// Records a completed exchange: the principal must not change on
    /// re-authentication (KIP-368). Gives the session lifetime in ms (0: none):
    /// the configured one, or what is left of the credential's if it expires
    /// sooner (an OAUTHBEARER token), as Kafka's broker computes it.
    fn finish(
        &mut self,
        principal: String,
        expires_at_ms: Option<i64>,
        now: Instant,
    ) -> Result<i64, SaslError> {
        if self.principal.as_ref().is_some_and(|p| *p != principal) {
            self.state = State::Failed;
            return Err(SaslError::AuthenticationFailed);
        }
        let credential_left = match expires_at_ms {
            None => None,
            Some(at) => match u64::try_from(at.saturating_sub(now_ms())) {
                Ok(left) if left > 0 => Some(Duration::from_millis(left)),
                // Expired between the validator and here.
                _ => {
                    self.state = State::Failed;
                    return Err(SaslError::TokenRejected(TokenRejected::invalid_token()));
                }
            },
        };
        let lifetime = match (self.session_lifetime, credential_left) {
            (Some(configured), Some(left)) => Some(configured.min(left)),
            (configured, left) => configured.or(left),
        };
        self.principal = Some(principal);
        self.state = State::Idle;
        // A lifetime past what an Instant can hold never ends.
        self.expires = lifetime.and_then(|lifetime| now.checked_add(lifetime));
        Ok(lifetime.map_or(0, |l| i64::try_from(l.as_millis()).unwrap_or(i64::MAX)))
    }
}

fn success(auth_bytes: Vec<u8>, session_lifetime_ms: i64) -> Response {
    Response::SaslAuthenticate(
        SaslAuthenticateResponse::default()
            .with_auth_bytes(auth_bytes.into())
            .with_session_lifetime_ms(session_lifetime_ms),
    )
}

/// Kafka's answer to a failed exchange. The message says what kind of failure,
/// never whether the user exists.
fn failure(error: &SaslError) -> Response {
    Response::SaslAuthenticate(
        SaslAuthenticateResponse::default()
            .with_error_code(error.error_code().code())
            .with_error_message(Some(KafkaString::from(error.to_string()))),
    )
}

#[cfg(test)]
mod tests {
    use kwire_messages::api::{SaslAuthenticateRequest, SaslHandshakeRequest};

    use super::*;
    use crate::sasl::{
        ClientStep, SaslClient, ScramHash, UnsecuredTokenBuilder, UnsecuredValidator, Users,
    };

    fn handshake(mechanism: &'static str) -> Request {
        Request::SaslHandshake(SaslHandshakeRequest::default().with_mechanism(mechanism.into()))
    }

    fn authenticate(token: Vec<u8>) -> Request {
        Request::SaslAuthenticate(SaslAuthenticateRequest::default().with_auth_bytes(token.into()))
    }

    fn answer_bytes(gate: Gate) -> Vec<u8> {
        match gate {
            Gate::Answer(Response::SaslAuthenticate(r)) => {
                assert_eq!(r.error_code, 0);
                r.auth_bytes.to_vec()
            }
            other => panic!("{other:?}"),
        }
    }

    /// Runs a whole v1 exchange with `client`; the last answer's session lifetime.
    fn log_in(
        gate: &mut ServerAuthenticator,
        users: &Users,
        mut client: SaslClient,
        now: Instant,
    ) -> Gate {
        let name = client.mechanism().name();
        assert!(matches!(
            gate.on_request(&handshake(name), 1, users, now),
            Gate::Answer(_)
        ));
        let mut token = client.start().unwrap();
        loop {
            let gate = gate.on_request(&authenticate(token), 2, users, now);
            let Gate::Answer(Response::SaslAuthenticate(ref r)) = gate else {
                return gate;
            };
            match client.step(&r.auth_bytes).unwrap() {
                ClientStep::Send(next) => token = next,
                ClientStep::Done => return gate,
            }
        }
    }

    fn users() -> Users {
        Users::new().with_user("alice", "secret").unwrap()
    }

    #[test]
    fn every_mechanism_logs_in_and_then_requests_are_served() {
        let now = Instant::now();
        let users = users().with_token_validator(UnsecuredValidator::new());
        for mechanism in Mechanism::ALL {
            let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
            let client = match mechanism {
                Mechanism::Plain => SaslClient::plain("alice", "secret").unwrap(),
                Mechanism::Scram(hash) => SaslClient::scram(hash, "alice", "secret").unwrap(),
                Mechanism::OAuthBearer => {
                    SaslClient::oauthbearer(&UnsecuredTokenBuilder::new("alice").build()).unwrap()
                }
            };
            answer_bytes(log_in(&mut gate, &users, client, now));
            assert_eq!(gate.principal(), Some("alice"));
            let metadata = Request::Metadata(Default::default());
            assert_eq!(gate.on_request(&metadata, 12, &users, now), Gate::Serve);
        }
    }

    #[test]
    fn a_wrong_password_is_answered_then_closed_without_saying_why() {
        let now = Instant::now();
        let users = users();
        for client in [
            SaslClient::plain("alice", "guess").unwrap(),
            SaslClient::plain("nobody", "secret").unwrap(),
            SaslClient::scram(ScramHash::Sha512, "alice", "guess").unwrap(),
            SaslClient::scram(ScramHash::Sha512, "nobody", "secret").unwrap(),
        ] {
            let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
            let Gate::AnswerAndClose(Response::SaslAuthenticate(r)) =
                log_in(&mut gate, &users, client, now)
            else {
                panic!("not refused");
            };
            assert_eq!(r.error_code, ErrorCode::SaslAuthenticationFailed.code());
            let message = r.error_message.unwrap();
            assert!(!message.as_str().contains("nobody") && !message.as_str().contains("exist"));
            let metadata = Request::Metadata(Default::default());
            assert!(matches!(
                gate.on_request(&metadata, 12, &users, now),
                Gate::Close(_)
            ));
        }
    }

    #[test]
    fn oauthbearer_is_offered_only_with_a_validator() {
        let now = Instant::now();
        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
        let Gate::AnswerAndClose(Response::SaslHandshake(r)) =
            gate.on_request(&handshake("OAUTHBEARER"), 1, &users(), now)
        else {
            panic!("offered without a validator");
        };
        assert_eq!(r.error_code, ErrorCode::UnsupportedSaslMechanism.code());
        assert_eq!(r.mechanisms.len(), 3);
        assert!(!r.mechanisms.iter().any(|m| m.as_str() == "OAUTHBEARER"));

        let users = users().with_token_validator(UnsecuredValidator::new());
        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
        let Gate::Answer(Response::SaslHandshake(r)) =
            gate.on_request(&handshake("OAUTHBEARER"), 1, &users, now)
        else {
            panic!("not offered with a validator");
        };
        assert_eq!(r.mechanisms.len(), 4);
    }

    #[test]
    fn unsupported_mechanisms_list_the_enabled_ones() {
        let now = Instant::now();
        let mut gate = ServerAuthenticator::new(vec![Mechanism::Scram(ScramHash::Sha512)]);
        let Gate::AnswerAndClose(Response::SaslHandshake(r)) =
            gate.on_request(&handshake("PLAIN"), 1, &users(), now)
        else {
            panic!("not refused");
        };
        assert_eq!(r.error_code, ErrorCode::UnsupportedSaslMechanism.code());
        assert_eq!(r.mechanisms, [KafkaString::from_static("SCRAM-SHA-512")]);
    }

    #[test]
    fn out_of_order_requests_are_illegal_state_or_closed() {
        let now = Instant::now();
        let users = users();
        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
        assert_eq!(
            gate.on_request(&Request::ApiVersions(Default::default()), 3, &users, now),
            Gate::Serve
        );
        let Gate::AnswerAndClose(Response::SaslAuthenticate(r)) =
            gate.on_request(&authenticate(b"x".to_vec()), 2, &users, now)
        else {
            panic!("not refused");
        };
        assert_eq!(r.error_code, ErrorCode::IllegalSaslState.code());

        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
        gate.on_request(&handshake("PLAIN"), 1, &users, now);
        let Gate::AnswerAndClose(Response::SaslHandshake(r)) =
            gate.on_request(&handshake("PLAIN"), 1, &users, now)
        else {
            panic!("a second handshake mid-exchange is not refused");
        };
        assert_eq!(r.error_code, ErrorCode::IllegalSaslState.code());
    }

    #[test]
    fn v0_handshake_takes_raw_tokens() {
        let now = Instant::now();
        let users = users();
        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
        let mut client = SaslClient::scram(ScramHash::Sha256, "alice", "secret").unwrap();
        assert!(matches!(
            gate.on_request(&handshake("SCRAM-SHA-256"), 0, &users, now),
            Gate::Answer(_)
        ));
        assert!(gate.expects_raw_token());
        let RawGate::Send(challenge) = gate.on_raw_token(&client.start().unwrap(), &users, now)
        else {
            panic!("no challenge");
        };
        let ClientStep::Send(proof) = client.step(&challenge).unwrap() else {
            panic!()
        };
        let RawGate::Send(signed) = gate.on_raw_token(&proof, &users, now) else {
            panic!()
        };
        assert_eq!(client.step(&signed).unwrap(), ClientStep::Done);
        assert!(!gate.expects_raw_token());
        assert_eq!(gate.principal(), Some("alice"));

        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
        gate.on_request(&handshake("PLAIN"), 0, &users, now);
        assert!(matches!(
            gate.on_raw_token(b"\0alice\0guess", &users, now),
            RawGate::Close(_)
        ));
    }

    #[test]
    fn sessions_expire_and_re_authentication_keeps_the_principal() {
        let users = Users::new()
            .with_user("alice", "secret")
            .unwrap()
            .with_user("bob", "hunter2")
            .unwrap();
        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec())
            .with_session_lifetime(Duration::from_millis(3000));
        let start = Instant::now();
        let alice = || SaslClient::plain("alice", "secret").unwrap();
        let Gate::Answer(Response::SaslAuthenticate(r)) = log_in(&mut gate, &users, alice(), start)
        else {
            panic!("not logged in");
        };
        assert_eq!(r.session_lifetime_ms, 3000);
        assert!(gate.is_authenticated());
        let metadata = Request::Metadata(Default::default());
        assert_eq!(gate.on_request(&metadata, 12, &users, start), Gate::Serve);
        let late = start + Duration::from_millis(3500);
        assert!(matches!(
            gate.on_request(&metadata, 12, &users, late),
            Gate::Close(_)
        ));
        // Re-authenticating renews the session...
        answer_bytes(log_in(&mut gate, &users, alice(), late));
        assert_eq!(gate.on_request(&metadata, 12, &users, late), Gate::Serve);
        // ...but not as someone else.
        let later = late + Duration::from_secs(2);
        let bob = SaslClient::plain("bob", "hunter2").unwrap();
        let other = log_in(&mut gate, &users, bob, later);
        assert!(matches!(other, Gate::AnswerAndClose(_)));
    }

    #[test]
    fn re_authentication_keeps_the_mechanism() {
        let users = Users::new().with_user("alice", "secret").unwrap();
        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec())
            .with_session_lifetime(Duration::from_secs(60));
        let now = Instant::now();
        let plain = SaslClient::plain("alice", "secret").unwrap();
        answer_bytes(log_in(&mut gate, &users, plain, now));
        // The same user, the right password, another mechanism: the handshake is
        // answered and the exchange refused, with Kafka's message.
        let scram = SaslClient::scram(ScramHash::Sha256, "alice", "secret").unwrap();
        let again = log_in(&mut gate, &users, scram, now + Duration::from_secs(2));
        let Gate::AnswerAndClose(Response::SaslAuthenticate(refused)) = again else {
            panic!("{again:?}")
        };
        assert_eq!(
            refused.error_code,
            ErrorCode::SaslAuthenticationFailed.code()
        );
        assert_eq!(
            refused.error_message.as_deref(),
            Some(
                "SASL mechanism 'SCRAM-SHA-256' requested by client is not supported for \
                 re-authentication of mechanism 'PLAIN'"
            )
        );
        let metadata = Request::Metadata(Default::default());
        assert!(matches!(
            gate.on_request(&metadata, 12, &users, now),
            Gate::Close(_)
        ));
    }

    /// The SaslHandshake answer's error code, if the gate answered one and closed.
    fn refused_handshake(gate: Gate) -> Option<i16> {
        match gate {
            Gate::AnswerAndClose(Response::SaslHandshake(r)) => Some(r.error_code),
            _ => None,
        }
    }

    /// Issue 29: on one logged-in connection PLAIN re-authentication ran
    /// 359-400 times a second, each a key derivation. Re-authentication is for
    /// sessions that end, and at most once a second.
    #[test]
    fn re_authentication_needs_a_session_lifetime_and_a_second() {
        let users = users();
        let plain = || SaslClient::plain("alice", "secret").unwrap();
        let now = Instant::now();
        // No session lifetime: nothing to renew.
        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
        answer_bytes(log_in(&mut gate, &users, plain(), now));
        let later = now + Duration::from_secs(10);
        let again = gate.on_request(&handshake("PLAIN"), 1, &users, later);
        assert_eq!(
            refused_handshake(again),
            Some(ErrorCode::IllegalSaslState.code())
        );
        let metadata = Request::Metadata(Default::default());
        assert!(matches!(
            gate.on_request(&metadata, 12, &users, later),
            Gate::Close(_)
        ));

        // With one: the first at any time, then once a second at most, counted
        // from the last re-authentication's start (Kafka's rule).
        let at = |ms| now + Duration::from_millis(ms);
        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec())
            .with_session_lifetime(Duration::from_secs(60));
        answer_bytes(log_in(&mut gate, &users, plain(), now));
        answer_bytes(log_in(&mut gate, &users, plain(), at(100)));
        answer_bytes(log_in(&mut gate, &users, plain(), at(1100)));
        assert!(gate.is_authenticated());
        let again = gate.on_request(&handshake("PLAIN"), 1, &users, at(2000));
        assert_eq!(
            refused_handshake(again),
            Some(ErrorCode::IllegalSaslState.code())
        );
    }

    /// Issue 29, point 7: after a re-authentication's SaslHandshake, other
    /// requests were served until the old session expired. Kafka's broker takes
    /// nothing but the exchange until it ends.
    #[test]
    fn requests_during_re_authentication_close_the_connection() {
        let users = users();
        let now = Instant::now();
        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec())
            .with_session_lifetime(Duration::from_secs(60));
        answer_bytes(log_in(
            &mut gate,
            &users,
            SaslClient::plain("alice", "secret").unwrap(),
            now,
        ));
        let later = now + Duration::from_secs(2);
        assert!(matches!(
            gate.on_request(&handshake("PLAIN"), 1, &users, later),
            Gate::Answer(_)
        ));
        assert!(!gate.is_authenticated());
        let api_versions = Request::ApiVersions(Default::default());
        assert_eq!(
            gate.on_request(&api_versions, 3, &users, later),
            Gate::Serve
        );
        let metadata = Request::Metadata(Default::default());
        let Gate::Close(why) = gate.on_request(&metadata, 12, &users, later) else {
            panic!("served during re-authentication");
        };
        assert_eq!(why, "Metadata during re-authentication");
    }
}
