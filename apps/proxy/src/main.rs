//! A verifying Kafka proxy: forwards Kafka clients to a broker, decodes every
//! request and response on the way with `kwire-messages`, checks that each
//! decoded value re-encodes to the same value, and counts what it saw per API.
//!
//! ```text
//! cargo run -p kwire-proxy -- \
//!     --listen 127.0.0.1:9192 --upstream 127.0.0.1:9092 \
//!     [--report report.json] [--broker-ports 9193-9199] \
//!     [--tls-cert proxy.pem --tls-key proxy.key] \
//!     [--sasl-user alice:alice-secret ...] [--sasl-enabled-mechanisms SCRAM-SHA-512] \
//!     [--upstream-tls-ca ca.pem] [--upstream-tls-server-name broker.example] \
//!     [--upstream-sasl SCRAM-SHA-512:proxy:proxy-secret]
//! ```
//!
//! - Prints `listening on 127.0.0.1:PORT` once bound (`--listen 127.0.0.1:0` picks a
//!   free port), then logs to stderr (`RUST_LOG`, default `info`; `debug` logs
//!   every frame, and the hex of any frame that fails verification).
//! - Broker addresses in responses are rewritten to local ports, one listener per
//!   broker, so that clients connect only through the proxy: Metadata,
//!   FindCoordinator and DescribeCluster brokers; the `node_endpoints` of Produce
//!   (v10+), Fetch (v16+), ShareFetch and ShareAcknowledge (new partition leaders);
//!   DescribeQuorum's controller listeners (v2+); and the leader endpoints of the
//!   KRaft RPCs (Vote, BeginQuorumEpoch, EndQuorumEpoch, FetchSnapshot,
//!   UpdateRaftVoter); `rewrite.rs` lists them, and the fields left alone and why.
//!   The bootstrap broker is reached through `--listen`; each other broker gets a
//!   listener when a response first names it, on a free port (of `--broker-ports`
//!   if given).
//! - A frame that does not decode, or whose re-encoding reads back differently, is
//!   logged at warn and forwarded as it came. A frame that needs no rewriting is
//!   forwarded first and checked after, off the forwarding path (bounded: its
//!   budget is held until checked); one that carries broker addresses is checked
//!   before its rewrite.
//! - Limits, on clients as a broker's, by Kafka's names:
//!   `--queued-max-request-bytes` (request bytes buffered, default 512 MiB; reading
//!   pauses while they are spent), `--socket-request-max-bytes` (100 MiB),
//!   `--max-connections` (default: the open-files limit less 64, halved, as each
//!   client costs two descriptors; at the limit the client idle longest among
//!   those that have not logged in is closed to admit a new one, and with none
//!   such the newcomer is refused), `--max-connections-per-ip` (default: none, as
//!   Kafka's; a full address is refused rather than evicted from),
//!   `--max-connection-creation-rate` and `--connection-creation-rate` (in all,
//!   and per address: as the broker's),
//!   `--connections-max-idle-ms` (600000; -1 never), `--small-request-max-bytes`
//!   (64 KiB, served from a reserve while large requests hold the budget); and on
//!   upstream: `--request-timeout-ms` (30000, the Kafka client's
//!   `request.timeout.ms`: a client whose oldest request waits longer is closed),
//!   `--response-max-bytes` (256 MiB) and `--queued-max-response-bytes` (512 MiB).
//! - Security on the clients' side (`security.rs`):
//!   - `--tls-cert FILE --tls-key FILE` (PEM: the chain, the proxy's certificate
//!     first, and its private key) make every listener TLS, the bootstrap one and
//!     each broker's: SSL, or SASL_SSL with `--sasl-user`. A handshake holds a
//!     connection slot and must finish within 10 s, or the idle timeout if
//!     shorter; a client that does not finish it is closed.
//!   - `--sasl-user NAME:PASSWORD` (repeatable) makes the proxy authenticate
//!     clients itself, each user stored as salted SCRAM credentials;
//!     `--sasl-enabled-mechanisms` (default `PLAIN,SCRAM-SHA-256,SCRAM-SHA-512`)
//!     says which mechanisms. Until a client has logged in, its ApiVersions go
//!     upstream and come back offering the proxy's SaslHandshake and
//!     SaslAuthenticate versions; SaslHandshake (v0 with its bare tokens, or v1),
//!     SaslAuthenticate are answered by the proxy and never forwarded; anything
//!     else closes the connection without an answer, as does a failed login once
//!     answered (`terminate.rs`), after `--connection-failed-authentication-delay-ms`
//!     (100). Until a client has logged in its frames are at most
//!     `--sasl-server-max-receive-size` (512 KiB) and paid for by no budget, it
//!     costs no upstream connection until it asks ApiVersions, and credential
//!     checks run off the I/O threads, `--sasl-server-authentication-threads` at
//!     once. No session lifetime is given: clients are not
//!     asked to re-authenticate, and one that sends SASL after logging in is
//!     closed.
//!   - Without `--sasl-user`, clients' SASL goes to the broker unchanged,
//!     verified as any request; after a SaslHandshake v0 the bare tokens either
//!     way are forwarded as bytes, not read as requests, and counted apart
//!     (`passthrough.rs`).
//! - Security upstream:
//!   - `--upstream-tls-ca FILE` connects to every broker over TLS, its
//!     certificate verified against the CA certificates in FILE and against the
//!     broker's host as `--upstream` or a response names it, or
//!     `--upstream-tls-server-name NAME` for all of them.
//!   - `--upstream-sasl MECHANISM:NAME:PASSWORD` (PLAIN, SCRAM-SHA-256 or
//!     SCRAM-SHA-512) logs in to every broker with the proxy's own credentials
//!     once its client has logged in at the proxy, before anything of the
//!     client's but ApiVersions is forwarded:
//!     ApiVersions (unless the broker answered the client's on that connection:
//!     Kafka's takes one before SASL), SaslHandshake v1, SaslAuthenticate
//!     (`login.rs`). A failed
//!     login closes the client, the reason logged. When the broker limits the
//!     session (KIP-368), the proxy logs in again at 90 % of it, between the
//!     client's requests. It needs `--sasl-user`: the proxy lends its
//!     credentials only to clients it has authenticated.
//! - On SIGINT or SIGTERM it prints a table of frames, bytes, mismatches, decode
//!   failures and rewrites per API (and the bare SASL tokens and the SASL answers
//!   of its own), writes the same as JSON to `--report FILE` if given, and exits
//!   0.
//!
//! Layout: `main.rs` (command line, signals, report), `listener.rs` (accept loops
//! and shared state), `connection.rs` (one client: TLS, login, forwarding),
//! `io.rs` (TCP or TLS halves), `security.rs` (TLS and SASL options),
//! `login.rs` (the proxy's login upstream), `terminate.rs` (clients' login at the
//! proxy), `passthrough.rs` (SaslHandshake v0 tokens passed through),
//! `in_flight.rs` (matching responses to requests), `verify.rs` (decode,
//! re-encode, compare), `verify_queue.rs` (checks run after forwarding),
//! `rewrite.rs` (where responses name brokers), `routes.rs` (broker → local
//! listener), `stats.rs` (counts, table, JSON), `error.rs`.
#![forbid(unsafe_code)]

mod connection;
mod error;
mod in_flight;
mod io;
mod listener;
mod login;
mod passthrough;
mod rewrite;
mod routes;
mod security;
mod stats;
mod terminate;
mod verify;
mod verify_queue;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use kwire_net::server::{property_of_flag, ServerConfig};
use kwire_net::tls::DEFAULT_HANDSHAKE_TIMEOUT;
use tokio::net::TcpListener;
use tracing::{info, warn};
use tracing_subscriber::EnvFilter;

use crate::error::{chain, ProxyError};
use crate::listener::{Limits, Proxy};
use crate::routes::{BrokerAddress, Routes};
use crate::security::SecurityOptions;
use crate::stats::Stats;

const USAGE: &str = "usage: proxy --listen IP:PORT --upstream HOST:PORT [--report FILE] \
                     [--broker-ports FROM-TO] [--queued-max-request-bytes N] \
                     [--socket-request-max-bytes N] [--max-connections N] \
                     [--max-connections-per-ip N] [--max-connection-creation-rate N] \
                     [--connection-creation-rate N] [--connections-max-idle-ms MS] \
                     [--small-request-max-bytes N] [--sasl-server-max-receive-size N] \
                     [--connection-failed-authentication-delay-ms MS] \
                     [--sasl-server-authentication-threads N] [--request-timeout-ms MS] \
                     [--response-max-bytes N] [--queued-max-response-bytes N] \
                     [--tls-cert FILE --tls-key FILE] [--sasl-user NAME:PASSWORD ...] \
                     [--sasl-enabled-mechanisms LIST] [--upstream-tls-ca FILE] \
                     [--upstream-tls-server-name NAME] \
                     [--upstream-sasl MECHANISM:NAME:PASSWORD]";

/// `--request-timeout-ms`'s default: the Kafka client's `request.timeout.ms`.
const DEFAULT_REQUEST_TIMEOUT_MS: u64 = 30_000;

/// `--response-max-bytes`'s default. Above the 100 MiB allowed of requests: a Fetch
/// response is as large as the client asked for (`fetch.max.bytes`, 50 MiB by
/// default, can be raised, and the first batch may exceed it); still bounded, so a
/// broken broker cannot make the proxy buffer 2 GiB.
const DEFAULT_RESPONSE_MAX_BYTES: usize = 256 << 20;

/// The command line.
#[derive(Debug)]
struct Args {
    /// Where clients connect (the bootstrap upstream's stand-in).
    listen: SocketAddr,
    /// The bootstrap broker.
    upstream: BrokerAddress,
    /// Where to write the JSON report.
    report: Option<PathBuf>,
    /// The ports listeners for other brokers may take.
    broker_ports: Option<RangeInclusive<u16>>,
    /// Limits on memory, connections and waits.
    limits: Limits,
    /// TLS and SASL, checked together but not yet read.
    security: SecurityOptions,
}

/// Reads a positive count or milliseconds value of a proxy-only limit.
fn positive(flag: &str, text: &str) -> Result<usize, ProxyError> {
    text.parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| ProxyError::Usage(format!("{flag} {text:?} is not a positive number")))
}

/// Reads the command line; `Ok(None)` when help was asked for.
fn parse_args(mut args: impl Iterator<Item = OsString>) -> Result<Option<Args>, ProxyError> {
    let mut listen = None;
    let mut upstream = None;
    let mut report = None;
    let mut broker_ports = None;
    // Each client costs two descriptors: its own and its upstream connection's.
    let mut clients = ServerConfig::new(2);
    let mut request_timeout = Duration::from_millis(DEFAULT_REQUEST_TIMEOUT_MS);
    let mut response_max_bytes = DEFAULT_RESPONSE_MAX_BYTES;
    let mut security = SecurityOptions::default();
    while let Some(arg) = args.next() {
        let arg = arg
            .into_string()
            .map_err(|arg| ProxyError::Usage(format!("{arg:?} is not UTF-8")))?;
        // `--flag value` and `--flag=value` both work.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) => (flag.to_owned(), Some(OsString::from(value))),
            None => (arg, None),
        };
        if flag == "-h" || flag == "--help" {
            return Ok(None);
        }
        let value = inline
            .or_else(|| args.next())
            .ok_or_else(|| ProxyError::Usage(format!("{flag} needs a value")))?;
        let text = value.to_str().unwrap_or_default().to_owned();
        if security.take(&flag, &text, PathBuf::from(&value))? {
            continue;
        }
        match flag.as_str() {
            "--listen" => {
                let address = text
                    .parse()
                    .map_err(|_| ProxyError::Usage(format!("--listen {text:?} is not IP:PORT")))?;
                listen = Some(address);
            }
            "--upstream" => upstream = Some(BrokerAddress::parse(&text)?),
            "--report" => report = Some(PathBuf::from(value)),
            "--broker-ports" => broker_ports = Some(parse_ports(&text)?),
            "--request-timeout-ms" => {
                request_timeout = Duration::from_millis(positive(&flag, &text)? as u64);
            }
            "--response-max-bytes" => response_max_bytes = positive(&flag, &text)?,
            _ => {
                // `--queued-max-request-bytes` and the like: the Kafka property it
                // names, for the clients' side.
                let Some(property) = property_of_flag(&flag) else {
                    return Err(ProxyError::Usage(format!("unknown argument {flag:?}")));
                };
                clients
                    .set(property, &text)
                    .map_err(|error| ProxyError::Usage(format!("{flag}: {error}")))?;
            }
        }
    }
    let clients = clients
        .build()
        .map_err(|error| ProxyError::Usage(error.to_string()))?;
    let queued_max_response_bytes = clients.responses.bytes();
    if response_max_bytes > i32::MAX as usize || response_max_bytes + 4 > queued_max_response_bytes
    {
        return Err(ProxyError::Usage(format!(
            "--response-max-bytes ({response_max_bytes}) plus its 4-byte prefix must fit in \
             --queued-max-response-bytes ({queued_max_response_bytes}) and an int32"
        )));
    }
    let limits = Limits {
        clients,
        max_response_frame: response_max_bytes,
        request_timeout,
    };
    security.check()?;
    Ok(Some(Args {
        listen: listen.ok_or_else(|| ProxyError::Usage("--listen is required".into()))?,
        upstream: upstream.ok_or_else(|| ProxyError::Usage("--upstream is required".into()))?,
        report,
        broker_ports,
        limits,
        security,
    }))
}

/// Parses `FROM-TO` (or a single port).
fn parse_ports(text: &str) -> Result<RangeInclusive<u16>, ProxyError> {
    let bad = || ProxyError::Usage(format!("--broker-ports {text:?} is not FROM-TO"));
    let (from, to) = text.split_once('-').unwrap_or((text, text));
    let from: u16 = from.trim().parse().map_err(|_| bad())?;
    let to: u16 = to.trim().parse().map_err(|_| bad())?;
    if from == 0 || from > to {
        return Err(bad());
    }
    Ok(from..=to)
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args_os().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("proxy: {}\n{USAGE}", chain(&error));
            return ExitCode::from(2);
        }
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // try_init: a subscriber already set is not worth dying for.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();

    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("proxy: cannot start the runtime: {}", chain(&error));
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(run(args));
    // Connections still open are dropped, not waited for: the report is out and the
    // process is ending.
    runtime.shutdown_background();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("proxy: {}", chain(&error));
            ExitCode::FAILURE
        }
    }
}

/// On stopping, how long the checks of frames already forwarded are awaited before
/// the report.
const CHECKS_DRAIN_TIMEOUT: Duration = Duration::from_secs(3);

/// Listens, forwards until SIGINT or SIGTERM, then reports (once the checks queued
/// have run).
async fn run(args: Args) -> Result<(), ProxyError> {
    // Handlers are installed before the "listening" line: whoever reads it may
    // signal at once, and the default action would kill the proxy without a report.
    let shutdown = Shutdown::install()?;
    // A handshake is a connection that has sent no request yet: the idle timeout
    // bounds it too, if shorter.
    let idle = args.limits.clients.idle_timeout;
    let handshake_timeout = idle.map_or(DEFAULT_HANDSHAKE_TIMEOUT, |idle| {
        idle.min(DEFAULT_HANDSHAKE_TIMEOUT)
    });
    let security = args.security.build(handshake_timeout)?;
    let listener = TcpListener::bind(args.listen).await?;
    let listen = listener.local_addr()?;
    info!(
        max_connections = args.limits.clients.connections.max(),
        queued_max_request_bytes = args.limits.clients.budget.bytes(),
        queued_max_response_bytes = args.limits.clients.responses.bytes(),
        request_timeout_ms = args.limits.request_timeout.as_millis() as u64,
        "limits"
    );
    info!(
        client_tls = security.client_tls.is_some(),
        client_sasl = ?security.client_sasl.as_ref().map(|sasl| sasl.mechanisms.clone()),
        upstream_tls = security.upstream_tls.is_some(),
        upstream_sasl = ?security.upstream_login.as_ref().map(|login| login.mechanism()),
        "security"
    );
    let proxy = Arc::new(Proxy::new(
        Routes::new(args.upstream.clone(), listen, args.broker_ports),
        args.limits,
        security,
    ));

    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "listening on {listen}")?;
    stdout.flush()?;
    drop(stdout);
    info!(%listen, upstream = %args.upstream, "proxying");
    listener::spawn(listener, args.upstream, Arc::clone(&proxy));

    let signal = shutdown.wait().await;
    info!("{signal}: stopping");
    let unchecked = proxy.verify_queue.drain(CHECKS_DRAIN_TIMEOUT).await;
    if unchecked > 0 {
        warn!(
            unchecked,
            "frames forwarded but not checked in {CHECKS_DRAIN_TIMEOUT:?}"
        );
        proxy.stats.count_unchecked(unchecked as u64);
    }
    report(&proxy.stats, args.report.as_deref())
}

/// Prints the table and writes the JSON report.
fn report(stats: &Stats, path: Option<&Path>) -> Result<(), ProxyError> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(stats.table().as_bytes())?;
    stdout.flush()?;
    if let Some(path) = path {
        std::fs::write(path, stats.json())?;
        info!(path = %path.display(), "report written");
    }
    Ok(())
}

/// The signals that stop the proxy.
struct Shutdown {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl Shutdown {
    /// Takes over SIGINT and SIGTERM (Ctrl-C elsewhere) from now on.
    fn install() -> Result<Self, ProxyError> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Ok(Shutdown {
                interrupt: signal(SignalKind::interrupt())?,
                terminate: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        Ok(Shutdown {})
    }

    /// Waits for the first of them; returns its name.
    async fn wait(mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.interrupt.recv() => "SIGINT",
                _ = self.terminate.recv() => "SIGTERM",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Option<Args>, ProxyError> {
        let base = ["--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:9092"];
        parse_args(base.iter().chain(args).map(OsString::from))
    }

    #[test]
    fn security_options_are_read_with_the_others() {
        let args = parse(&[
            "--sasl-user",
            "alice:secret",
            "--sasl-enabled-mechanisms=SCRAM-SHA-512",
            "--upstream-sasl",
            "SCRAM-SHA-256:proxy:pw",
            "--upstream-tls-ca",
            "ca.pem",
            "--max-connections",
            "10",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(args.limits.clients.connections.max(), 10);
        for bad in [
            &["--tls-key", "k.pem"][..],
            &["--upstream-sasl", "PLAIN:proxy:pw"],
            &["--sasl-user", "alice"],
            &["--upstream-tls-server-name", "b.example"],
        ] {
            assert!(matches!(parse(bad), Err(ProxyError::Usage(_))), "{bad:?}");
        }
    }
}
