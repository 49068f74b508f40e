//! What a SASL server allocates for what an unauthenticated client sends
//! (issue 29): a message over a mechanism's bound costs nothing, and one under
//! it no more than a small multiple of its own size, however it is built to
//! multiply (NULs for PLAIN, `,a=b` for SCRAM, dots for OAUTHBEARER).
//!
//! A counting global allocator counts the allocations of each call.

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use counting_allocator::{allocated_during, Allocated};
use kwire_net::sasl::oauthbearer::unsecured::UnsecuredJws;
use kwire_net::sasl::oauthbearer::ClientInitialResponse;
use kwire_net::sasl::{
    plain, Mechanism, SaslError, SaslServer, ScramHash, ScramServer, ServerStep,
    UnsecuredTokenBuilder, UnsecuredValidator, Users,
};

/// What one server step on `message` gives, and allocates.
fn step(
    mechanism: Mechanism,
    users: &Users,
    message: &[u8],
) -> (Result<ServerStep, SaslError>, Allocated) {
    let mut server = SaslServer::new(mechanism);
    allocated_during(|| server.step(message, users))
}

fn too_large(result: Result<impl Sized, SaslError>) -> bool {
    matches!(result, Err(SaslError::TooLarge { .. }))
}

#[test]
fn plain_nuls_cost_nothing_and_a_good_message_its_size() {
    // 1.7 GiB for 100 MiB before: a slice per NUL.
    let nuls = vec![0; plain::MAX_MESSAGE];
    let (result, allocated) = allocated_during(|| plain::parse(&nuls).is_err());
    assert!(result);
    assert!(allocated.peak < 1024, "{allocated:?}");

    let huge = vec![0; 16 << 20];
    let (result, allocated) = allocated_during(|| too_large(plain::parse(&huge)));
    assert!(result);
    assert_eq!(allocated.calls, 0, "{allocated:?}");

    // At the bound, a message is copied out once: its parts.
    let password = "p".repeat(plain::MAX_MESSAGE - 8);
    let message = format!("\0alice\0{password}");
    let (read, allocated) = allocated_during(|| plain::parse(message.as_bytes()).unwrap());
    assert_eq!(read.password.len(), password.len());
    assert!(
        allocated.peak <= message.len() + 1024,
        "{} bytes for {}",
        allocated.peak,
        message.len()
    );
}

#[test]
fn scram_extensions_stop_at_the_bound() {
    // 25 M pairs for 100 MiB before, and a copy of each kept.
    let users = Users::new();
    let prefix = "n,,n=alice,r=abc";
    let pairs = (ScramServer::MAX_CLIENT_MESSAGE - prefix.len()) / 4;
    let hostile = format!("{prefix}{}", ",a=b".repeat(pairs));
    let mechanism = Mechanism::Scram(ScramHash::Sha512);
    let (result, allocated) = step(mechanism, &users, hostile.as_bytes());
    assert!(matches!(result, Err(SaslError::TooMany { .. })));
    assert!(allocated.peak < 2048, "{allocated:?}");

    let huge = format!("{prefix}{}", ",a=b".repeat(1 << 20));
    let (result, allocated) = step(mechanism, &users, huge.as_bytes());
    assert!(too_large(result));
    assert!(allocated.peak < 256, "{allocated:?}");

    // A long nonce is refused, not echoed.
    let nonce = format!("n,,n=alice,r={}", "x".repeat(4 << 20));
    let (result, allocated) = step(mechanism, &users, nonce.as_bytes());
    assert!(too_large(result));
    assert!(allocated.peak < 256, "{allocated:?}");
}

#[test]
fn a_scram_exchange_holds_a_small_multiple_of_what_it_was_sent() {
    // The longest user name that fits: what the server keeps for the proof
    // (the name, the message, its answer) is a few copies of it.
    let users = Users::new();
    let prefix = "n,,n=";
    let suffix = ",r=abc";
    let name = "u".repeat(ScramServer::MAX_CLIENT_MESSAGE - prefix.len() - suffix.len());
    let first = format!("{prefix}{name}{suffix}");
    let mut server = SaslServer::new(Mechanism::Scram(ScramHash::Sha256));
    let (challenge, allocated) = allocated_during(|| server.step(first.as_bytes(), &users));
    assert!(challenge.is_ok());
    assert!(
        allocated.live <= 4 * first.len() as isize,
        "{allocated:?} for {} bytes",
        first.len()
    );
    assert!(allocated.peak <= 6 * first.len(), "{allocated:?}");
}

#[test]
fn oauthbearer_dots_cost_their_size() {
    // 294 MiB for a 16 MiB token before: a slice per dot.
    let users = Users::new().with_token_validator(UnsecuredValidator::new());
    let frame = |token: &str| format!("n,,\x01auth=Bearer {token}\x01\x01");
    let overhead = frame("").len();
    let dots = ".".repeat(ClientInitialResponse::MAX_LEN - overhead);
    let message = frame(&dots);
    let (result, allocated) = step(Mechanism::OAuthBearer, &users, message.as_bytes());
    // Refused by the validator, with RFC 7628's error message.
    assert!(matches!(result, Ok(ServerStep::Challenge(_))), "{result:?}");
    assert!(
        allocated.peak <= 2 * message.len(),
        "{allocated:?} for {} bytes",
        message.len()
    );

    // The JWS reader alone, on any length: nothing.
    let dots = ".".repeat(4 << 20);
    let (result, allocated) = allocated_during(|| UnsecuredJws::parse(&dots).is_err());
    assert!(result);
    assert_eq!(allocated.calls, 0, "{allocated:?}");

    let huge = frame(&".".repeat(16 << 20));
    let (result, allocated) =
        allocated_during(|| too_large(ClientInitialResponse::parse(huge.as_bytes())));
    assert!(result);
    assert_eq!(allocated.calls, 0, "{allocated:?}");
}

/// An unsecured JWS is read into serde_json's tree, which takes tens of bytes
/// per JSON value: a payload of `0,0,0...` costs about 40 times its size while
/// the validator runs, all of it freed when the step returns. The bound on the
/// message bounds that too (10 MiB at most); this is here to notice if it grows.
#[test]
fn an_unsecured_jws_costs_a_bounded_multiple_and_keeps_nothing() {
    let users = Users::new().with_token_validator(UnsecuredValidator::new());
    let base = UnsecuredTokenBuilder::new("alice").build();
    let header = base.value().split('.').next().unwrap();
    let zeros = "0,".repeat(85_000);
    let payload = format!(r#"{{"sub":"a","exp":1,"x":[{zeros}0]}}"#);
    let token = format!("{header}.{}.", base64url(payload.as_bytes()));
    let message = format!("n,,\x01auth=Bearer {token}\x01\x01");
    assert!(message.len() <= ClientInitialResponse::MAX_LEN);
    let (result, allocated) = step(Mechanism::OAuthBearer, &users, message.as_bytes());
    assert!(matches!(result, Ok(ServerStep::Challenge(_))), "{result:?}");
    assert!(
        allocated.peak <= 48 * message.len(),
        "{allocated:?} for {} bytes",
        message.len()
    );
    // What is kept is the refusal, not the token.
    assert!(allocated.live < 1024, "{allocated:?}");
}

/// base64url without padding, as JWS parts are written.
fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 3);
    for chunk in bytes.chunks(3) {
        let mut group = [0u8; 3];
        group[..chunk.len()].copy_from_slice(chunk);
        let bits = u32::from_be_bytes([0, group[0], group[1], group[2]]);
        for index in 0..=chunk.len() {
            out.push(char::from(
                ALPHABET[((bits >> (18 - 6 * index)) & 63) as usize],
            ));
        }
    }
    out
}
