//! The command line and what follows from it.

use std::fmt;
use std::net::SocketAddr;

use kwire::KafkaString;

pub const USAGE: &str = "usage: broker [--listen HOST:PORT] [--advertise HOST:PORT] \
                         [--partitions N] [--no-auto-create] \
                         [--queued-max-request-bytes N] [--socket-request-max-bytes N] \
                         [--max-connections N] [--max-connections-per-ip N] \
                         [--connections-max-idle-ms MS] [--small-request-max-bytes N]";

/// The options as given.
pub struct Options {
    pub listen: String,
    pub advertise: Option<(String, u16)>,
    pub partitions: i32,
    pub auto_create: bool,
    // Limits on memory, connections and idleness: Kafka's properties, each as
    // `--the-property-name` (see kwire_net::server::ServerConfig).
    pub limits: kwire_net::server::ServerConfig,
}

#[derive(Debug)]
pub struct UsageError(String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Options {
    pub fn from_args(mut args: impl Iterator<Item = String>) -> Result<Self, UsageError> {
        let mut options = Options {
            listen: "127.0.0.1:9092".into(),
            advertise: None,
            partitions: 1,
            auto_create: true,
            limits: kwire_net::server::ServerConfig::new(1),
        };
        while let Some(arg) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .ok_or_else(|| UsageError(format!("{name} needs a value")))
            };
            match arg.as_str() {
                "--listen" => options.listen = value("--listen")?,
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
                    // `--queued-max-request-bytes` and the like: a limit, by the
                    // Kafka property it names.
                    let property = other.trim_start_matches("--").replace('-', ".");
                    if !other.starts_with("--")
                        || !kwire_net::server::PROPERTIES.contains(&property.as_str())
                    {
                        return Err(UsageError(format!("unknown option {other}")));
                    }
                    let given = value(other)?;
                    options
                        .limits
                        .set(&property, &given)
                        .map_err(|error| UsageError(format!("{other}: {error}")))?;
                }
            }
        }
        Ok(options)
    }
}

/// What the handlers need to know about this broker.
pub struct Config {
    pub node_id: i32,
    pub cluster_id: KafkaString,
    pub host: KafkaString,
    pub port: i32,
    pub default_partitions: i32,
    pub auto_create: bool,
}

impl Config {
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
        }
    }
}
