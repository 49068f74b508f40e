//! The errors of the server building blocks: why a frame was not read, why a
//! connection was not admitted, why the budget cannot cover a frame.

use std::io;
use std::net::IpAddr;
use std::time::Duration;

use kwire_messages::frame::FrameLengthError;

/// Why a [`MemoryBudget`](super::MemoryBudget) cannot cover a frame. Waiting would
/// not help: the frame is larger than the whole budget it would come from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BudgetError {
    /// The frame needs more bytes than the budget holds in all.
    #[error("a frame of {len} bytes is larger than the whole memory budget of {budget} bytes")]
    LargerThanBudget {
        /// The bytes asked for.
        len: usize,
        /// The budget's size.
        budget: usize,
    },
}

/// Why [`ConnectionLimits::admit`](super::ConnectionLimits::admit) refused a
/// connection. Close it: nothing of it has been read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AdmitError {
    /// As many connections as allowed are open, and none of them may be closed
    /// to make room: each has logged in, or is answering a request.
    #[error("{max} connections are open (max.connections), none of them evictable")]
    TooMany {
        /// The limit.
        max: usize,
    },
    /// This address opened connections faster than its rate allows
    /// (`connection_creation_rate`, Kafka's per-IP connection rate quota).
    #[error("{ip} opens connections faster than {rate} a second (connection_creation_rate)")]
    RateFromIp {
        /// The peer's address.
        ip: IpAddr,
        /// The connections a second it may open.
        rate: u32,
    },
    /// As many connections as allowed are open from this address.
    #[error("{max} connections are open from {ip} (max.connections.per.ip)")]
    TooManyFromIp {
        /// The peer's address.
        ip: IpAddr,
        /// The limit per address.
        max: usize,
    },
}

/// Why [`FrameReader::next_frame`](super::FrameReader::next_frame) gave no frame.
/// Each ends the connection: after any of them the stream is out of step.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    /// The stream failed.
    #[error("reading a frame failed: {0}")]
    Io(#[from] io::Error),
    /// A length prefix is negative or above the maximum frame size
    /// (`socket.request.max.bytes`).
    #[error(transparent)]
    Length(#[from] FrameLengthError),
    /// Before the connection has authenticated, a length prefix above
    /// `sasl.server.max.receive.size`: refused before anything of the frame is
    /// buffered, as Kafka's broker refuses it.
    #[error(
        "a frame of {len} bytes before authenticating; at most {max} \
         (sasl.server.max.receive.size)"
    )]
    TooLargeBeforeAuthentication {
        /// The length the prefix declares.
        len: usize,
        /// The most a frame may have before authentication.
        max: usize,
    },
    /// The frame can never be covered by the memory budget.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// The stream ended inside a frame (or inside its length prefix).
    #[error("stream ended inside a frame, with {buffered} bytes of it buffered")]
    UnexpectedEof {
        /// The bytes of the incomplete frame (prefix included) that had arrived.
        buffered: usize,
    },
    /// No complete frame arrived for this long (`connections.max.idle.ms`).
    #[error("no complete request for {0:?} (connections.max.idle.ms)")]
    Idle(Duration),
    /// The connection was chosen to make room for a new one
    /// ([`ConnectionLimits`](super::ConnectionLimits) at its limit).
    #[error(
        "closed to make room for a new connection: this one was idle longest and had not logged in"
    )]
    Evicted,
}
