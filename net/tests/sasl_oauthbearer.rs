//! OAUTHBEARER end to end through the public API: RFC 7628's examples, Kafka's
//! client message with extensions, the gate in both framings (SaslHandshake v1
//! with SaslAuthenticate, and v0's raw tokens), refusals with RFC 7628's error
//! message and `%x01`, expiry, scopes, sessions bounded by the token, and
//! re-authentication.
#![cfg(feature = "sasl")]

use std::time::{Duration, Instant};

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use kwire_messages::api::{SaslAuthenticateRequest, SaslHandshakeRequest};
use kwire_messages::{ErrorCode, Request, Response};
use kwire_net::sasl::oauthbearer::ClientInitialResponse;
use kwire_net::sasl::{
    ClientStep, Gate, Mechanism, OAuthBearerToken, RawGate, SaslClient, SaslError, SaslExtensions,
    SaslServer, ServerAuthenticator, ServerStep, TokenRejected, UnsecuredTokenBuilder,
    UnsecuredValidator, Users, ValidatedToken,
};

/// RFC 7628 section 4.1's client message, as the RFC gives it (base64).
const RFC_CLIENT: &str = "bixhPXVzZXJAZXhhbXBsZS5jb20sAWhvc3Q9c2VydmVyLmV4YW1wbGUuY29tAXBvcnQ9MTQzAWF1dGg9QmVhcmVyIHZGOWRmdDRxbVRjMk52YjNSbGNrQmhiSFJoZG1semRHRXVZMjl0Q2c9PQEB";
/// RFC 7628 section 4.3's error message (base64).
const RFC_ERROR: &str = "eyJzdGF0dXMiOiJpbnZhbGlkX3Rva2VuIiwic2NvcGUiOiJleGFtcGxlX3Njb3BlIiwib3BlbmlkLWNvbmZpZ3VyYXRpb24iOiJodHRwczovL2V4YW1wbGUuY29tLy53ZWxsLWtub3duL29wZW5pZC1jb25maWd1cmF0aW9uIn0=";
const RFC_TOKEN: &str = "vF9dft4qmTc2Nvb3RlckBhbHRhdmlzdGEuY29tCg==";

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// Accepts RFC 7628's token for user@example.com, refuses any other with the
/// RFC's error.
fn rfc_users() -> Users {
    Users::new().with_token_validator(|token: &str, _: &SaslExtensions| {
        if token == RFC_TOKEN {
            Ok(ValidatedToken::new("user@example.com", now_ms() + 60_000))
        } else {
            Err(TokenRejected {
                status: "invalid_token".into(),
                scope: Some("example_scope".into()),
                openid_configuration: Some(
                    "https://example.com/.well-known/openid-configuration".into(),
                ),
            })
        }
    })
}

fn oauth_users() -> Users {
    Users::new()
        .with_user("alice", "secret")
        .unwrap()
        .with_token_validator(UnsecuredValidator::new().with_required_scopes(["kafka"]))
}

fn token(principal: &str, lifetime: Duration) -> OAuthBearerToken {
    UnsecuredTokenBuilder::new(principal)
        .lifetime(lifetime)
        .scopes(["kafka"])
        .build()
}

fn handshake() -> Request {
    Request::SaslHandshake(SaslHandshakeRequest::default().with_mechanism("OAUTHBEARER".into()))
}

fn authenticate(token: Vec<u8>) -> Request {
    Request::SaslAuthenticate(SaslAuthenticateRequest::default().with_auth_bytes(token.into()))
}

fn metadata() -> Request {
    Request::Metadata(Default::default())
}

/// A v1 exchange: the last gate answer, and the client.
fn log_in(
    gate: &mut ServerAuthenticator,
    users: &Users,
    token: &OAuthBearerToken,
) -> (Gate, SaslClient) {
    assert!(matches!(
        gate.on_request(&handshake(), 1, users, Instant::now()),
        Gate::Answer(_)
    ));
    let mut client = SaslClient::oauthbearer(token).unwrap();
    let mut to_server = client.start().unwrap();
    loop {
        let answer = gate.on_request(&authenticate(to_server), 2, users, Instant::now());
        let Gate::Answer(Response::SaslAuthenticate(ref r)) = answer else {
            return (answer, client);
        };
        assert_eq!(r.error_code, 0);
        match client.step(&r.auth_bytes).unwrap() {
            ClientStep::Send(next) => to_server = next,
            ClientStep::Done => return (answer, client),
        }
    }
}

fn session_lifetime_ms(answer: &Gate) -> i64 {
    match answer {
        Gate::Answer(Response::SaslAuthenticate(r)) => {
            assert_eq!(r.error_code, 0, "{:?}", r.error_message);
            r.session_lifetime_ms
        }
        other => panic!("not logged in: {other:?}"),
    }
}

fn refused(answer: &Gate) -> String {
    match answer {
        Gate::AnswerAndClose(Response::SaslAuthenticate(r)) => {
            assert_eq!(r.error_code, ErrorCode::SaslAuthenticationFailed.code());
            r.error_message.as_ref().unwrap().as_str().to_owned()
        }
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn rfc_7628_success_and_failure_examples() {
    let users = rfc_users();
    let message = STANDARD.decode(RFC_CLIENT).unwrap();
    let mut server = SaslServer::new(Mechanism::OAuthBearer);
    assert_eq!(
        server.step(&message, &users).unwrap(),
        ServerStep::Done(Vec::new())
    );
    assert_eq!(server.principal(), Some("user@example.com"));
    let extensions = server.extensions().unwrap();
    assert_eq!(extensions.get("host"), Some("server.example.com"));
    assert_eq!(extensions.get("port"), Some("143"));

    // Section 4.3: a bad token, the error as a challenge, %x01, the end.
    let bad = String::from_utf8(message)
        .unwrap()
        .replace(RFC_TOKEN, "bad");
    let mut server = SaslServer::new(Mechanism::OAuthBearer);
    let ServerStep::Challenge(error) = server.step(bad.as_bytes(), &users).unwrap() else {
        panic!("accepted");
    };
    assert_eq!(error, STANDARD.decode(RFC_ERROR).unwrap());
    let Err(SaslError::TokenRejected(rejected)) =
        server.step(&STANDARD.decode("AQ==").unwrap(), &users)
    else {
        panic!("the %x01 did not end it");
    };
    assert_eq!(rejected.status, "invalid_token");
    assert_eq!(server.principal(), None);
}

#[test]
fn kafka_client_message_carries_extensions_to_the_validator() {
    let extensions = SaslExtensions::new()
        .with("logicalCluster", "lkc-abc")
        .unwrap();
    let token = OAuthBearerToken::new("abc.def.")
        .unwrap()
        .with_extensions(extensions);
    let mut client = SaslClient::oauthbearer(&token).unwrap();
    let first = client.start().unwrap();
    assert_eq!(
        first,
        b"n,,\x01auth=Bearer abc.def.\x01logicalCluster=lkc-abc\x01\x01"
    );
    assert_eq!(
        ClientInitialResponse::parse(&first).unwrap().token(),
        &token
    );

    // The validator sees the extensions and may refuse on them.
    let users =
        Users::new().with_token_validator(|_: &str, extensions: &SaslExtensions| match extensions
            .get("logicalCluster")
        {
            Some("lkc-abc") => Ok(ValidatedToken::new("svc", now_ms() + 60_000)),
            _ => Err(TokenRejected::invalid_token()),
        });
    let mut server = SaslServer::new(Mechanism::OAuthBearer);
    assert!(server.step(&first, &users).unwrap().is_done());
    let mut server = SaslServer::new(Mechanism::OAuthBearer);
    let other = OAuthBearerToken::new("abc.def.").unwrap();
    let first = SaslClient::oauthbearer(&other).unwrap().start().unwrap();
    assert!(!server.step(&first, &users).unwrap().is_done());

    // Nothing prints the token.
    assert!(!format!("{client:?}{token:?}").contains("abc.def"));
}

#[test]
fn v1_framing_logs_in_with_the_token_subject() {
    let users = oauth_users();
    let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
    let (answer, client) = log_in(
        &mut gate,
        &users,
        &token("alice", Duration::from_secs(3600)),
    );
    assert!(client.is_done());
    // No configured lifetime: the token's is the session's.
    let lifetime = session_lifetime_ms(&answer);
    assert!((3_590_000..=3_600_000).contains(&lifetime), "{lifetime}");
    assert_eq!(gate.principal(), Some("alice"));
    assert_eq!(
        gate.on_request(&metadata(), 12, &users, Instant::now()),
        Gate::Serve
    );
}

#[test]
fn v0_framing_logs_in_and_refuses_with_raw_tokens() {
    let users = oauth_users();
    let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
    assert!(matches!(
        gate.on_request(&handshake(), 0, &users, Instant::now()),
        Gate::Answer(_)
    ));
    assert!(gate.expects_raw_token());
    let mut client = SaslClient::oauthbearer(&token("alice", Duration::from_secs(60))).unwrap();
    let RawGate::Send(reply) = gate.on_raw_token(&client.start().unwrap(), &users, Instant::now())
    else {
        panic!("refused");
    };
    assert_eq!(client.step(&reply).unwrap(), ClientStep::Done);
    assert!(!gate.expects_raw_token());
    assert_eq!(gate.principal(), Some("alice"));
    assert_eq!(
        gate.on_request(&metadata(), 12, &users, Instant::now()),
        Gate::Serve
    );

    let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
    gate.on_request(&handshake(), 0, &users, Instant::now());
    let unscoped = UnsecuredTokenBuilder::new("alice").build();
    let mut client = SaslClient::oauthbearer(&unscoped).unwrap();
    let RawGate::Send(error) = gate.on_raw_token(&client.start().unwrap(), &users, Instant::now())
    else {
        panic!("no error message");
    };
    let ClientStep::Send(kvsep) = client.step(&error).unwrap() else {
        panic!("no %x01");
    };
    assert_eq!(kvsep, b"\x01");
    assert!(matches!(
        gate.on_raw_token(&kvsep, &users, Instant::now()),
        RawGate::Close(_)
    ));
    assert_eq!(gate.principal(), None);
    assert!(matches!(
        gate.on_request(&metadata(), 12, &users, Instant::now()),
        Gate::Close(_)
    ));
    assert!(
        matches!(client.refusal(), Some(SaslError::TokenRejected(r)) if r.status == "insufficient_scope")
    );
}

/// A bad token over v1: the error message (error code 0), the client's %x01,
/// then SASL_AUTHENTICATION_FAILED and close; the client knows why.
fn refused_over_v1(users: &Users, token: &OAuthBearerToken) -> (TokenRejected, String) {
    let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
    let (answer, client) = log_in(&mut gate, users, token);
    let message = refused(&answer);
    assert!(!message.contains(token.value()));
    assert_eq!(gate.principal(), None);
    assert!(matches!(
        gate.on_request(&metadata(), 12, users, Instant::now()),
        Gate::Close(_)
    ));
    let Some(SaslError::TokenRejected(rejected)) = client.refusal() else {
        panic!("{:?}", client.refusal());
    };
    (rejected.clone(), message)
}

#[test]
fn a_bad_token_gets_the_error_message_then_fails() {
    let users = oauth_users();
    let (rejected, message) = refused_over_v1(&users, &OAuthBearerToken::new("not.a.jws").unwrap());
    assert_eq!(rejected, TokenRejected::invalid_token());
    assert!(message.contains("invalid_token"), "{message}");
}

#[test]
fn an_expired_token_is_refused() {
    let users = oauth_users();
    let expired = UnsecuredTokenBuilder::new("alice")
        .issued_at_ms(now_ms() - 7_200_000)
        .scopes(["kafka"])
        .build();
    let (rejected, _) = refused_over_v1(&users, &expired);
    assert_eq!(rejected.status, "invalid_token");

    // A validator that forgets to look at the time does not let it in either.
    let careless = Users::new().with_token_validator(|_: &str, _: &SaslExtensions| {
        Ok(ValidatedToken::new("alice", now_ms() - 1))
    });
    let (rejected, _) = refused_over_v1(&careless, &expired);
    assert_eq!(rejected.status, "invalid_token");
}

#[test]
fn a_token_without_the_required_scope_is_refused_saying_which() {
    let users = oauth_users();
    let wrong = UnsecuredTokenBuilder::new("alice")
        .scopes(["other"])
        .build();
    let (rejected, _) = refused_over_v1(&users, &wrong);
    assert_eq!(rejected, TokenRejected::insufficient_scope("kafka"));
}

#[test]
fn the_token_shortens_the_session_and_its_end_closes_the_connection() {
    let users = oauth_users();
    let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec())
        .with_session_lifetime(Duration::from_secs(3600));
    let (answer, _) = log_in(
        &mut gate,
        &users,
        &token("alice", Duration::from_millis(1000)),
    );
    let lifetime = session_lifetime_ms(&answer);
    assert!((1..=1000).contains(&lifetime), "{lifetime}");
    assert_eq!(
        gate.on_request(&metadata(), 12, &users, Instant::now()),
        Gate::Serve
    );
    std::thread::sleep(Duration::from_millis(1100));
    assert!(matches!(
        gate.on_request(&metadata(), 12, &users, Instant::now()),
        Gate::Close(_)
    ));

    // A configured lifetime shorter than the token's wins.
    let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec())
        .with_session_lifetime(Duration::from_secs(10));
    let (answer, _) = log_in(
        &mut gate,
        &users,
        &token("alice", Duration::from_secs(3600)),
    );
    assert_eq!(session_lifetime_ms(&answer), 10_000);
}

#[test]
fn re_authentication_renews_the_session_but_not_as_someone_else() {
    let users = oauth_users();
    let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
    let (answer, _) = log_in(
        &mut gate,
        &users,
        &token("alice", Duration::from_millis(1000)),
    );
    assert!(session_lifetime_ms(&answer) <= 1000);
    let (answer, _) = log_in(
        &mut gate,
        &users,
        &token("alice", Duration::from_secs(3600)),
    );
    assert!(session_lifetime_ms(&answer) > 3_000_000);
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(
        gate.on_request(&metadata(), 12, &users, Instant::now()),
        Gate::Serve
    );

    let (answer, _) = log_in(
        &mut gate,
        &users,
        &token("mallory", Duration::from_secs(3600)),
    );
    refused(&answer);
    assert!(matches!(
        gate.on_request(&metadata(), 12, &users, Instant::now()),
        Gate::Close(_)
    ));
}

#[test]
fn acting_as_someone_else_is_refused() {
    let users = oauth_users();
    let alice = token("alice", Duration::from_secs(60));
    let message = ClientInitialResponse::new(alice.clone())
        .with_authorization_id("bob")
        .unwrap()
        .to_bytes();
    let mut server = SaslServer::new(Mechanism::OAuthBearer);
    assert_eq!(
        server.step(&message, &users),
        Err(SaslError::AuthenticationFailed)
    );
    let message = ClientInitialResponse::new(alice)
        .with_authorization_id("alice")
        .unwrap()
        .to_bytes();
    let mut server = SaslServer::new(Mechanism::OAuthBearer);
    assert!(server.step(&message, &users).unwrap().is_done());
    assert_eq!(server.token().unwrap().principal, "alice");
}

#[test]
fn after_the_error_only_a_kvsep_is_expected() {
    let users = oauth_users();
    let unscoped = UnsecuredTokenBuilder::new("alice").build();
    let first = SaslClient::oauthbearer(&unscoped).unwrap().start().unwrap();
    let mut server = SaslServer::new(Mechanism::OAuthBearer);
    assert!(!server.step(&first, &users).unwrap().is_done());
    // Not a second try with another token in the same exchange.
    let retry = SaslClient::oauthbearer(&token("alice", Duration::from_secs(60)))
        .unwrap()
        .start()
        .unwrap();
    assert!(matches!(
        server.step(&retry, &users),
        Err(SaslError::Malformed { .. })
    ));
    assert!(matches!(
        server.step(b"\x01", &users),
        Err(SaslError::OutOfOrder { .. })
    ));
    assert_eq!(server.principal(), None);
}

#[test]
fn without_a_validator_oauthbearer_is_not_served() {
    let users = Users::new().with_user("alice", "secret").unwrap();
    let mut server = SaslServer::new(Mechanism::OAuthBearer);
    let first = SaslClient::oauthbearer(&token("alice", Duration::from_secs(60)))
        .unwrap()
        .start()
        .unwrap();
    let error = server.step(&first, &users).unwrap_err();
    assert_eq!(error, SaslError::NoTokenValidator);
    assert_eq!(error.error_code(), ErrorCode::UnsupportedSaslMechanism);

    let mut gate = ServerAuthenticator::new(vec![Mechanism::OAuthBearer, Mechanism::Plain]);
    let Gate::AnswerAndClose(Response::SaslHandshake(r)) =
        gate.on_request(&handshake(), 1, &users, Instant::now())
    else {
        panic!("offered");
    };
    assert_eq!(r.error_code, ErrorCode::UnsupportedSaslMechanism.code());
    let offered: Vec<&str> = r.mechanisms.iter().map(|m| m.as_str()).collect();
    assert_eq!(offered, ["PLAIN"]);
}

#[test]
fn a_provider_without_a_token_fails_the_client() {
    let provider = || -> Result<OAuthBearerToken, SaslError> {
        Err(SaslError::NoToken("no refresh token".into()))
    };
    assert_eq!(
        SaslClient::oauthbearer(&provider).unwrap_err(),
        SaslError::NoToken("no refresh token".into())
    );
}
