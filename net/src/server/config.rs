//! The limits as configuration, by Kafka's property names, with defaults a small
//! machine survives.

use std::time::Duration;

use tokio::io::AsyncRead;

use super::budget::MemoryBudget;
use super::connections::{ConnectionLimits, ConnectionSlot};
use super::open_files::open_files_limit;
use super::reader::FrameReader;
use crate::splitter::DEFAULT_MAX_FRAME_SIZE;

/// Descriptors kept back from the connection limit for listeners, logs, files and
/// the odd outgoing connection.
const SPARE_DESCRIPTORS: u64 = 64;

/// The descriptor limit assumed where [`open_files_limit`] cannot tell: Linux's
/// usual default soft limit.
const FALLBACK_OPEN_FILES: u64 = 1024;

/// Why a limit cannot be set as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The value does not read as the property needs.
    #[error("{property}={value:?}: {expected}")]
    Invalid {
        /// The property's Kafka name.
        property: &'static str,
        /// The value given.
        value: String,
        /// What it should be.
        expected: &'static str,
    },
    /// Two values cannot hold together.
    #[error("{0}")]
    Inconsistent(String),
}

/// A server's limits, each under Kafka's broker property name where Kafka has one.
///
/// ```
/// use std::time::Duration;
/// use kwire_net::server::ServerConfig;
///
/// let mut config = ServerConfig::new(1);
/// assert!(config.set("connections.max.idle.ms", "2000").unwrap());
/// assert!(config.set("queued.max.request.bytes", "209715200").unwrap());
/// assert!(!config.set("listeners", "PLAINTEXT://:9092").unwrap()); // not a limit
/// assert!(config.set("max.connections", "many").is_err());
/// let limits = config.build().unwrap();
/// assert_eq!(limits.idle_timeout, Some(Duration::from_secs(2)));
/// assert_eq!(limits.budget.bytes(), 200 << 20);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// `queued.max.request.bytes`: request bytes buffered across connections, not
    /// counting the reserve for small requests. Kafka's default is unbounded; ours
    /// 512 MiB.
    pub queued_max_request_bytes: usize,
    /// `socket.request.max.bytes`: the largest request frame (not counting its
    /// prefix). Kafka's default, 100 MiB.
    pub socket_request_max_bytes: usize,
    /// `max.connections`. Kafka's default is unbounded; ours is what the
    /// descriptor limit allows (see [`new`](Self::new)).
    pub max_connections: usize,
    /// `max.connections.per.ip`; `None`, the default, is no limit per address
    /// (Kafka's default too): `max_connections` still bounds them, by evicting the
    /// connection idle longest, whereas a full address is refused outright, which
    /// would lock out every new client of a busy address (or of one host's tests).
    pub max_connections_per_ip: Option<usize>,
    /// `connections.max.idle.ms`: `None` never closes idle connections. Kafka's
    /// default, 10 minutes.
    pub connections_max_idle: Option<Duration>,
    /// `small.request.max.bytes` (no Kafka counterpart): requests this small (prefix
    /// included) come from a reserve of `max_connections` × this, so that they are
    /// served while large requests hold the whole budget. Default 64 KiB, above
    /// any Metadata, ApiVersions, Heartbeat or offset request of a sane client.
    pub small_request_max_bytes: usize,
    /// `queued.max.response.bytes` (no Kafka counterpart): response bytes built and
    /// not yet written, across connections. A client that does not read its
    /// answers holds one; without a total, many such clients would hold the
    /// machine. Small responses come from a reserve sized as the requests' is.
    /// Default 512 MiB.
    pub queued_max_response_bytes: usize,
}

/// The limits built from a [`ServerConfig`], ready to use.
#[derive(Debug, Clone)]
pub struct ServerLimits {
    /// The request memory budget, with its reserve.
    pub budget: MemoryBudget,
    /// The response memory budget, with a reserve of the same shape.
    pub responses: MemoryBudget,
    /// The connection limits.
    pub connections: ConnectionLimits,
    /// The largest request frame.
    pub max_frame_size: usize,
    /// The idle timeout.
    pub idle_timeout: Option<Duration>,
}

impl ServerLimits {
    /// A frame reader of `io` within these limits, reporting to `slot`.
    pub fn reader<R: AsyncRead + Unpin>(&self, io: R, slot: ConnectionSlot) -> FrameReader<R> {
        FrameReader::new(io, self.budget.clone())
            .with_max_frame_size(self.max_frame_size)
            .with_idle_timeout(self.idle_timeout)
            .with_slot(slot)
    }
}

/// The Kafka property names [`ServerConfig::set`] knows.
pub const PROPERTIES: [&str; 7] = [
    "queued.max.request.bytes",
    "queued.max.response.bytes",
    "socket.request.max.bytes",
    "max.connections",
    "max.connections.per.ip",
    "connections.max.idle.ms",
    "small.request.max.bytes",
];

/// The property a command-line flag names: Kafka's name with dashes for dots
/// (`--queued-max-request-bytes`), if it is one of [`PROPERTIES`].
///
/// ```
/// use kwire_net::server::property_of_flag;
///
/// assert_eq!(property_of_flag("--max-connections"), Some("max.connections"));
/// assert_eq!(property_of_flag("--max-connection"), None);
/// assert_eq!(property_of_flag("max-connections"), None);
/// ```
pub fn property_of_flag(flag: &str) -> Option<&'static str> {
    let property = flag.strip_prefix("--")?.replace('-', ".");
    PROPERTIES.iter().copied().find(|name| *name == property)
}

impl ServerConfig {
    /// The defaults, for a server whose every connection costs
    /// `descriptors_per_connection` file descriptors (2 for a proxy: the client and
    /// its upstream): `max_connections` is the descriptor limit ([`open_files_limit`],
    /// else 1024) less 64 kept spare, divided by that.
    pub fn new(descriptors_per_connection: usize) -> Self {
        let open_files = open_files_limit().unwrap_or(FALLBACK_OPEN_FILES);
        let usable = open_files.saturating_sub(SPARE_DESCRIPTORS).max(1);
        let per = (descriptors_per_connection.max(1)) as u64;
        let max_connections = usize::try_from(usable / per).unwrap_or(usize::MAX).max(1);
        ServerConfig {
            queued_max_request_bytes: 512 << 20,
            socket_request_max_bytes: DEFAULT_MAX_FRAME_SIZE,
            max_connections,
            max_connections_per_ip: None,
            connections_max_idle: Some(Duration::from_secs(600)),
            small_request_max_bytes: 64 << 10,
            queued_max_response_bytes: 512 << 20,
        }
    }

    /// Sets `property` (a Kafka name, see [`PROPERTIES`]) from text; `Ok(false)` if
    /// it is not one of these limits. `connections.max.idle.ms` takes -1 for never.
    pub fn set(&mut self, property: &str, value: &str) -> Result<bool, ConfigError> {
        let Some(&name) = PROPERTIES.iter().find(|name| **name == property) else {
            return Ok(false);
        };
        let invalid = |expected| ConfigError::Invalid {
            property: name,
            value: value.to_owned(),
            expected,
        };
        let positive = || {
            value
                .parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| invalid("a positive whole number"))
        };
        match name {
            "queued.max.request.bytes" => self.queued_max_request_bytes = positive()?,
            "queued.max.response.bytes" => self.queued_max_response_bytes = positive()?,
            "socket.request.max.bytes" => {
                let bytes = positive()?;
                // The prefix is an int32.
                if bytes > i32::MAX as usize {
                    return Err(invalid("at most 2147483647"));
                }
                self.socket_request_max_bytes = bytes;
            }
            "max.connections" => self.max_connections = positive()?,
            "max.connections.per.ip" => self.max_connections_per_ip = Some(positive()?),
            "connections.max.idle.ms" => {
                self.connections_max_idle = if value == "-1" {
                    None
                } else {
                    let ms = value
                        .parse::<u64>()
                        .ok()
                        .filter(|ms| *ms > 0)
                        .ok_or_else(|| invalid("milliseconds, or -1 for never"))?;
                    Some(Duration::from_millis(ms))
                }
            }
            _ => self.small_request_max_bytes = positive()?,
        }
        Ok(true)
    }

    /// Checks that the values hold together and builds the limits.
    pub fn build(&self) -> Result<ServerLimits, ConfigError> {
        // A frame the budget can never cover would wait for ever.
        if self.socket_request_max_bytes + 4 > self.queued_max_request_bytes {
            return Err(ConfigError::Inconsistent(format!(
                "socket.request.max.bytes ({}) plus its 4-byte prefix must fit in \
                 queued.max.request.bytes ({})",
                self.socket_request_max_bytes, self.queued_max_request_bytes
            )));
        }
        let reserve = self
            .max_connections
            .saturating_mul(self.small_request_max_bytes);
        Ok(ServerLimits {
            budget: MemoryBudget::with_reserve(
                self.queued_max_request_bytes,
                self.small_request_max_bytes,
                reserve,
            ),
            responses: MemoryBudget::with_reserve(
                self.queued_max_response_bytes,
                self.small_request_max_bytes,
                reserve,
            ),
            connections: ConnectionLimits::new(
                self.max_connections,
                self.max_connections_per_ip.unwrap_or(usize::MAX),
            ),
            max_frame_size: self.socket_request_max_bytes,
            idle_timeout: self.connections_max_idle,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_descriptor_limit() {
        let broker = ServerConfig::new(1);
        let proxy = ServerConfig::new(2);
        assert!(proxy.max_connections <= broker.max_connections / 2 + 1);
        assert_eq!(broker.socket_request_max_bytes, 100 << 20);
        let limits = broker.build().unwrap();
        assert_eq!(limits.connections.max_per_ip(), usize::MAX);
        assert_eq!(
            limits.budget.reserve_bytes(),
            broker.max_connections * (64 << 10)
        );
    }

    #[test]
    fn bad_values_and_combinations_are_refused() {
        let mut config = ServerConfig::new(1);
        assert!(config.set("max.connections", "0").is_err());
        assert!(config
            .set("socket.request.max.bytes", "4294967296")
            .is_err());
        assert!(config.set("connections.max.idle.ms", "-1").unwrap());
        assert_eq!(config.connections_max_idle, None);
        assert!(config.set("queued.max.request.bytes", "1000").unwrap());
        assert!(matches!(config.build(), Err(ConfigError::Inconsistent(_))));
        assert!(config.set("socket.request.max.bytes", "996").unwrap());
        assert!(config.build().is_ok());
    }
}
