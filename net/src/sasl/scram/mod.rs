//! SCRAM (RFC 5802) with SHA-256 (RFC 7677) and SHA-512, as Kafka runs it: no
//! channel binding, user names escaped, iterations within Kafka's bounds,
//! extensions carried (`tokenauth` for delegation tokens).

pub(crate) mod attributes;
mod client;
mod credential;
mod hash;
mod server;
mod stand_in;

pub use client::ScramClient;
pub use credential::ScramCredential;
pub use hash::ScramHash;
pub use server::{ScramLookup, ScramOutcome, ScramServer};
pub(crate) use stand_in::pick_for;
pub use stand_in::StandIn;
