//! An async client connection (feature `client`): connect, negotiate, log in, and
//! send typed requests, many in flight at once.
//!
//! [`Connection::connect`] opens the socket, does TLS (feature `tls`) and SASL
//! when [`ConnectOptions`] ask, and negotiates ApiVersions (with Kafka's fallback
//! when the broker does not know the version asked). Then
//! [`send`](Connection::send) takes any request type and gives back its own
//! response type, at the highest version both sides support. Every failure is
//! one [`ClientError`], which the errors of the layers below convert into. The
//! [guide] walks through a whole client.
//!
//! ```no_run
//! use kwire_messages::api::create_topics::CreatableTopic;
//! use kwire_messages::api::CreateTopicsRequest;
//! use kwire_messages::ErrorCode;
//! use kwire_net::client::{ClientError, ConnectOptions, Connection, Login};
//! use kwire_net::sasl::ScramHash;
//!
//! # async fn run() -> Result<(), ClientError> {
//! let options = ConnectOptions::new()
//!     .with_login(Login::scram(ScramHash::Sha512, "alice", "alice-secret"));
//! let connection = Connection::connect("127.0.0.1:9092", options).await?;
//! let created = connection
//!     .send(CreateTopicsRequest::default().with_timeout_ms(5_000).with_topics(vec![
//!         CreatableTopic::default()
//!             .with_name("seats".into())
//!             .with_num_partitions(1)
//!             .with_replication_factor(1),
//!     ]))
//!     .await?;
//! ErrorCode::check(created.topics[0].error_code)?;
//! # Ok(())
//! # }
//! ```

#[doc = include_str!("guide.md")]
pub mod guide {}

mod connection;
mod error;
mod in_flight;
mod login;
mod options;
mod strict;
mod transport;

/// The credentials, [`kwire_net::sasl::Login`](crate::sasl::Login), named here too:
/// [`ConnectOptions::with_login`] takes them.
pub use crate::sasl::Login;
pub use connection::Connection;
pub use error::ClientError;
pub use options::ConnectOptions;
pub use transport::Transport;
