//! The server side of SASL, Kafka's gate (`ServerAuthenticator`) with every
//! mechanism, fed a connection's worth of input: SaslHandshake (v0 or v1) and
//! SaslAuthenticate requests built from the input or decoded from request
//! frames in it, raw tokens, other requests, and the messages of real clients
//! (PLAIN, SCRAM, OAUTHBEARER with unsecured tokens) that the input may pass on
//! as they are or corrupted. It must not panic, and:
//!
//! - a connection authenticates only with a proof that holds: PLAIN's password,
//!   a SCRAM exchange for the one user, an unsecured token that the validator
//!   accepts on its own, for the principal the proof names;
//! - once authenticated, the principal never changes (re-authentication keeps
//!   it) and is never lost;
//! - nothing but ApiVersions is served before authenticating;
//! - every answer has the type of its request, no error code when the
//!   connection stays open and one when it closes; a session is never longer
//!   than the configured lifetime; no error message repeats a real token.
//!
//! The first byte configures the server (mechanisms enabled, a token validator
//! or not, requiring a scope or not, a session lifetime); then each operation is
//! a byte, most followed by a length byte and that many bytes. A closed
//! connection ends the input.
#![no_main]

mod common;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use kwire_messages::api::{SaslAuthenticateRequest, SaslHandshakeRequest};
use kwire_messages::frame::{RequestFrame, TrailingBytes};
use kwire_messages::{Request, Response};
use kwire_net::sasl::oauthbearer::ClientInitialResponse;
use kwire_net::sasl::{
    plain, ClientStep, Credentials, Gate, Mechanism, OAuthBearerToken, RawGate, SaslClient,
    ScramHash, ServerAuthenticator, UnsecuredTokenBuilder, UnsecuredValidator,
};
use libfuzzer_sys::fuzz_target;

use common::{Accounts, Input, PASSWORD, USER};

const SCOPE: &str = "kafka";
const NAMES: [&str; 6] = [
    "PLAIN",
    "SCRAM-SHA-256",
    "SCRAM-SHA-512",
    "OAUTHBEARER",
    "GSSAPI",
    "",
];

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

struct Connection {
    gate: ServerAuthenticator,
    accounts: Accounts,
    lifetime: Option<Duration>,
    /// The mechanism of the last handshake the gate accepted.
    mechanism: Option<Mechanism>,
    client: Option<SaslClient>,
    /// The server's last bytes, for the real client's next step.
    reply: Vec<u8>,
    /// Real tokens made for this run: never to be seen in an error message.
    tokens: Vec<String>,
}

impl Connection {
    fn new(config: u8) -> Self {
        let enabled = common::enabled(config);
        let validator = (config & 0x10 != 0).then(|| {
            let validator = UnsecuredValidator::new();
            if config & 0x80 != 0 {
                validator.with_required_scopes([SCOPE])
            } else {
                validator
            }
        });
        let lifetime = match (config >> 5) & 3 {
            0 => None,
            1 => Some(Duration::from_millis(1)),
            2 => Some(Duration::from_secs(1)),
            _ => Some(Duration::from_secs(3600)),
        };
        let gate = ServerAuthenticator::new(enabled);
        let gate = match lifetime {
            Some(lifetime) => gate.with_session_lifetime(lifetime),
            None => gate,
        };
        Connection {
            gate,
            accounts: Accounts { validator },
            lifetime,
            mechanism: None,
            client: None,
            reply: Vec::new(),
            tokens: Vec::new(),
        }
    }

    /// A real client of some kind, and its first message.
    fn new_client(&mut self, kind: u8) -> Option<Vec<u8>> {
        let token = |builder: UnsecuredTokenBuilder| -> OAuthBearerToken { builder.build() };
        let oauth = |this: &mut Connection, token: OAuthBearerToken| {
            this.tokens.push(token.value().to_owned());
            SaslClient::oauthbearer(&token).ok()
        };
        let client = match kind % 10 {
            0 => SaslClient::plain(USER, PASSWORD).ok(),
            1 => SaslClient::plain(USER, "wrong").ok(),
            2 => SaslClient::scram(ScramHash::Sha256, USER, PASSWORD).ok(),
            3 => SaslClient::scram(ScramHash::Sha512, USER, PASSWORD).ok(),
            4 => SaslClient::scram(ScramHash::Sha512, "bob", PASSWORD).ok(),
            5 => oauth(
                self,
                token(UnsecuredTokenBuilder::new(USER).scopes([SCOPE])),
            ),
            6 => oauth(
                self,
                token(UnsecuredTokenBuilder::new("bob").scopes([SCOPE])),
            ),
            7 => oauth(self, token(UnsecuredTokenBuilder::new(USER))),
            8 => oauth(
                self,
                token(
                    UnsecuredTokenBuilder::new(USER)
                        .issued_at_ms(now_ms() - 7_200_000)
                        .scopes([SCOPE]),
                ),
            ),
            _ => SaslClient::scram(ScramHash::Sha256, USER, "wrong").ok(),
        };
        self.client = client;
        self.client.as_mut()?.start().ok()
    }

    /// The real client's answer to the server's last bytes.
    fn client_step(&mut self) -> Option<Vec<u8>> {
        match self.client.as_mut()?.step(&self.reply) {
            Ok(ClientStep::Send(next)) => Some(next),
            _ => None,
        }
    }

    /// Runs one request through the gate and checks the answer; `false` once
    /// the connection is closed.
    fn request(&mut self, request: &Request, version: i16, message: &[u8]) -> bool {
        let before = self.gate.principal().map(str::to_owned);
        let started = now_ms();
        let gate = self
            .gate
            .on_request(request, version, &self.accounts, Instant::now());
        let open = match &gate {
            Gate::Serve => {
                assert!(
                    matches!(request, Request::ApiVersions(_)) || before.is_some(),
                    "{} served before authenticating",
                    request.api().name()
                );
                true
            }
            Gate::Answer(answer) | Gate::AnswerAndClose(answer) => {
                let open = matches!(gate, Gate::Answer(_));
                match (request, answer) {
                    (Request::SaslHandshake(handshake), Response::SaslHandshake(r)) => {
                        assert_eq!(open, r.error_code == 0, "{r:?}");
                        if open {
                            self.mechanism = Mechanism::from_name(handshake.mechanism.as_str());
                            assert!(self.mechanism.is_some());
                        }
                        let oauth = r.mechanisms.iter().any(|m| m.as_str() == "OAUTHBEARER");
                        assert!(
                            !oauth || self.accounts.validator.is_some(),
                            "OAUTHBEARER offered"
                        );
                    }
                    (Request::SaslAuthenticate(_), Response::SaslAuthenticate(r)) => {
                        assert_eq!(open, r.error_code == 0, "{r:?}");
                        assert!(r.session_lifetime_ms >= 0);
                        if let Some(lifetime) = self.lifetime {
                            assert!(r.session_lifetime_ms as u128 <= lifetime.as_millis());
                        }
                        if let Some(error) = &r.error_message {
                            self.check_no_token(error.as_str());
                        }
                        self.reply = r.auth_bytes.to_vec();
                    }
                    _ => panic!("{request:?} answered with {answer:?}"),
                }
                open
            }
            Gate::Close(why) => {
                self.check_no_token(why);
                false
            }
        };
        self.check_principal(before, message, started);
        open
    }

    fn raw_token(&mut self, token: &[u8]) -> bool {
        let before = self.gate.principal().map(str::to_owned);
        let started = now_ms();
        let open = match self
            .gate
            .on_raw_token(token, &self.accounts, Instant::now())
        {
            RawGate::Send(reply) => {
                self.reply = reply;
                true
            }
            RawGate::Close(why) => {
                self.check_no_token(&why);
                false
            }
        };
        self.check_principal(before, token, started);
        open
    }

    fn check_no_token(&self, text: &str) {
        for token in &self.tokens {
            assert!(!text.contains(token.as_str()), "a token in {text:?}");
        }
    }

    /// The principal never changes once set, and is set only by a message that
    /// proves it (checked here without the gate), sent at `started`.
    fn check_principal(&self, before: Option<String>, message: &[u8], started: i64) {
        let after = self.gate.principal();
        match (before.as_deref(), after) {
            (Some(before), after) => assert_eq!(Some(before), after, "the principal changed"),
            (None, None) => {}
            (None, Some(principal)) => match self.mechanism {
                Some(Mechanism::Plain) => {
                    let given = plain::parse(message).expect("PLAIN accepted a bad message");
                    assert_eq!(given.username, principal);
                    assert!(self.accounts.plain(&given.username, &given.password));
                }
                Some(Mechanism::Scram(_)) => assert_eq!(principal, USER),
                Some(Mechanism::OAuthBearer) => {
                    let validator = self
                        .accounts
                        .validator
                        .as_ref()
                        .expect("OAUTHBEARER without validator");
                    let read = ClientInitialResponse::parse(message).expect("a bad message");
                    let token = validator
                        .validate_at(read.token().value(), started)
                        .expect("a bad token accepted");
                    assert_eq!(token.principal, principal);
                    assert!(read.authorization_id().is_none_or(|id| id == principal));
                }
                None => panic!("authenticated without a handshake"),
            },
        }
    }
}

fn handshake(mechanism: &str) -> Request {
    Request::SaslHandshake(SaslHandshakeRequest::default().with_mechanism(mechanism.into()))
}

fn authenticate(token: &[u8]) -> Request {
    Request::SaslAuthenticate(
        SaslAuthenticateRequest::default().with_auth_bytes(Bytes::copy_from_slice(token)),
    )
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let Some(config) = input.byte() else {
        return;
    };
    let mut connection = Connection::new(config);
    while let Some(op) = input.byte() {
        let open = match op % 8 {
            0 => {
                let version = i16::from((op >> 3) & 1);
                let chosen = input.byte().unwrap_or(0);
                let name = if chosen < 240 {
                    NAMES[usize::from(chosen) % NAMES.len()].to_owned()
                } else {
                    String::from_utf8_lossy(input.bytes()).into_owned()
                };
                connection.request(&handshake(&name), version, &[])
            }
            1 => {
                let token = input.bytes();
                connection.request(&authenticate(token), i16::from((op >> 3) % 3), token)
            }
            2 => connection.raw_token(input.bytes()),
            3 => {
                let frame = Bytes::copy_from_slice(input.bytes());
                let Ok(frame) = RequestFrame::parse_contents(&frame) else {
                    continue;
                };
                let version = frame.api_version();
                let Ok(decoded) = frame.decode::<Request>(TrailingBytes::Ignore) else {
                    continue;
                };
                let message = match &decoded.body {
                    Request::SaslAuthenticate(r) => r.auth_bytes.to_vec(),
                    _ => Vec::new(),
                };
                connection.request(&decoded.body, version, &message)
            }
            4 => {
                let authenticated = connection.gate.principal().is_some();
                let open = connection.request(&Request::Metadata(Default::default()), 12, &[]);
                assert!(
                    authenticated || !open,
                    "Metadata served before authenticating"
                );
                open
            }
            5 => connection.request(&Request::ApiVersions(Default::default()), 3, &[]),
            op => {
                let next = if op == 6 {
                    let kind = input.byte().unwrap_or(0);
                    connection.new_client(kind)
                } else {
                    connection.client_step()
                };
                let Some(mut message) = next else {
                    continue;
                };
                // Sometimes one byte altered: a proof or token nearly right.
                let corrupt = input.byte().unwrap_or(0);
                if corrupt & 0x80 != 0 && !message.is_empty() {
                    let at = usize::from(corrupt & 0x3f) % message.len();
                    message[at] ^= 1 << (corrupt % 8);
                }
                if corrupt & 0x40 != 0 {
                    connection.raw_token(&message)
                } else {
                    connection.request(&authenticate(&message), 2, &message)
                }
            }
        };
        if !open {
            break;
        }
    }
});
