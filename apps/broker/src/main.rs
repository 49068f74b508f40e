//! A single-node, in-memory Kafka broker built on kafka-wire: enough of Kafka for
//! real producers and consumers, consumer groups included.
//!
//! ```text
//! cargo run -p kwire-broker -- --listen 127.0.0.1:9092   # or: cargo install --path apps/broker
//! kcat -b 127.0.0.1:9092 -P -t orders <<< 'hello'
//! kcat -b 127.0.0.1:9092 -C -t orders -e
//! ```
//!
//! Options: `--listen HOST:PORT` (default `127.0.0.1:9092`; port 0 picks a free
//! one), `--advertise HOST:PORT` (the address clients are told, default the bound
//! one), `--partitions N` (for auto-created topics and CreateTopics without a
//! count, default 1) and `--no-auto-create`.
//!
//! Limits on what a request may make it allocate or wait for:
//! `--max-partitions-per-topic N` (default 1000), `--max-partitions N` (all topics
//! together, auto-created ones included, default 10000), `--fetch-max-bytes N`
//! (Kafka's `fetch.max.bytes`, default 57671680), `--fetch-max-wait-ms N` (the
//! longest Fetch long poll, default 30000), `--group-max-size N` (Kafka's
//! `group.max.size`, default 1000) and `--offset-metadata-max-bytes N` (Kafka's
//! `offset.metadata.max.bytes`, default 4096); `--log-max-bytes N` (record bytes
//! all partition logs hold together, default 4 GiB; a Produce past it is answered
//! KAFKA_STORAGE_ERROR, as a Kafka broker with a full disk answers).
//!
//! Limits on connections and the memory they hold, by Kafka's names:
//! `--queued-max-request-bytes` (request bytes buffered across connections,
//! default 512 MiB; reading pauses while they are spent),
//! `--socket-request-max-bytes` (largest request, 100 MiB), `--max-connections`
//! (default: the open-files limit less 64; at the limit the connection idle longest
//! is closed to admit a new one), `--max-connections-per-ip` (default: none, as
//! Kafka's; a full address is refused rather than evicted from),
//! `--connections-max-idle-ms` (600000; -1 never) and `--small-request-max-bytes`
//! (64 KiB: requests this small come from a reserve of max connections × this, so
//! they are served while large ones hold the budget), `--queued-max-response-bytes`
//! (512 MiB: answers built and not yet written, Fetch's copies of stored batches
//! included; taken before they are built, so clients that never read wait).
//!
//! Authentication: `--sasl-user NAME:PASSWORD` (repeatable) makes the listener
//! SASL_PLAINTEXT, each user stored as salted SCRAM credentials;
//! `--sasl-enabled-mechanisms` (default `PLAIN,SCRAM-SHA-256,SCRAM-SHA-512`) and
//! `--connections-max-reauth-ms` (sessions end unless the client re-authenticates,
//! KIP-368). A connection that sends anything but ApiVersions before it has
//! authenticated is closed, as Kafka's broker closes it (`security.rs`).
//!
//! It prints `listening on ADDRESS` once bound and logs one line per request at
//! debug level (`RUST_LOG=debug`). SIGINT or SIGTERM stops it.
//!
//! What it serves is listed in `api.rs`; the layout follows a request's way:
//! `connection.rs` reads frames and answers them in order, `api.rs` picks the
//! handler, `handlers/` answers each API from the partition logs (`log.rs`) and
//! the group coordinator (`groups.rs`), and `held.rs` keeps the response budget
//! an answer takes until it is written.

mod api;
mod config;
mod connection;
mod groups;
mod handlers;
mod held;
mod log;
mod security;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kwire_net::server::{MemoryBudget, ServerLimits, EVICTION_PATIENCE};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::config::Config;
use crate::groups::Groups;
use crate::log::Topics;

/// Everything the connections share.
pub struct Broker {
    /// The command line's settings.
    pub config: Config,
    /// Every topic and partition log.
    pub topics: Mutex<Topics>,
    /// The group coordinator.
    pub groups: Mutex<Groups>,
    /// Bumped after every append, to wake Fetch requests waiting for data.
    pub appended: watch::Sender<u64>,
    /// The next ID InitProducerId hands out.
    pub next_producer_id: AtomicI64,
    /// What answers may hold until written (`--queued-max-response-bytes`).
    pub responses: MemoryBudget,
    /// Who may connect, when SASL is on.
    pub security: Option<security::Security>,
}

impl Broker {
    /// The topics; a handler that panicked while holding the lock cannot have left
    /// them half-written (every change is one call), so a poisoned lock is used.
    pub fn topics(&self) -> std::sync::MutexGuard<'_, Topics> {
        self.topics.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The group coordinator, locked (as [`topics`](Self::topics)).
    pub fn groups(&self) -> std::sync::MutexGuard<'_, Groups> {
        self.groups.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let options = match config::Options::from_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(error) => {
            eprintln!("broker: {error}\n{}", config::USAGE);
            return ExitCode::from(2);
        }
    };
    // Limits that cannot hold together are a usage error, found before starting.
    let limits = match options.server.build() {
        Ok(limits) => limits,
        Err(error) => {
            eprintln!("broker: {error}\n{}", config::USAGE);
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("broker: cannot start tokio: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(options, limits)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("broker: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(mut options: config::Options, limits: ServerLimits) -> std::io::Result<()> {
    let listener = TcpListener::bind(&options.listen).await?;
    let bound = listener.local_addr()?;
    let config = Config::new(&options, bound);
    println!("listening on {bound}");
    std::io::stdout().flush()?;
    tracing::info!(
        advertised = %format!("{}:{}", config.host, config.port),
        max_connections = limits.connections.max(),
        queued_max_request_bytes = limits.budget.bytes(),
        queued_max_response_bytes = limits.responses.bytes(),
        small_request_reserve_bytes = limits.budget.reserve_bytes(),
        security_protocol = if options.security.is_some() { "SASL_PLAINTEXT" } else { "PLAINTEXT" },
        "serving Kafka"
    );

    let broker = Arc::new(Broker {
        config,
        topics: Mutex::new(Topics::default()),
        groups: Mutex::new(Groups::default()),
        appended: watch::channel(0).0,
        next_producer_id: AtomicI64::new(1000),
        responses: limits.responses.clone(),
        security: options.security.take(),
    });
    tokio::spawn(expire_group_members(Arc::clone(&broker)));

    let accept = async {
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
                        let (reader, writer) = stream.into_split();
                        let frames = limits.reader(reader, slot);
                        tokio::spawn(connection::serve(Arc::clone(&broker), frames, writer, peer));
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
    };
    tokio::select! {
        () = accept => Ok(()),
        signal = shutdown_signal() => {
            tracing::info!("{}, stopping", signal?);
            Ok(())
        }
    }
}

/// Session and rebalance timeouts need a clock that runs without requests.
async fn expire_group_members(broker: Arc<Broker>) {
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    loop {
        tick.tick().await;
        broker.groups().tick(Instant::now());
    }
}

async fn shutdown_signal() -> std::io::Result<&'static str> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut terminate = signal(SignalKind::terminate())?;
    tokio::select! {
        result = tokio::signal::ctrl_c() => result.map(|()| "SIGINT"),
        _ = terminate.recv() => Ok("SIGTERM"),
    }
}
