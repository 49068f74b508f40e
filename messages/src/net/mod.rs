//! Speaking Kafka on a connection, without doing any I/O at the core: splitting a
//! byte stream into frames, Kafka's error codes, a client session that matches
//! responses to requests, and version negotiation.

pub mod blocking;
#[cfg(feature = "tokio")]
pub mod codec;
pub mod error_code;
pub mod negotiation;
pub mod request_frame;
pub mod session;
pub mod splitter;
