//! SASL authentication, sans-IO, for clients and servers (feature `sasl`): PLAIN,
//! SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER as Kafka runs them.
//!
//! Each mechanism is a state machine over bytes: [`SaslClient`] gives the
//! client's messages and checks the server's, [`SaslServer`] checks the client's
//! against [`Credentials`] (such as [`Users`]; for OAUTHBEARER, their
//! [`TokenValidator`]) and answers. Moving the bytes (in
//! SaslAuthenticate requests, or raw after SaslHandshake v0) is the caller's; on
//! a server, [`ServerAuthenticator`] is the gate in Kafka's framing: what a
//! connection may send before it authenticates, the SaslHandshake and
//! SaslAuthenticate answers, raw v0 tokens, sessions and re-authentication.
//! On a client, [`ClientLogin`] is its counterpart: the SaslHandshake and
//! SaslAuthenticate requests a [`Login`] (the credentials) makes, each answer
//! read, and the session's lifetime at the end.
//!
//! A SCRAM client in a few lines, the server played by this crate too:
//!
//! ```
//! use kwire_net::sasl::{ClientStep, SaslClient, SaslServer, ScramHash, Users};
//!
//! let users = Users::new().with_user("alice", "secret").unwrap();
//! let mut server = SaslServer::new(kwire_net::sasl::Mechanism::Scram(ScramHash::Sha256));
//!
//! let mut client = SaslClient::scram(ScramHash::Sha256, "alice", "secret").unwrap();
//! let first = client.start().unwrap();                          // client-first
//! let challenge = server.step(&first, &users).unwrap();         // salt, iterations
//! let ClientStep::Send(proof) = client.step(challenge.message()).unwrap() else {
//!     panic!("SCRAM sends a proof")
//! };
//! let signed = server.step(&proof, &users).unwrap();            // server signature
//! assert_eq!(client.step(signed.message()).unwrap(), ClientStep::Done);
//! ```
//!
//! OAUTHBEARER the same way, with a token from a [`TokenProvider`] (here Kafka's
//! unsecured kind, for tests) and a server judging it with a [`TokenValidator`]:
//!
//! ```
//! use kwire_net::sasl::{ClientStep, Mechanism, SaslClient, SaslServer, Users};
//! use kwire_net::sasl::{UnsecuredTokenBuilder, UnsecuredValidator};
//!
//! let users = Users::new().with_token_validator(UnsecuredValidator::new());
//! let mut server = SaslServer::new(Mechanism::OAuthBearer);
//!
//! let mut client = SaslClient::oauthbearer(&UnsecuredTokenBuilder::new("alice").build()).unwrap();
//! let first = client.start().unwrap();                          // n,,^Aauth=Bearer ...^A^A
//! let accepted = server.step(&first, &users).unwrap();          // empty: accepted
//! assert_eq!(client.step(accepted.message()).unwrap(), ClientStep::Done);
//! assert_eq!(server.principal(), Some("alice"));
//! ```
//!
//! A server reads what a client sends before it has authenticated, so every
//! mechanism bounds it by itself, whatever the framing around it does: a
//! message over [`plain::MAX_MESSAGE`], [`ScramServer::MAX_CLIENT_MESSAGE`] or
//! [`ClientInitialResponse::MAX_LEN`](oauthbearer::ClientInitialResponse::MAX_LEN)
//! is refused unread ([`SaslError::TooLarge`]), as are too many extensions
//! ([`SaslError::TooMany`]), and one under them costs a small multiple of its
//! size. A user that does not exist gets an exchange that looks and costs like
//! a real user's (see [`StandIn`] and [`Credentials`]) and fails as a wrong
//! password does.
//!
//! The cryptography is RustCrypto's (`hmac`, `sha2`, `pbkdf2`); nonces and salts
//! come from the system's random source (`getrandom`).

mod broker_side;
mod client;
mod client_side;
mod error;
mod login;
mod mechanism;
pub mod oauthbearer;
pub mod plain;
mod scram;
mod server;

pub use broker_side::{Gate, RawGate, ServerAuthenticator};
pub use client::{ClientStep, SaslClient};
pub use client_side::{ClientLogin, LoginError, LoginStep, LoginVersions};
pub use error::SaslError;
pub use login::Login;
pub use mechanism::Mechanism;
pub use oauthbearer::unsecured::{UnsecuredTokenBuilder, UnsecuredValidator};
pub use oauthbearer::{
    OAuthBearerToken, SaslExtensions, TokenProvider, TokenRejected, TokenValidator, ValidatedToken,
};
pub use scram::{
    ScramClient, ScramCredential, ScramHash, ScramLookup, ScramOutcome, ScramServer, StandIn,
};
pub use server::{Credentials, SaslServer, ServerStep, Users};
