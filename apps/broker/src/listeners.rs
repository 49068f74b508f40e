//! Listeners, each an address with one of Kafka's security protocols:
//! PLAINTEXT, SSL (TLS), SASL_PLAINTEXT, SASL_SSL (SASL inside TLS).
//!
//! All listeners share the broker's limits: one connection count, one request
//! budget, one response budget. A TLS connection takes its slot before the
//! handshake, so that handshakes count against `--max-connections` as any
//! connection does; a handshake is bounded by the handshake timeout (the idle
//! timeout if that is shorter) and, not having sent a request yet, a handshaking
//! connection is the first to be evicted at the limit.
//!
//! A client is told, in Metadata, FindCoordinator and DescribeCluster, the
//! address of the listener it connected on, so that it stays on that security
//! protocol: the handlers answer with the first listener's address (the broker's
//! [`Config`](crate::config::Config)) and [`Endpoint::advertise`] puts the
//! connection's listener's in its place.

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use kwire::KafkaString;
use kwire_messages::Response;
use kwire_net::server::{ConnectionSlot, FrameReader, ServerLimits, EVICTION_PATIENCE};
use kwire_net::tls::TlsServer;
use tokio::io::AsyncRead;
use tokio::net::{TcpListener, TcpStream};

use crate::config::UsageError;
use crate::connection;
use crate::Broker;

/// Kafka's `security.protocol` values, as a listener's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Plaintext,
    Ssl,
    SaslPlaintext,
    SaslSsl,
}

impl Protocol {
    pub const ALL: [Protocol; 4] = [
        Protocol::Plaintext,
        Protocol::Ssl,
        Protocol::SaslPlaintext,
        Protocol::SaslSsl,
    ];

    /// Kafka's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Plaintext => "PLAINTEXT",
            Protocol::Ssl => "SSL",
            Protocol::SaslPlaintext => "SASL_PLAINTEXT",
            Protocol::SaslSsl => "SASL_SSL",
        }
    }

    /// Whether connections must authenticate with SASL.
    pub fn sasl(self) -> bool {
        matches!(self, Protocol::SaslPlaintext | Protocol::SaslSsl)
    }

    /// Whether connections are TLS.
    pub fn tls(self) -> bool {
        matches!(self, Protocol::Ssl | Protocol::SaslSsl)
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A listener as given: its protocol and the `HOST:PORT` to bind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListenerSpec {
    pub protocol: Protocol,
    pub address: String,
}

impl ListenerSpec {
    /// `PROTOCOL://HOST:PORT`, as in Kafka's `listeners` (whose listener name is
    /// the protocol's here).
    pub fn parse(given: &str) -> Result<ListenerSpec, UsageError> {
        let bad = || {
            UsageError::new(format!(
                "--listener {given}: not PROTOCOL://HOST:PORT, PROTOCOL one of \
                 PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL"
            ))
        };
        let (name, address) = given.split_once("://").ok_or_else(bad)?;
        let protocol = Protocol::ALL
            .into_iter()
            .find(|protocol| protocol.name().eq_ignore_ascii_case(name))
            .ok_or_else(bad)?;
        let (host, port) = address.rsplit_once(':').ok_or_else(bad)?;
        if host.is_empty() || port.parse::<u16>().is_err() {
            return Err(bad());
        }
        Ok(ListenerSpec {
            protocol,
            address: address.to_owned(),
        })
    }
}

/// A bound listener, as its connections see it.
pub struct Endpoint {
    pub protocol: Protocol,
    /// The certificate and key, on SSL and SASL_SSL listeners.
    pub tls: Option<TlsServer>,
    /// The address clients are told.
    pub host: KafkaString,
    pub port: i32,
}

impl Endpoint {
    /// Tells the client this listener's address wherever `response` gives ours.
    pub fn advertise(&self, response: &mut Response, node_id: i32) {
        let ours = |id: i32, port: i32| id == node_id && port >= 0;
        match response {
            Response::Metadata(metadata) => {
                for broker in &mut metadata.brokers {
                    if ours(broker.node_id, broker.port) {
                        broker.host = self.host.clone();
                        broker.port = self.port;
                    }
                }
            }
            Response::DescribeCluster(cluster) => {
                for broker in &mut cluster.brokers {
                    if ours(broker.broker_id, broker.port) {
                        broker.host = self.host.clone();
                        broker.port = self.port;
                    }
                }
            }
            Response::FindCoordinator(found) => {
                if ours(found.node_id, found.port) {
                    found.host = self.host.clone();
                    found.port = self.port;
                }
                for coordinator in &mut found.coordinators {
                    if ours(coordinator.node_id, coordinator.port) {
                        coordinator.host = self.host.clone();
                        coordinator.port = self.port;
                    }
                }
            }
            _ => {}
        }
    }
}

/// The longest a TLS handshake may take: kwire-net's default, or the idle
/// timeout if that is shorter (a handshake is a connection that has sent no
/// request yet).
pub fn handshake_timeout(idle_timeout: Option<Duration>) -> Duration {
    let default = kwire_net::tls::DEFAULT_HANDSHAKE_TIMEOUT;
    idle_timeout.map_or(default, |idle| idle.min(default))
}

/// Accepts connections on `listener` for ever, each served in its own task.
pub async fn accept(
    listener: TcpListener,
    endpoint: Arc<Endpoint>,
    broker: Arc<Broker>,
    limits: Arc<ServerLimits>,
) {
    loop {
        match listener.accept().await {
            // Waits (EVICTION_PATIENCE at most) for a connection evicted to
            // make room to be gone, so that descriptors never run out at the limit.
            Ok((stream, peer)) => match limits
                .connections
                .admit_when_room(peer.ip(), EVICTION_PATIENCE)
                .await
            {
                Ok(slot) => {
                    let _ = stream.set_nodelay(true);
                    tokio::spawn(open(
                        stream,
                        peer,
                        slot,
                        Arc::clone(&endpoint),
                        Arc::clone(&broker),
                        Arc::clone(&limits),
                    ));
                }
                // Dropping the stream closes it before anything is read.
                Err(error) => tracing::info!(%peer, %error, "connection refused"),
            },
            // Out of file descriptors and the like: wait, the listener stays.
            Err(error) => {
                tracing::warn!(%error, "accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// One admitted connection: its TLS handshake if the listener has TLS, then its
/// requests.
async fn open(
    stream: TcpStream,
    peer: SocketAddr,
    slot: ConnectionSlot,
    endpoint: Arc<Endpoint>,
    broker: Arc<Broker>,
    limits: Arc<ServerLimits>,
) {
    let Some(tls) = &endpoint.tls else {
        let (read, writer) = stream.into_split();
        let frames = frame_reader(&limits, endpoint.protocol, read, slot);
        return connection::serve(broker, Arc::clone(&endpoint), frames, writer, peer).await;
    };
    let stream = tokio::select! {
        accepted = tls.accept(stream) => match accepted {
            Ok(stream) => stream,
            // A client that does not trust our certificate, or speaks no TLS:
            // its business, not the broker's trouble.
            Err(error) => {
                tracing::info!(%peer, listener = %endpoint.protocol, %error, "TLS handshake failed");
                return;
            }
        },
        () = slot.evicted() => {
            tracing::debug!(%peer, "evicted during the TLS handshake");
            return;
        }
    };
    let (read, writer) = tokio::io::split(stream);
    let frames = frame_reader(&limits, endpoint.protocol, read, slot);
    connection::serve(broker, Arc::clone(&endpoint), frames, writer, peer).await;
}

/// The connection's frames within the limits: on a SASL listener held to
/// `sasl.server.max.receive.size`, and taking nothing from the request budget,
/// until the connection has logged in.
fn frame_reader<R: AsyncRead + Unpin>(
    limits: &ServerLimits,
    protocol: Protocol,
    io: R,
    slot: ConnectionSlot,
) -> FrameReader<R> {
    if protocol.sasl() {
        limits.authenticating_reader(io, slot)
    } else {
        limits.reader(io, slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Limits;
    use crate::handlers::testing;
    use kwire_messages::api::{DescribeClusterRequest, FindCoordinatorRequest, MetadataRequest};

    #[test]
    fn listeners_are_read_by_protocol() {
        let spec = ListenerSpec::parse("SASL_SSL://127.0.0.1:0").unwrap();
        assert_eq!(spec.protocol, Protocol::SaslSsl);
        assert_eq!(spec.address, "127.0.0.1:0");
        assert!(spec.protocol.sasl() && spec.protocol.tls());
        let spec = ListenerSpec::parse("ssl://[::1]:9093").unwrap();
        assert_eq!(
            (spec.protocol, spec.address.as_str()),
            (Protocol::Ssl, "[::1]:9093")
        );
        for bad in [
            "127.0.0.1:9092",
            "TLS://127.0.0.1:9092",
            "PLAINTEXT://127.0.0.1",
            "PLAINTEXT://:9092",
            "PLAINTEXT://127.0.0.1:99999",
        ] {
            assert!(ListenerSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_handshake_is_bounded_by_the_idle_timeout_when_shorter() {
        let default = kwire_net::tls::DEFAULT_HANDSHAKE_TIMEOUT;
        assert_eq!(handshake_timeout(None), default);
        assert_eq!(
            handshake_timeout(Some(Duration::from_millis(500))),
            Duration::from_millis(500)
        );
        assert_eq!(handshake_timeout(Some(default * 60)), default);
    }

    /// Every answer the handlers give with our address gets the endpoint's.
    #[tokio::test]
    async fn answers_name_the_listener_connected_on() {
        let broker = testing::broker(Limits::default());
        let endpoint = Endpoint {
            protocol: Protocol::SaslSsl,
            tls: None,
            host: KafkaString::from("tls.example"),
            port: 19093,
        };
        let node = broker.config.node_id;
        let metadata = crate::handlers::metadata::answer(
            &broker,
            MetadataRequest::default().with_topics(Some(vec![])),
            12,
        );
        let mut coordinator_v4 = FindCoordinatorRequest::default();
        coordinator_v4.coordinator_keys = vec![KafkaString::from("g")];
        let mut coordinator_v3 = FindCoordinatorRequest::default();
        coordinator_v3.key = KafkaString::from("g");
        let mut answers = vec![
            Response::Metadata(metadata),
            Response::FindCoordinator(crate::handlers::coordinator::find(
                &broker,
                coordinator_v4,
                4,
            )),
            Response::FindCoordinator(crate::handlers::coordinator::find(
                &broker,
                coordinator_v3,
                3,
            )),
            Response::DescribeCluster(crate::handlers::metadata::describe_cluster(
                &broker,
                DescribeClusterRequest::default(),
            )),
        ];
        for answer in &mut answers {
            endpoint.advertise(answer, node);
        }
        let addresses: Vec<(String, i32)> = answers
            .iter()
            .flat_map(|answer| match answer {
                Response::Metadata(m) => m
                    .brokers
                    .iter()
                    .map(|b| (b.host.to_string(), b.port))
                    .collect::<Vec<_>>(),
                Response::FindCoordinator(f) if f.coordinators.is_empty() => {
                    vec![(f.host.to_string(), f.port)]
                }
                Response::FindCoordinator(f) => f
                    .coordinators
                    .iter()
                    .map(|c| (c.host.to_string(), c.port))
                    .collect(),
                Response::DescribeCluster(d) => d
                    .brokers
                    .iter()
                    .map(|b| (b.host.to_string(), b.port))
                    .collect(),
                _ => vec![],
            })
            .collect();
        assert_eq!(addresses, vec![("tls.example".to_owned(), 19093); 4]);
    }
}
