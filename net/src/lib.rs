//! Apache Kafka's protocol on a connection, without doing any I/O at the core.
//!
//! The core is sans-IO, state and pure functions over `Bytes`, as `quinn-proto` is
//! to `quinn`:
//!
//! - [`splitter`]: a byte stream into whole frames, zero-copy, refusing a bad
//!   length prefix before anything is buffered for it;
//! - [`session`]: a client session that numbers requests and matches each response
//!   to its request, pipelining included;
//! - [`negotiation`]: the highest version both sides support, per API, with
//!   Kafka's ApiVersions fallback, and a server's answer;
//! - `sasl` (feature `sasl`): PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER for clients
//!   and servers, and a server's gate in Kafka's framing;
//! - `tls` (feature `tls`): TLS clients and servers over tokio streams, for
//!   Kafka's SSL and SASL_SSL listeners, certificates always verified.
//!
//! On top of it, behind features, the adapters that do I/O: [`client`]
//! (feature `client`), an async client connection that negotiates, logs in and
//! answers each request with its own response type; [`blocking`] (feature
//! `blocking`) over `std::io::Read` / `Write`, and `codec` (feature `tokio`), a
//! `tokio_util` codec, and `server` (feature `tokio`), the building blocks of a
//! server whose memory, connections and waits are bounded. The frames themselves, a server's tolerant reading of
//! request bodies included, are [`kwire_messages::frame`]'s.
//!
//! ```
//! use kwire_net::splitter::FrameSplitter;
//!
//! let mut splitter = FrameSplitter::new();
//! splitter.extend_from_slice(b"\0\0\0\x02hi\0\0");
//! assert_eq!(splitter.next_frame().unwrap().as_deref(), Some(&b"\0\0\0\x02hi"[..]));
//! assert_eq!(splitter.next_frame().unwrap(), None); // the next frame is not all there
//! ```
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "blocking")]
pub mod blocking;
#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "tokio")]
pub mod codec;
#[cfg(any(feature = "blocking", feature = "tokio"))]
mod io_error;
pub mod negotiation;
#[cfg(feature = "sasl")]
pub mod sasl;
#[cfg(feature = "tokio")]
pub mod server;
pub mod session;
pub mod splitter;
#[cfg(feature = "tls")]
pub mod tls;

#[cfg(any(feature = "blocking", feature = "tokio"))]
pub use io_error::FrameIoError;

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
