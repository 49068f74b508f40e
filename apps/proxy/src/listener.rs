//! Accepting clients: one accept loop per local listener, each forwarding to one
//! upstream broker, and the state all of them share.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use kwire_net::server::{ServerLimits, EVICTION_PATIENCE};
use tokio::net::TcpListener;
use tracing::{info, info_span, warn, Instrument};

use crate::connection;
use crate::error::chain;
use crate::routes::{BrokerAddress, Routes};
use crate::security::Security;
use crate::stats::Stats;
use crate::verify_queue::VerifyQueue;

/// What every listener and connection shares.
#[derive(Debug)]
pub struct Proxy {
    /// The counts reported at the end.
    pub stats: Stats,
    /// Which local listener stands for which broker.
    pub routes: Routes,
    /// Numbers connections for the logs.
    next_connection: AtomicU64,
    /// What bounds memory, connections and waits.
    pub limits: Limits,
    /// The checks of frames already forwarded.
    pub verify_queue: VerifyQueue,
    /// TLS and SASL, on the clients' side and upstream.
    pub security: Security,
}

/// The proxy's limits: on its clients as a broker's (shared by every listener, as
/// the process's memory and descriptors are), and on what upstream may make it
/// buffer and wait for.
#[derive(Debug)]
pub struct Limits {
    /// Client connections, request bytes, request size, idle timeout; and the
    /// response bytes buffered from upstream across connections
    /// (`clients.responses`, with a reserve for small responses as small requests
    /// have, so that a few huge Fetch answers do not hold up every Metadata one).
    pub clients: ServerLimits,
    /// The largest response frame accepted from upstream.
    pub max_response_frame: usize,
    /// How long the oldest request may wait for its answer (request.timeout.ms).
    pub request_timeout: Duration,
}

impl Proxy {
    /// A proxy with nothing counted yet.
    pub fn new(routes: Routes, limits: Limits, security: Security) -> Self {
        Proxy {
            security,
            stats: Stats::default(),
            routes,
            next_connection: AtomicU64::new(1),
            limits,
            verify_queue: VerifyQueue::default(),
        }
    }
}

/// Accepts clients on `listener` for ever, on a task of its own, each client on its
/// own task forwarding to `upstream`.
///
/// A plain function rather than an `async fn` spawned by its callers: connections
/// open listeners (for brokers they learn of), so the accept loop's future would
/// otherwise contain itself, and the compiler could not tell whether it is `Send`.
pub fn spawn(listener: TcpListener, upstream: BrokerAddress, proxy: Arc<Proxy>) {
    tokio::spawn(serve(listener, upstream, proxy));
}

async fn serve(listener: TcpListener, upstream: BrokerAddress, proxy: Arc<Proxy>) {
    loop {
        match listener.accept().await {
            Ok((client, peer)) => {
                // Admitted before the upstream connection is opened: each client
                // costs two descriptors, and the limit counts pairs.
                let admitted = proxy
                    .limits
                    .clients
                    .connections
                    .admit_when_room(peer.ip(), EVICTION_PATIENCE)
                    .await;
                let slot = match admitted {
                    Ok(slot) => slot,
                    Err(error) => {
                        info!(client = %peer, "connection refused: {error}");
                        continue;
                    }
                };
                let id = proxy.next_connection.fetch_add(1, Ordering::Relaxed);
                let span = info_span!("conn", id, client = %peer, upstream = %upstream);
                let task = connection::run(client, slot, upstream.clone(), Arc::clone(&proxy));
                tokio::spawn(task.instrument(span));
            }
            Err(error) => {
                // Typically out of file descriptors: the listener still works once
                // connections close, so wait a little rather than spin or give up.
                warn!(upstream = %upstream, "accept failed: {}", chain(&error));
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}
