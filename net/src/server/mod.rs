//! Building blocks for a Kafka server on tokio whose memory, connections and waits
//! are bounded by configuration (with the `tokio` feature).
//!
//! - [`MemoryBudget`]: request bytes in flight across connections
//!   (`queued.max.request.bytes`), with a reserve so that small requests are served
//!   while large ones hold the budget;
//! - [`ConnectionLimits`]: connections in all and per address (`max.connections`,
//!   `max.connections.per.ip`) and how fast they come (`max.connection.creation.rate`,
//!   `connection_creation_rate`), evicting the connection idle longest among
//!   those that have not logged in rather than refusing newcomers, and never one
//!   that has;
//! - [`FrameReader`]: frames from an `AsyncRead`, each paid for from the budget
//!   before its body is buffered, within a frame size limit
//!   (`socket.request.max.bytes`), a smaller one before authentication that takes
//!   nothing from the budget (`sasl.server.max.receive.size`), and an idle timeout
//!   (`connections.max.idle.ms`);
//! - [`AuthenticationPool`]: the costly steps of authentication, off the I/O
//!   threads and a bounded number at once;
//! - [`ServerConfig`]: all of these by Kafka's property names, with defaults;
//! - [`open_files_limit`]: the process's file descriptor limit, to size the
//!   connection limit by.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> std::io::Result<()> {
//! use std::time::Duration;
//! use kwire_net::server::{ConnectionLimits, FrameReader, MemoryBudget};
//! use tokio::net::TcpListener;
//!
//! let budget = MemoryBudget::with_reserve(512 << 20, 64 << 10, 1000 * (64 << 10));
//! let limits = ConnectionLimits::new(1000, 1000);
//! let listener = TcpListener::bind("127.0.0.1:0").await?;
//! # let address = listener.local_addr()?;
//! # let client = tokio::spawn(async move {
//! #     use tokio::io::AsyncWriteExt;
//! #     let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
//! #     stream.write_all(b"\0\0\0\x02hi").await.unwrap();
//! # });
//! let (stream, peer) = listener.accept().await?;
//! let Ok(slot) = limits.admit(peer.ip()) else {
//!     return Ok(()); // dropping the stream closes it
//! };
//! let mut frames = FrameReader::new(stream, budget.clone())
//!     .with_idle_timeout(Some(Duration::from_secs(600)))
//!     .with_slot(slot);
//! while let Ok(Some(frame)) = frames.next_frame().await {
//!     // Answer the request; dropping `frame` gives its bytes back to the budget.
//!     assert_eq!(&frame[4..], b"hi");
//! }
//! # client.await.unwrap();
//! # Ok(())
//! # }
//! ```

mod authentication;
mod budget;
mod config;
mod connections;
mod error;
mod open_files;
mod reader;

pub use authentication::{AuthenticationAborted, AuthenticationPool};
pub use budget::{BudgetPermit, MemoryBudget};
pub use config::{property_of_flag, ConfigError, ServerConfig, ServerLimits, PROPERTIES};
pub use connections::{ConnectionLimits, ConnectionSlot, EVICTION_PATIENCE};
pub use error::{AdmitError, BudgetError, ServerError};
pub use open_files::open_files_limit;
pub use reader::{Frame, FrameReader};
