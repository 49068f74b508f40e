//! How to connect: timeouts, the client id, and (when asked) TLS and SASL.

use std::time::Duration;

use kwire::KafkaString;

use crate::sasl::Login;
use crate::splitter::DEFAULT_MAX_FRAME_SIZE;

/// How [`Connection::connect`](super::Connection::connect) connects.
///
/// The defaults are Kafka's client's: 10 s to connect
/// (`socket.connection.setup.timeout.ms`), 30 s for each request
/// (`request.timeout.ms`), strict encoding on, no TLS, no SASL.
///
/// ```
/// use std::time::Duration;
/// use kwire_net::client::{ConnectOptions, Login};
///
/// let options = ConnectOptions::new()
///     .with_client_id("inventory-loader")
///     .with_request_timeout(Duration::from_secs(5))
///     .with_login(Login::plain("alice", "alice-secret"));
/// assert_eq!(options.request_timeout(), Duration::from_secs(5));
/// ```
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    pub(crate) client_id: Option<KafkaString>,
    pub(crate) connect_timeout: Duration,
    pub(crate) request_timeout: Duration,
    pub(crate) max_frame_size: usize,
    pub(crate) strict: bool,
    pub(crate) login: Option<Login>,
    #[cfg(feature = "tls")]
    pub(crate) tls: Option<(crate::tls::TlsClient, String)>,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            client_id: Some("kwire".into()),
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_frame_size: DEFAULT_MAX_FRAME_SIZE,
            strict: true,
            login: None,
            #[cfg(feature = "tls")]
            tls: None,
        }
    }
}

impl ConnectOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// The client id every request's header carries (default `kwire`).
    pub fn with_client_id(mut self, client_id: impl Into<KafkaString>) -> Self {
        self.client_id = Some(client_id.into());
        self
    }

    /// How long opening the socket (and TLS) may take.
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How long each request may wait for its response.
    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// The largest response frame accepted, in bytes (default 100 MiB): a larger
    /// one closes the connection with a frame error before it is buffered.
    pub fn with_max_frame_size(mut self, bytes: usize) -> Self {
        self.max_frame_size = bytes;
        self
    }

    /// Whether encoding refuses to drop a field that holds a value at a version
    /// that lacks it, even where Kafka's rules let an ignorable field go (on by
    /// default: at Produce v13 a topic `name` without its `topic_id` is an error
    /// naming the field, not an empty topic on the wire).
    pub fn with_strict_encoding(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Logs in with SASL after negotiating versions.
    pub fn with_login(mut self, login: Login) -> Self {
        self.login = Some(login);
        self
    }

    /// Speaks TLS, checking the broker's certificate against `tls`'s trusted
    /// certificates and `server_name`.
    #[cfg(feature = "tls")]
    pub fn with_tls(mut self, tls: crate::tls::TlsClient, server_name: impl Into<String>) -> Self {
        self.tls = Some((tls, server_name.into()));
        self
    }

    /// The request timeout.
    pub fn request_timeout(&self) -> Duration {
        self.request_timeout
    }
}
