//! Speaking Kafka on a connection, without doing any I/O at the core: splitting a
//! byte stream into frames, a client session that matches
//! responses to requests, and version negotiation.

pub mod blocking;
#[cfg(feature = "tokio")]
pub mod codec;
pub mod negotiation;
pub mod session;
pub mod splitter;
