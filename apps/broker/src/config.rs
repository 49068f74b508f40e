//! The command line and what follows from it.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

use kwire::{DecodeLimits, KafkaString};

use crate::listeners::{ListenerSpec, Protocol};
use crate::security::{Security, SecurityOptions};

pub const USAGE: &str = "usage: broker [--listen HOST:PORT] [--listener PROTOCOL://HOST:PORT ...] \
                         [--advertise HOST:PORT] [--tls-cert FILE --tls-key FILE] \
                         [--partitions N] [--no-auto-create] \
                         [--max-partitions-per-topic N] [--max-partitions N] \
                         [--fetch-max-bytes N] [--fetch-max-wait-ms N] [--group-max-size N] \
                         [--offset-metadata-max-bytes N] [--log-max-bytes N] \
                         [--max-request-array-elements N] [--max-request-records N] \
                         [--max-request-decompressed-bytes N] \
                         [--queued-max-request-bytes N] [--socket-request-max-bytes N] \
                         [--max-connections N] [--max-connections-per-ip N] \
                         [--max-connection-creation-rate N] [--connection-creation-rate N] \
                         [--connections-max-idle-ms MS] [--small-request-max-bytes N] \
                         [--queued-max-response-bytes N] [--sasl-server-max-receive-size N] \
                         [--connection-failed-authentication-delay-ms MS] \
                         [--sasl-server-authentication-threads N] \
                         [--sasl-user NAME:PASSWORD ...] [--sasl-users-file FILE] \
                         [--sasl-enabled-mechanisms LIST] \
                         [--sasl-oauthbearer-unsecured] \
                         [--connections-max-reauth-ms MS]";

/// The options as given.
pub struct Options {
    /// Every listener, in the order given: `--listen`'s first (PLAINTEXT, or
    /// SASL_PLAINTEXT with `--sasl-user` or `--sasl-users-file`; the default
    /// one when there is no `--listener`), then each `--listener`.
    pub listeners: Vec<ListenerSpec>,
    /// What the first listener advertises; the others advertise their bound
    /// address.
    pub advertise: Option<(String, u16)>,
    /// The certificate chain and key SSL and SASL_SSL listeners present.
    pub tls: Option<TlsFiles>,
    pub partitions: i32,
    pub auto_create: bool,
    pub limits: Limits,
    // Limits on memory, connections and idleness: Kafka's properties, each as
    // `--the-property-name` (see kwire_net::server::ServerConfig).
    pub server: kwire_net::server::ServerConfig,
    /// SASL users and mechanisms; `None`: anyone is served.
    pub security: Option<Security>,
}

/// `--tls-cert` and `--tls-key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

#[derive(Debug)]
pub struct UsageError(String);

impl UsageError {
    pub fn new(message: String) -> Self {
        UsageError(message)
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Options {
    pub fn from_args(mut args: impl Iterator<Item = String>) -> Result<Self, UsageError> {
        let mut options = Options {
            listeners: Vec::new(),
            advertise: None,
            tls: None,
            partitions: 1,
            auto_create: true,
            limits: Limits::default(),
            server: kwire_net::server::ServerConfig::new(1),
            security: None,
        };
        let mut security = SecurityOptions::default();
        let mut listen = None;
        let (mut tls_cert, mut tls_key) = (None, None);
        while let Some(arg) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .ok_or_else(|| UsageError(format!("{name} needs a value")))
            };
            match arg.as_str() {
                "--listen" => listen = Some(value("--listen")?),
                "--listener" => options
                    .listeners
                    .push(ListenerSpec::parse(&value("--listener")?)?),
                "--tls-cert" => tls_cert = Some(PathBuf::from(value("--tls-cert")?)),
                "--tls-key" => tls_key = Some(PathBuf::from(value("--tls-key")?)),
                "--advertise" => {
                    let given = value("--advertise")?;
                    let parsed = given
                        .rsplit_once(':')
                        .and_then(|(host, port)| Some((host.to_owned(), port.parse().ok()?)));
                    options.advertise = Some(parsed.ok_or_else(|| {
                        UsageError(format!("--advertise {given}: not HOST:PORT"))
                    })?);
                }
                "--partitions" => {
                    let given = value("--partitions")?;
                    options.partitions =
                        given.parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                            UsageError(format!("--partitions {given}: not a count"))
                        })?;
                }
                "--no-auto-create" => options.auto_create = false,
                other => {
                    if options.limits.parse(other, &mut value)?
                        || security.parse(other, &mut value)?
                    {
                        continue;
                    }
                    // `--queued-max-request-bytes` and the like: a limit, by the
                    // Kafka property it names.
                    let Some(property) = kwire_net::server::property_of_flag(other) else {
                        return Err(UsageError(format!("unknown option {other}")));
                    };
                    let given = value(other)?;
                    options
                        .server
                        .set(property, &given)
                        .map_err(|error| UsageError(format!("{other}: {error}")))?;
                }
            }
        }
        options.security = security.build()?;
        options.tls = match (tls_cert, tls_key) {
            (Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
            (None, None) => None,
            _ => return Err(UsageError("--tls-cert and --tls-key go together".into())),
        };
        options.resolve_listeners(listen)?;
        options.limits.admit(options.partitions)?;
        // The largest answer, a Fetch at fetch.max.bytes or one stored batch (as
        // large as a request), must fit in the response budget, or it would wait
        // for ever.
        let largest = (options.limits.fetch_max_bytes.max(0) as usize)
            .max(options.server.socket_request_max_bytes);
        if largest > options.server.queued_max_response_bytes / 2 {
            return Err(UsageError(format!(
                "--queued-max-response-bytes {} must hold twice the largest answer \
                 ({largest} bytes: --fetch-max-bytes or --socket-request-max-bytes), \
                 its copy and its frame",
                options.server.queued_max_response_bytes
            )));
        }
        Ok(options)
    }

    /// `--listen`'s listener first, as it has always been (and the default one
    /// when no listener is given), then the `--listener`s; each with what its
    /// protocol needs.
    fn resolve_listeners(&mut self, listen: Option<String>) -> Result<(), UsageError> {
        if listen.is_some() || self.listeners.is_empty() {
            let protocol = if self.security.is_some() {
                Protocol::SaslPlaintext
            } else {
                Protocol::Plaintext
            };
            let address = listen.unwrap_or_else(|| "127.0.0.1:9092".into());
            self.listeners.insert(0, ListenerSpec { protocol, address });
        }
        for listener in &self.listeners {
            let given = || format!("{}://{}", listener.protocol, listener.address);
            if listener.protocol.sasl() && self.security.is_none() {
                return Err(UsageError(format!(
                    "{}: needs a --sasl-user or --sasl-users-file",
                    given()
                )));
            }
            if listener.protocol.tls() && self.tls.is_none() {
                return Err(UsageError(format!(
                    "{}: needs --tls-cert and --tls-key",
                    given()
                )));
            }
        }
        // Users or a certificate that no listener uses are a mistake in the
        // command line, not a setting.
        if self.security.is_some() && !self.listeners.iter().any(|l| l.protocol.sasl()) {
            return Err(UsageError(
                "--sasl-user / --sasl-users-file: no SASL_PLAINTEXT or SASL_SSL listener".into(),
            ));
        }
        if self.tls.is_some() && !self.listeners.iter().any(|l| l.protocol.tls()) {
            return Err(UsageError("--tls-cert: no SSL or SASL_SSL listener".into()));
        }
        Ok(())
    }
}

/// What the handlers need to know about this broker.
pub struct Config {
    pub node_id: i32,
    pub cluster_id: KafkaString,
    /// The first listener's advertised address, which the handlers answer with;
    /// a connection on another listener is given that one's instead
    /// ([`Endpoint::advertise`](crate::listeners::Endpoint::advertise)).
    pub host: KafkaString,
    pub port: i32,
    pub default_partitions: i32,
    pub auto_create: bool,
    pub limits: Limits,
    /// What every request is decoded within: the frame size from
    /// `--socket-request-max-bytes`, the per-request totals from [`Limits`].
    pub decode: DecodeLimits,
}

impl Config {
    /// `bound` is the first listener's address.
    pub fn new(options: &Options, bound: SocketAddr) -> Self {
        let (host, port) = match &options.advertise {
            Some((host, port)) => (host.clone(), *port),
            None => (bound.ip().to_string(), bound.port()),
        };
        Config {
            node_id: 1,
            cluster_id: KafkaString::from("kafka-wire-broker"),
            host: host.into(),
            port: i32::from(port),
            default_partitions: options.partitions,
            auto_create: options.auto_create,
            limits: options.limits,
            decode: options
                .limits
                .decode_limits(options.server.socket_request_max_bytes),
        }
    }
}

// ---- Request limits: what a client may make the broker allocate. ----

/// Bounds on what one request can make the broker allocate or wait for, checked
/// by the handlers before anything is sized by a client's count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Partitions one topic may have (`--max-partitions-per-topic`; Kafka has no
    /// such setting, its policy plugins play this part).
    pub max_partitions_per_topic: i32,
    /// Partitions all topics together may have, auto-created ones included
    /// (`--max-partitions`, the name KIP-578 proposed). It bounds the largest
    /// Metadata answer: about 40 bytes a partition.
    pub max_partitions: i32,
    /// Kafka's `fetch.max.bytes`: no Fetch answer carries more record bytes
    /// than this, whatever the request asks (bar KIP-74's first batch).
    pub fetch_max_bytes: i32,
    /// The longest a Fetch waits for `min_bytes` (a client may ask 2^31-1 ms);
    /// Kafka has no cap, this keeps a connection from being parked for weeks.
    pub fetch_max_wait_ms: i32,
    /// Kafka's `group.max.size`: members one group may have. Kafka's default is
    /// unlimited; each member is answered to the leader at every rebalance.
    pub group_max_size: i32,
    /// Kafka's `offset.metadata.max.bytes`: the metadata one committed offset
    /// may carry; every OffsetFetch of the partition sends it back.
    pub offset_metadata_max_bytes: i32,
    /// Record bytes all partition logs may hold together (`--log-max-bytes`; no
    /// Kafka name: a Kafka broker's bound is its disk, and a full disk answers
    /// KAFKA_STORAGE_ERROR, which is what a Produce past this gets). The logs are
    /// in memory, so without it a producer could fill the machine.
    pub log_max_bytes: i64,
    /// Array elements one request may hold in all its arrays together
    /// (`--max-request-array-elements`; Kafka has no such setting). Each
    /// element is a struct or value in memory, often larger than its bytes on
    /// the wire: this bounds what a request of many small elements decodes to.
    pub max_request_array_elements: usize,
    /// Records one request may carry in all its record batches together
    /// (`--max-request-records`, their `recordsCount`s; no Kafka name).
    pub max_request_records: usize,
    /// Bytes the record batches of one request may decompress to, all together
    /// (`--max-request-decompressed-bytes`; no Kafka name). The broker stores
    /// batches as they came and decompresses only to find a record by
    /// timestamp: a ListOffsets request's lookups share this, and those past it
    /// answer POLICY_VIOLATION.
    pub max_request_decompressed_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_partitions_per_topic: 1000,
            max_partitions: 10_000,
            fetch_max_bytes: 57_671_680,
            fetch_max_wait_ms: 30_000,
            group_max_size: 1000,
            offset_metadata_max_bytes: 4096,
            log_max_bytes: 4 << 30,
            // A million elements: about 40 MB of partitions in a CreateTopics or
            // Metadata request, well beyond any real one.
            max_request_array_elements: 1_000_000,
            // A hundred megabytes of the smallest records.
            max_request_records: 10_000_000,
            max_request_decompressed_bytes: kwire::records::DEFAULT_MAX_DECOMPRESSED,
        }
    }
}

impl Limits {
    /// Refuses a `--partitions` default that no auto-created topic could have.
    fn admit(&self, default_partitions: i32) -> Result<(), UsageError> {
        if default_partitions > self.max_partitions_per_topic.min(self.max_partitions) {
            return Err(UsageError(format!(
                "--partitions {default_partitions}: over --max-partitions-per-topic or \
                 --max-partitions"
            )));
        }
        Ok(())
    }

    /// The limits every request is decoded within: frames up to
    /// `max_frame_size` (`--socket-request-max-bytes`), and these per-request
    /// totals; strings stay within Kafka's own 32767 bytes.
    pub fn decode_limits(&self, max_frame_size: usize) -> DecodeLimits {
        DecodeLimits::default()
            .with_max_frame_size(max_frame_size)
            .with_max_array_elements(self.max_request_array_elements)
            .with_max_records(self.max_request_records)
            .with_max_decompressed_bytes(self.max_request_decompressed_bytes)
    }

    /// Takes `option` if it is one of these; `Ok(false)` if it is not.
    fn parse(
        &mut self,
        option: &str,
        value: &mut impl FnMut(&str) -> Result<String, UsageError>,
    ) -> Result<bool, UsageError> {
        let count = |value: &mut dyn FnMut(&str) -> Result<String, UsageError>| {
            non_negative::<i32>(option, &value(option)?, "a count")
        };
        match option {
            "--max-partitions-per-topic" => self.max_partitions_per_topic = count(value)?,
            "--max-partitions" => self.max_partitions = count(value)?,
            "--fetch-max-bytes" => self.fetch_max_bytes = count(value)?,
            "--fetch-max-wait-ms" => self.fetch_max_wait_ms = count(value)?,
            "--group-max-size" => self.group_max_size = count(value)?,
            "--offset-metadata-max-bytes" => self.offset_metadata_max_bytes = count(value)?,
            "--log-max-bytes" => {
                self.log_max_bytes = non_negative(option, &value(option)?, "a size")?;
            }
            "--max-request-array-elements" => {
                self.max_request_array_elements = non_negative(option, &value(option)?, "a count")?;
            }
            "--max-request-records" => {
                self.max_request_records = non_negative(option, &value(option)?, "a count")?;
            }
            "--max-request-decompressed-bytes" => {
                self.max_request_decompressed_bytes =
                    non_negative(option, &value(option)?, "a size")?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// `given` as a number of at least 0, or a usage error saying it is not `what`.
fn non_negative<T: std::str::FromStr + PartialOrd + Default>(
    option: &str,
    given: &str,
    what: &str,
) -> Result<T, UsageError> {
    given
        .parse()
        .ok()
        .filter(|n| *n >= T::default())
        .ok_or_else(|| UsageError(format!("{option} {given}: not {what}")))
}

#[cfg(test)]
mod limits_tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, UsageError> {
        Options::from_args(args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn limits_are_read_and_checked() {
        let options = parse(&["--max-partitions", "50", "--fetch-max-bytes", "1024"]).expect("ok");
        assert_eq!(options.limits.max_partitions, 50);
        assert_eq!(options.limits.fetch_max_bytes, 1024);
        assert_eq!(options.limits.max_partitions_per_topic, 1000);
        assert!(parse(&["--fetch-max-wait-ms", "-1"]).is_err());
        assert!(parse(&["--group-max-size"]).is_err());
        assert!(parse(&["--partitions", "5", "--max-partitions-per-topic", "4"]).is_err());
        let big = parse(&["--log-max-bytes", "8589934592"]).expect("ok");
        assert_eq!(big.limits.log_max_bytes, 8 << 30);
        assert!(parse(&["--log-max-bytes", "-1"]).is_err());
    }

    #[test]
    fn decode_limits_come_from_the_request_limits_and_the_frame_size() {
        let options = parse(&[
            "--max-request-array-elements",
            "500",
            "--max-request-records",
            "70",
            "--max-request-decompressed-bytes",
            "4096",
            "--socket-request-max-bytes",
            "65536",
        ])
        .expect("ok");
        let config = Config::new(&options, "127.0.0.1:9092".parse().unwrap());
        let limits = config.decode;
        assert_eq!(limits.max_frame_size(), 65536);
        assert_eq!(limits.max_array_elements(), 500);
        assert_eq!(limits.max_records(), 70);
        assert_eq!(limits.max_decompressed_bytes(), 4096);
        assert_eq!(limits.max_string_len(), 32767);
        assert!(parse(&["--max-request-records", "-5"]).is_err());
        // By default a request is bounded too.
        let default = parse(&[]).expect("ok");
        let limits = Config::new(&default, "127.0.0.1:9092".parse().unwrap()).decode;
        assert_eq!(limits.max_array_elements(), 1_000_000);
        assert_eq!(limits.max_frame_size(), 104_857_600);
    }

    #[test]
    fn request_limits_and_connection_limits_mix() {
        let options = parse(&[
            "--max-connections",
            "10",
            "--max-partitions",
            "50",
            "--connections-max-idle-ms",
            "5000",
        ])
        .expect("ok");
        assert_eq!(options.limits.max_partitions, 50);
        assert_eq!(options.server.max_connections, 10);
        assert_eq!(
            options.server.connections_max_idle,
            Some(std::time::Duration::from_secs(5))
        );
        assert!(parse(&["--max-connection", "10"]).is_err());
    }
}

#[cfg(test)]
mod listener_tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, UsageError> {
        Options::from_args(args.iter().map(|a| a.to_string()))
    }

    fn listeners(options: &Options) -> Vec<(Protocol, &str)> {
        options
            .listeners
            .iter()
            .map(|l| (l.protocol, l.address.as_str()))
            .collect()
    }

    const TLS: [&str; 4] = ["--tls-cert", "c.pem", "--tls-key", "k.pem"];

    #[test]
    fn listen_keeps_its_meaning() {
        let default = parse(&[]).unwrap();
        assert_eq!(
            listeners(&default),
            [(Protocol::Plaintext, "127.0.0.1:9092")]
        );
        let sasl = parse(&["--listen", "127.0.0.1:0", "--sasl-user", "a:b"]).unwrap();
        assert_eq!(listeners(&sasl), [(Protocol::SaslPlaintext, "127.0.0.1:0")]);
        let sasl = parse(&["--sasl-user", "a:b"]).unwrap();
        assert_eq!(
            listeners(&sasl),
            [(Protocol::SaslPlaintext, "127.0.0.1:9092")]
        );
    }

    #[test]
    fn listeners_follow_listen_in_order() {
        let mut args = vec![
            "--listen",
            "127.0.0.1:0",
            "--listener",
            "SSL://127.0.0.1:0",
            "--sasl-user",
            "a:b",
            "--listener",
            "SASL_SSL://localhost:9094",
            "--listener",
            "PLAINTEXT://127.0.0.1:9095",
        ];
        args.extend(TLS);
        let options = parse(&args).unwrap();
        assert_eq!(
            listeners(&options),
            [
                (Protocol::SaslPlaintext, "127.0.0.1:0"),
                (Protocol::Ssl, "127.0.0.1:0"),
                (Protocol::SaslSsl, "localhost:9094"),
                (Protocol::Plaintext, "127.0.0.1:9095"),
            ]
        );
        assert_eq!(
            options.tls,
            Some(TlsFiles {
                cert: "c.pem".into(),
                key: "k.pem".into()
            })
        );
        // Without --listen, only the listeners given.
        let mut args = vec!["--listener", "SSL://127.0.0.1:0"];
        args.extend(TLS);
        assert_eq!(
            listeners(&parse(&args).unwrap()),
            [(Protocol::Ssl, "127.0.0.1:0")]
        );
    }

    #[test]
    fn a_users_file_makes_listen_sasl_plaintext() {
        use crate::security::tests::{stored, users_file};
        use kwire_net::sasl::ScramHash;

        let path = users_file(
            "listen",
            &stored("alice", ScramHash::Sha512, "alice-secret"),
        );
        let file = path.to_str().unwrap();
        let options = parse(&["--listen", "127.0.0.1:0", "--sasl-users-file", file]).unwrap();
        assert_eq!(
            listeners(&options),
            [(Protocol::SaslPlaintext, "127.0.0.1:0")]
        );
        assert!(options.security.is_some());
        let sasl_ssl = parse(&[
            "--listener",
            "SASL_PLAINTEXT://127.0.0.1:0",
            "--sasl-users-file",
            file,
        ]);
        assert!(sasl_ssl.is_ok());
        let unused = parse(&[
            "--listener",
            "PLAINTEXT://127.0.0.1:0",
            "--sasl-users-file",
            file,
        ]);
        assert!(unused.is_err());
        std::fs::remove_file(&path).unwrap();
        // A file that cannot be read stops the start.
        assert!(parse(&["--sasl-users-file", file]).is_err());
    }

    #[test]
    fn each_protocol_needs_what_it_uses() {
        for bad in [
            &["--listener", "SSL://127.0.0.1:0"][..],
            &["--listener", "SASL_SSL://127.0.0.1:0", "--sasl-user", "a:b"],
            &["--listener", "SASL_PLAINTEXT://127.0.0.1:0"],
            &[
                "--listener",
                "SASL_SSL://127.0.0.1:0",
                "--tls-cert",
                "c",
                "--tls-key",
                "k",
            ],
            // Half of the pair.
            &["--listener", "SSL://127.0.0.1:0", "--tls-cert", "c.pem"],
            &["--listener", "SSL://127.0.0.1:0", "--tls-key", "k.pem"],
            // Given and used by no listener.
            &["--tls-cert", "c", "--tls-key", "k"],
            &[
                "--listener",
                "PLAINTEXT://127.0.0.1:0",
                "--sasl-user",
                "a:b",
            ],
            &["--listener", "SSL:/127.0.0.1:0"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
