//! OAUTHBEARER (RFC 7628) as Kafka runs it: the client sends a bearer token
//! (and optional key=value extensions) in one message, the server hands the
//! token to a [`TokenValidator`] and answers with nothing (accepted) or with a
//! JSON error, after which the client sends a lone `%x01` and the exchange fails.
//!
//! Which tokens are good is not this crate's business: a [`TokenProvider`] gives
//! the client its token, a [`TokenValidator`] judges it on the server. For tests,
//! and for brokers configured with Kafka's unsecured handlers, [`unsecured`] makes
//! and checks unsigned JWTs (`{"alg":"none"}`), as Kafka's
//! `OAuthBearerUnsecuredLoginCallbackHandler` and
//! `OAuthBearerUnsecuredValidatorCallbackHandler` do.
//!
//! ```
//! use kwire_net::sasl::oauthbearer::{ClientInitialResponse, OAuthBearerToken, SaslExtensions};
//!
//! let token = OAuthBearerToken::new("eyJhbGciOiJub25lIn0.e30.")
//!     .unwrap()
//!     .with_extensions(SaslExtensions::new().with("traceId", "42").unwrap());
//! let message = ClientInitialResponse::new(token).to_bytes();
//! assert_eq!(message, b"n,,\x01auth=Bearer eyJhbGciOiJub25lIn0.e30.\x01traceId=42\x01\x01");
//! ```

mod client;
mod initial_response;
mod server;
mod token;
pub mod unsecured;

pub(crate) use client::OAuthBearerClient;
pub use initial_response::ClientInitialResponse;
pub(crate) use server::OAuthBearerServer;
pub use token::{
    OAuthBearerToken, SaslExtensions, TokenProvider, TokenRejected, TokenValidator, ValidatedToken,
};

/// Now, in ms since the Unix epoch (0 for a clock set before it), for token
/// lifetimes, which are wall-clock times.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}
