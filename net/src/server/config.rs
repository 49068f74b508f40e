//! The limits as configuration, by Kafka's property names, with defaults a small
//! machine survives.

use std::time::Duration;

use tokio::io::AsyncRead;

use super::authentication::AuthenticationPool;
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
    /// `max.connection.creation.rate`: connections admitted a second in all; past
    /// it, accepting waits (as Kafka's acceptor does). `None`, Kafka's default
    /// (`Int.MaxValue`): unbounded.
    pub max_connection_creation_rate: Option<u32>,
    /// `connection_creation_rate`, Kafka's per-address connection rate quota (the
    /// default for every IP): connections a second from one address; past it, a
    /// new connection is closed at once. `None`, Kafka's default: unbounded.
    pub connection_creation_rate: Option<u32>,
    /// `sasl.server.max.receive.size`: the largest frame a connection may send
    /// before it has authenticated, on a listener that asks for authentication;
    /// a larger length prefix closes the connection before the frame is read.
    /// Such frames take nothing from the request budget. Kafka's default, 512 KiB.
    pub sasl_server_max_receive_size: usize,
    /// `connection.failed.authentication.delay.ms`: how long a failed
    /// authentication's answer waits before it is sent and the connection closed,
    /// so that guessing passwords is slow (the wait holds no thread). Kafka's
    /// default, 100 ms; 0 answers at once.
    pub connection_failed_authentication_delay: Duration,
    /// `sasl.server.authentication.threads` (no Kafka counterpart: Kafka
    /// authenticates on its `num.network.threads`, 3 by default): how many
    /// authentication steps (a PLAIN password's key derivation above all) may run
    /// at once, each on a blocking thread rather than the I/O threads. Default:
    /// half the cores, at least 1.
    pub sasl_server_authentication_threads: usize,
    /// `small.request.max.bytes` (no Kafka counterpart): requests this small (prefix
    /// included) come first from a reserve of their own, so that they are served
    /// while large requests hold the whole budget. The reserve is `max_connections`
    /// × this (each connection buffers one frame at a time, so then a small
    /// request never waits), but at most `queued.max.request.bytes`: with many
    /// connections it would otherwise dwarf the budget it backs up (1.2 GiB
    /// beside 512 MiB at 20,000 connections). Only logged-in connections draw on
    /// it: frames before authentication take from no budget. Default 64 KiB, above
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
    /// The largest frame before authentication (`sasl.server.max.receive.size`).
    pub max_receive_before_authentication: usize,
    /// How long a failed authentication waits for its answer.
    pub failed_authentication_delay: Duration,
    /// Where authentication steps run.
    pub authentication: AuthenticationPool,
}

impl ServerLimits {
    /// A frame reader of `io` within these limits, reporting to `slot`, for a
    /// listener where nobody authenticates.
    pub fn reader<R: AsyncRead + Unpin>(&self, io: R, slot: ConnectionSlot) -> FrameReader<R> {
        FrameReader::new(io, self.budget.clone())
            .with_max_frame_size(self.max_frame_size)
            .with_idle_timeout(self.idle_timeout)
            .with_slot(slot)
    }

    /// A frame reader as [`reader`](Self::reader) makes, for a connection that must
    /// authenticate: its frames are held to `sasl.server.max.receive.size` and take
    /// nothing from the budget until [`FrameReader::authenticated`].
    pub fn authenticating_reader<R: AsyncRead + Unpin>(
        &self,
        io: R,
        slot: ConnectionSlot,
    ) -> FrameReader<R> {
        self.reader(io, slot)
            .with_authentication(self.max_receive_before_authentication)
    }
}

/// The Kafka property names [`ServerConfig::set`] knows.
pub const PROPERTIES: [&str; 12] = [
    "queued.max.request.bytes",
    "queued.max.response.bytes",
    "socket.request.max.bytes",
    "max.connections",
    "max.connections.per.ip",
    "max.connection.creation.rate",
    "connection_creation_rate",
    "connections.max.idle.ms",
    "small.request.max.bytes",
    "sasl.server.max.receive.size",
    "connection.failed.authentication.delay.ms",
    "sasl.server.authentication.threads",
];

/// The property a command-line flag names: Kafka's name with dashes for its dots
/// and underscores (`--queued-max-request-bytes`, `--connection-creation-rate`),
/// if it is one of [`PROPERTIES`].
///
/// ```
/// use kwire_net::server::property_of_flag;
///
/// assert_eq!(property_of_flag("--max-connections"), Some("max.connections"));
/// assert_eq!(property_of_flag("--connection-creation-rate"), Some("connection_creation_rate"));
/// assert_eq!(property_of_flag("--max-connection"), None);
/// assert_eq!(property_of_flag("max-connections"), None);
/// ```
pub fn property_of_flag(flag: &str) -> Option<&'static str> {
    let flag = flag.strip_prefix("--")?;
    PROPERTIES
        .iter()
        .copied()
        .find(|name| name.replace(['.', '_'], "-") == flag)
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
            max_connection_creation_rate: None,
            connection_creation_rate: None,
            sasl_server_max_receive_size: 512 << 10,
            connection_failed_authentication_delay: Duration::from_millis(100),
            sasl_server_authentication_threads: AuthenticationPool::default_threads(),
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
        let rate =
            || u32::try_from(positive()?).map_err(|_| invalid("at most 4294967295 a second"));
        match name {
            "queued.max.request.bytes" => self.queued_max_request_bytes = positive()?,
            "max.connection.creation.rate" => self.max_connection_creation_rate = Some(rate()?),
            "connection_creation_rate" => self.connection_creation_rate = Some(rate()?),
            "sasl.server.max.receive.size" => {
                let bytes = positive()?;
                if bytes > i32::MAX as usize {
                    return Err(invalid("at most 2147483647"));
                }
                self.sasl_server_max_receive_size = bytes;
            }
            "connection.failed.authentication.delay.ms" => {
                let ms = value
                    .parse::<u64>()
                    .map_err(|_| invalid("milliseconds, 0 for none"))?;
                self.connection_failed_authentication_delay = Duration::from_millis(ms);
            }
            "sasl.server.authentication.threads" => {
                self.sasl_server_authentication_threads = positive()?
            }
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
            .saturating_mul(self.small_request_max_bytes)
            .min(self.queued_max_request_bytes);
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
            connections: ConnectionLimits::with_creation_rates(
                self.max_connections,
                self.max_connections_per_ip.unwrap_or(usize::MAX),
                self.max_connection_creation_rate,
                self.connection_creation_rate,
            ),
            max_frame_size: self.socket_request_max_bytes,
            idle_timeout: self.connections_max_idle,
            max_receive_before_authentication: self.sasl_server_max_receive_size,
            failed_authentication_delay: self.connection_failed_authentication_delay,
            authentication: AuthenticationPool::new(self.sasl_server_authentication_threads),
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
            (broker.max_connections * (64 << 10)).min(512 << 20)
        );
        assert_eq!(limits.max_receive_before_authentication, 512 << 10);
        assert_eq!(
            limits.failed_authentication_delay,
            Duration::from_millis(100)
        );
    }

    /// Issue 29: the reserve was logged at 1.22 GiB beside a 512 MiB budget.
    #[test]
    fn the_reserve_is_at_most_the_budget() {
        let mut config = ServerConfig::new(1);
        config.set("max.connections", "20000").unwrap();
        let limits = config.build().unwrap();
        assert_eq!(limits.budget.reserve_bytes(), 512 << 20);
        assert_eq!(limits.responses.reserve_bytes(), 512 << 20);
        config.set("max.connections", "100").unwrap();
        assert_eq!(config.build().unwrap().budget.reserve_bytes(), 100 << 16);
    }

    #[test]
    fn the_authentication_limits_are_set_by_kafkas_names() {
        let mut config = ServerConfig::new(1);
        for (property, value) in [
            ("sasl.server.max.receive.size", "1024"),
            ("connection.failed.authentication.delay.ms", "0"),
            ("max.connection.creation.rate", "50"),
            ("connection_creation_rate", "5"),
            ("sasl.server.authentication.threads", "3"),
        ] {
            assert!(config.set(property, value).unwrap(), "{property}");
        }
        let limits = config.build().unwrap();
        assert_eq!(limits.max_receive_before_authentication, 1024);
        assert_eq!(limits.failed_authentication_delay, Duration::ZERO);
        assert_eq!(limits.authentication.threads(), 3);
        assert!(config.set("sasl.server.max.receive.size", "0").is_err());
        assert!(config
            .set("connection_creation_rate", "99999999999")
            .is_err());
        assert!(config
            .set("connection.failed.authentication.delay.ms", "-1")
            .is_err());
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
