//! The port-per-broker map: each upstream broker address is reached through a local
//! listener of its own, as Kroxylicious does it.
//!
//! A Kafka client connects to a bootstrap address, then to whichever brokers the
//! responses name (Metadata, FindCoordinator, a Produce or Fetch response's new
//! partition leaders, ...: `rewrite.rs` has the list). A proxy that let those
//! addresses through would see only the bootstrap traffic; so each broker address
//! gets a local port, opened the first time a response names the broker, and
//! responses are rewritten to name the local port. The bootstrap upstream is reached through
//! the `--listen` address.

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::ops::RangeInclusive;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::Mutex;
use tracing::info;

use crate::error::ProxyError;
use crate::listener::{self, Proxy};

/// A broker's address as Kafka spells it: a host name or IP, and a port.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BrokerAddress {
    // Lower-cased: host names are case-insensitive, and one broker must not get two
    // listeners because two responses spelled it differently.
    host: String,
    port: u16,
}

impl BrokerAddress {
    /// An address from a response's host and port fields.
    pub fn new(host: &str, port: i32) -> Result<Self, ProxyError> {
        let port = u16::try_from(port)
            .ok()
            .filter(|port| *port != 0)
            .ok_or(ProxyError::BadPort(port))?;
        Ok(BrokerAddress {
            host: host.to_ascii_lowercase(),
            port,
        })
    }

    /// Parses `HOST:PORT` (an IPv6 host in brackets: `[::1]:9092`).
    pub fn parse(text: &str) -> Result<Self, ProxyError> {
        let bad = || ProxyError::Usage(format!("{text:?} is not HOST:PORT"));
        let (host, port) = text.rsplit_once(':').ok_or_else(bad)?;
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        let port: i32 = port.parse().map_err(|_| bad())?;
        if host.is_empty() {
            return Err(bad());
        }
        BrokerAddress::new(host, port)
    }

    /// The host, for connecting.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The port, for connecting.
    pub fn port(&self) -> u16 {
        self.port
    }
}

impl fmt::Display for BrokerAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.host.contains(':') {
            write!(f, "[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{}:{}", self.host, self.port)
        }
    }
}

/// Upstream broker address → local listener address.
#[derive(Debug)]
pub struct Routes {
    /// The IP the local listeners bind to and responses advertise.
    ip: IpAddr,
    /// The ports new listeners may take; any free port when `None`. A range lets a
    /// firewall, or a test confined to some ports, know where brokers will appear.
    ports: Option<RangeInclusive<u16>>,
    // A tokio mutex, held while a new listener binds: two connections that learn of
    // the same broker at once must end up with one listener, not two.
    table: Mutex<HashMap<BrokerAddress, SocketAddr>>,
}

impl Routes {
    /// Routes where `bootstrap` is reached through `listen`, and listeners for
    /// other brokers bind to `listen`'s IP, on a port of `ports` (or any).
    pub fn new(
        bootstrap: BrokerAddress,
        listen: SocketAddr,
        ports: Option<RangeInclusive<u16>>,
    ) -> Self {
        Routes {
            ip: listen.ip(),
            ports,
            table: Mutex::new(HashMap::from([(bootstrap, listen)])),
        }
    }

    /// A listener on a free port: any, or the first free one of the range.
    async fn bind(&self) -> Result<TcpListener, ProxyError> {
        let Some(ports) = self.ports.clone() else {
            return Ok(TcpListener::bind((self.ip, 0)).await?);
        };
        for port in ports {
            match TcpListener::bind((self.ip, port)).await {
                Ok(listener) => return Ok(listener),
                Err(error) if error.kind() == io::ErrorKind::AddrInUse => continue,
                Err(error) => return Err(error.into()),
            }
        }
        Err(ProxyError::NoFreePort)
    }
}

/// The local address through which clients reach `upstream`, opening a listener
/// for it (on a free port, forwarding to `upstream`) the first time it is asked.
pub async fn local_for(
    proxy: &Arc<Proxy>,
    upstream: &BrokerAddress,
) -> Result<SocketAddr, ProxyError> {
    let mut table = proxy.routes.table.lock().await;
    if let Some(local) = table.get(upstream) {
        return Ok(*local);
    }
    let listener = proxy.routes.bind().await?;
    let local = listener.local_addr()?;
    info!(%upstream, %local, "new broker: listening for it");
    listener::spawn(listener, upstream.clone(), Arc::clone(proxy));
    table.insert(upstream.clone(), local);
    Ok(local)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_and_compare_without_case() {
        let a = BrokerAddress::parse("LocalHost:9092").unwrap();
        assert_eq!(a, BrokerAddress::new("localhost", 9092).unwrap());
        assert_eq!(a.to_string(), "localhost:9092");
        let v6 = BrokerAddress::parse("[::1]:9092").unwrap();
        assert_eq!((v6.host(), v6.port()), ("::1", 9092));
        assert_eq!(v6.to_string(), "[::1]:9092");
        for bad in ["9092", ":9092", "h:", "h:0", "h:70000", "h:-1"] {
            assert!(BrokerAddress::parse(bad).is_err(), "{bad}");
        }
    }
}
