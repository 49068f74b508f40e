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
//! Listeners (`listeners.rs`), by Kafka's security protocols: `--listen` is
//! PLAINTEXT, or SASL_PLAINTEXT with `--sasl-user`; `--listener
//! PROTOCOL://HOST:PORT` (repeatable; PLAINTEXT, SSL, SASL_PLAINTEXT or
//! SASL_SSL) adds one, and without `--listen` only those given listen. SSL and
//! SASL_SSL need `--tls-cert FILE --tls-key FILE` (PEM: the chain, server's
//! certificate first, and its private key); SASL ones need a `--sasl-user` or
//! `--sasl-users-file`.
//! `--advertise` is the first listener's; the others advertise their bound
//! address, and each client is told the address of the listener it came in on.
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
//! among those that have not logged in is closed to admit a new one, and with
//! none such the newcomer is refused: a logged-in client is never closed for a
//! stranger), `--max-connections-per-ip` (default: none, as Kafka's; a full
//! address is refused rather than evicted from), `--max-connection-creation-rate`
//! (connections a second in all, default unbounded; accepting waits past it, as
//! Kafka's acceptor does), `--connection-creation-rate` (Kafka's per-IP
//! `connection_creation_rate` quota, for every address; default unbounded; a
//! connection past it is closed at once),
//! `--connections-max-idle-ms` (600000; -1 never) and `--small-request-max-bytes`
//! (64 KiB: requests this small come from a reserve of max connections × this, so
//! they are served while large ones hold the budget), `--queued-max-response-bytes`
//! (512 MiB: answers built and not yet written, the stored batches a Fetch's
//! frame holds included; taken before they are built, so clients that never read
//! wait).
//!
//! Limits before authentication, on SASL listeners, by Kafka's names:
//! `--sasl-server-max-receive-size` (512 KiB: until a connection has logged in,
//! a larger frame closes it before it is read, and its frames take nothing
//! from the request budget), `--connection-failed-authentication-delay-ms`
//! (100: a failed login's answer waits that long, then the connection closes)
//! and `--sasl-server-authentication-threads` (half the cores: credential
//! checks, a PLAIN password's key derivation above all, run off the I/O
//! threads, at most this many at once). Re-authentication is taken only with
//! `--connections-max-reauth-ms` (or an OAUTHBEARER token's lifetime), and at
//! most once a second.
//!
//! Authentication: `--sasl-user NAME:PASSWORD` (repeatable) makes `--listen`'s
//! listener SASL_PLAINTEXT, each user stored as salted SCRAM credentials.
//! `--sasl-users-file FILE` does too with credentials salted already, as Kafka
//! stores what AlterUserScramCredentials sets, so that no password is on disk:
//! one `NAME MECHANISM CREDENTIAL` a line (`#` starts a comment), MECHANISM
//! `SCRAM-SHA-256` or `SCRAM-SHA-512`, CREDENTIAL Kafka's text form
//! `salt=<base64>,stored_key=<base64>,server_key=<base64>,iterations=<n>`;
//! `kwire scram-credential NAME` makes such a line. A user logs in with SCRAM by
//! the mechanisms it has a line for, and with PLAIN; a bad line stops the start
//! (`users_file.rs`). The two combine, for different users. With users come
//! `--sasl-enabled-mechanisms` (default `PLAIN,SCRAM-SHA-256,SCRAM-SHA-512`) and
//! `--connections-max-reauth-ms` (sessions end unless the client re-authenticates,
//! KIP-368); `--sasl-oauthbearer-unsecured` adds OAUTHBEARER with Kafka's unsecured
//! JWS validator (tests only: no signature is checked). A connection that sends
//! anything but ApiVersions before it has authenticated is closed, as Kafka's
//! broker closes it (`security.rs`).
//!
//! It prints `listening on ADDRESS` once bound, for the first listener, then
//! `listening on ADDRESS (PROTOCOL)` for each other one, and logs one line per
//! request at debug level (`RUST_LOG=debug`). SIGINT or SIGTERM stops it.
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
mod listeners;
mod log;
mod security;
mod topic_configs;
mod transactions;
mod users_file;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kwire::KafkaString;
use kwire_net::server::{AuthenticationPool, MemoryBudget, ServerLimits};
use kwire_net::tls::TlsServer;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::config::Config;
use crate::groups::Groups;
use crate::listeners::Endpoint;
use crate::log::Topics;
use crate::transactions::Transactions;

/// Everything the connections share.
pub struct Broker {
    /// The command line's settings.
    pub config: Config,
    /// Every topic and partition log.
    pub topics: Mutex<Topics>,
    /// The group coordinator.
    pub groups: Mutex<Groups>,
    /// The transaction coordinator; locked before `topics` and `groups`
    /// when a transaction's end writes to both.
    pub transactions: Mutex<Transactions>,
    /// Bumped after every append, to wake Fetch requests waiting for data.
    pub appended: watch::Sender<u64>,
    /// The next ID InitProducerId hands out.
    pub next_producer_id: AtomicI64,
    /// What answers may hold until written (`--queued-max-response-bytes`).
    pub responses: MemoryBudget,
    /// Who may connect on SASL listeners.
    pub security: Option<security::Security>,
    /// Where SASL steps that check credentials run (off the I/O threads).
    pub authentication: AuthenticationPool,
    /// How long a failed authentication waits before it is answered and closed
    /// (`--connection-failed-authentication-delay-ms`).
    pub failed_authentication_delay: Duration,
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

    /// The transaction coordinator, locked (as [`topics`](Self::topics)).
    pub fn transactions(&self) -> std::sync::MutexGuard<'_, Transactions> {
        self.transactions.lock().unwrap_or_else(|e| e.into_inner())
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
    // Read before anything is bound, so that a bad file stops the start.
    let tls = match &options.tls {
        None => None,
        Some(files) => match TlsServer::from_pem_files(&files.cert, &files.key) {
            Ok(tls) => {
                Some(tls.with_handshake_timeout(listeners::handshake_timeout(limits.idle_timeout)))
            }
            Err(error) => {
                eprintln!("broker: --tls-cert / --tls-key: {error}");
                return ExitCode::FAILURE;
            }
        },
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("broker: cannot start tokio: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(options, limits, tls)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("broker: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(
    mut options: config::Options,
    limits: ServerLimits,
    tls: Option<TlsServer>,
) -> std::io::Result<()> {
    let mut bound = Vec::with_capacity(options.listeners.len());
    for spec in &options.listeners {
        let listener = TcpListener::bind(&spec.address).await.map_err(|error| {
            std::io::Error::new(
                error.kind(),
                format!("cannot listen on {}: {error}", spec.address),
            )
        })?;
        let tls = match (spec.protocol.tls(), &tls) {
            (false, _) => None,
            (true, Some(tls)) => Some(tls.clone()),
            // The command line requires a certificate with a TLS listener.
            (true, None) => return Err(std::io::Error::other("a TLS listener, no certificate")),
        };
        bound.push((listener.local_addr()?, listener, spec.protocol, tls));
    }
    let Some(&(first, ..)) = bound.first() else {
        return Err(std::io::Error::other("no listener"));
    };
    let config = Config::new(&options, first);
    let mut stdout = std::io::stdout().lock();
    // The first line as it has always been, for the tools that read it; the
    // others name their protocol.
    for (index, (address, _, protocol, _)) in bound.iter().enumerate() {
        if index == 0 {
            writeln!(stdout, "listening on {address}")?;
        } else {
            writeln!(stdout, "listening on {address} ({protocol})")?;
        }
    }
    stdout.flush()?;
    drop(stdout);

    let mut endpoints = Vec::with_capacity(bound.len());
    for (index, (address, listener, protocol, tls)) in bound.into_iter().enumerate() {
        let (host, port) = if index == 0 {
            (config.host.clone(), config.port)
        } else {
            let host = KafkaString::from(address.ip().to_string());
            (host, i32::from(address.port()))
        };
        tracing::info!(listener = %protocol, advertised = %format!("{host}:{port}"), "listening");
        let endpoint = Endpoint {
            protocol,
            tls,
            host,
            port,
        };
        endpoints.push((listener, Arc::new(endpoint)));
    }
    tracing::info!(
        max_connections = limits.connections.max(),
        queued_max_request_bytes = limits.budget.bytes(),
        queued_max_response_bytes = limits.responses.bytes(),
        small_request_reserve_bytes = limits.budget.reserve_bytes(),
        sasl_server_max_receive_size = limits.max_receive_before_authentication,
        sasl_server_authentication_threads = limits.authentication.threads(),
        "serving Kafka"
    );

    let broker = Arc::new(Broker {
        config,
        topics: Mutex::new(Topics::default()),
        groups: Mutex::new(Groups::default()),
        transactions: Mutex::new(Transactions::default()),
        appended: watch::channel(0).0,
        next_producer_id: AtomicI64::new(1000),
        responses: limits.responses.clone(),
        security: options.security.take(),
        authentication: limits.authentication.clone(),
        failed_authentication_delay: limits.failed_authentication_delay,
    });
    tokio::spawn(tick_timeouts(Arc::clone(&broker)));

    let limits = Arc::new(limits);
    for (listener, endpoint) in endpoints {
        tokio::spawn(listeners::accept(
            listener,
            endpoint,
            Arc::clone(&broker),
            Arc::clone(&limits),
        ));
    }
    let signal = shutdown_signal().await?;
    tracing::info!("{signal}, stopping");
    Ok(())
}

/// Session, rebalance and transaction timeouts need a clock that runs without
/// requests.
async fn tick_timeouts(broker: Arc<Broker>) {
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    loop {
        tick.tick().await;
        broker.groups().tick(Instant::now());
        handlers::transactions::expire(&broker, Instant::now());
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
