//! TLS under Kafka's frames (feature `tls`): what Kafka calls the SSL and
//! SASL_SSL security protocols.
//!
//! A [`TlsClient`] turns a connected stream into an encrypted one, a
//! [`TlsServer`] does the same for an accepted one; Kafka's frames then go over
//! it as over TCP ([`server::FrameReader`](crate::server::FrameReader),
//! [`codec`](crate::codec)), and SASL_SSL is [`sasl`](crate::sasl) over it.
//!
//! Certificates are always verified: a client trusts the CA certificates it is
//! given, not the system's and never none, and checks the server's name against
//! the certificate. rustls, with ring's cryptography; TLS 1.2 and 1.3.
//!
//! Writes to a TLS stream are buffered in rustls: flush after writing a frame
//! (`AsyncWriteExt::flush`), or it may not leave.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use kwire_net::tls::{TlsClient, TlsServer};
//! use tokio::io::{AsyncReadExt, AsyncWriteExt};
//!
//! // A self-signed certificate, its own CA (made here; read from files in a server).
//! let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()])?;
//! let (cert, key) = (made.cert.pem(), made.signing_key.serialize_pem());
//! let server = TlsServer::from_pem(cert.as_bytes(), key.as_bytes())?;
//! let client = TlsClient::from_ca_pem(cert.as_bytes())?;
//!
//! let (near, far) = tokio::io::duplex(16 << 10); // a TcpStream in real life
//! let serving = tokio::spawn(async move {
//!     let mut stream = server.accept(far).await?;
//!     let mut frame = [0; 6];
//!     stream.read_exact(&mut frame).await?;
//!     stream.write_all(&frame).await?;
//!     stream.flush().await?;
//!     Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
//! });
//! let mut stream = client.connect("localhost", near).await?;
//! stream.write_all(b"\0\0\0\x02hi").await?;
//! stream.flush().await?;
//! let mut echo = [0; 6];
//! stream.read_exact(&mut echo).await?;
//! assert_eq!(&echo, b"\0\0\0\x02hi");
//! serving.await?.map_err(|e| e.to_string())?;
//! # Ok(())
//! # }
//! ```

mod error;
#[cfg(test)]
mod tests;

use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio_rustls::rustls::crypto::CryptoProvider;
use tokio_rustls::rustls::pki_types::pem::{self, PemObject};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use tokio_rustls::rustls::server::WebPkiClientVerifier;
use tokio_rustls::rustls::{ClientConfig, RootCertStore, ServerConfig};
use tokio_rustls::{TlsAcceptor, TlsConnector};

pub use error::TlsError;
/// A client's stream once the handshake is done: read and write it as the stream
/// it wraps.
pub use tokio_rustls::client::TlsStream as ClientStream;
/// rustls itself, for its error types and to go beyond what this module sets.
pub use tokio_rustls::rustls;
/// A server's stream once the handshake is done.
pub use tokio_rustls::server::TlsStream as ServerStream;

/// How long a handshake may take unless set otherwise
/// ([`TlsServer::with_handshake_timeout`], [`TlsClient::with_handshake_timeout`]):
/// a few round trips and some public-key arithmetic, long enough for a loaded
/// machine and short enough that a peer that never finishes frees its
/// connection soon.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// ring's cryptography, named rather than rustls' process-wide default, which
/// panics when the build has no provider or two.
fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn read_file(path: &Path) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|source| TlsError::Read {
        path: path.to_owned(),
        source,
    })
}

/// Every `CERTIFICATE` section of `pem`, in order; at least one.
fn certificates(pem: &[u8], origin: &str) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let certs = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|source| TlsError::Pem {
            origin: origin.to_owned(),
            source,
        })?;
    if certs.is_empty() {
        return Err(TlsError::NoCertificate {
            origin: origin.to_owned(),
        });
    }
    Ok(certs)
}

/// The first private key section of `pem`.
fn private_key(pem: &[u8], origin: &str) -> Result<PrivateKeyDer<'static>, TlsError> {
    PrivateKeyDer::from_pem_slice(pem).map_err(|source| match source {
        pem::Error::NoItemsFound => TlsError::NoKey {
            origin: origin.to_owned(),
        },
        source => TlsError::Pem {
            origin: origin.to_owned(),
            source,
        },
    })
}

/// A trust store of every certificate in `pem`, each checked.
fn roots(pem: &[u8], origin: &str) -> Result<RootCertStore, TlsError> {
    let mut roots = RootCertStore::empty();
    for cert in certificates(pem, origin)? {
        roots
            .add(cert)
            .map_err(|source| TlsError::InvalidCertificate {
                origin: origin.to_owned(),
                source,
            })?;
    }
    Ok(roots)
}

/// Bounds `handshake` by `timeout`, its errors made [`TlsError`]s.
async fn bounded<T>(
    timeout: Duration,
    handshake: impl std::future::Future<Output = std::io::Result<T>>,
) -> Result<T, TlsError> {
    match tokio::time::timeout(timeout, handshake).await {
        Ok(Ok(stream)) => Ok(stream),
        Ok(Err(error)) => Err(TlsError::from_handshake(error)),
        Err(_) => Err(TlsError::HandshakeTimeout(timeout)),
    }
}

/// The client side: the CA certificates a server's certificate must chain to,
/// and optionally a certificate of its own (mutual TLS). Cheap to clone.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use kwire_net::tls::{TlsClient, TlsError};
///
/// # let dir = std::env::temp_dir().join(format!("kwire-tls-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let ca = dir.join("ca.pem");
/// # let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()])?;
/// # std::fs::write(&ca, made.cert.pem())?;
/// let client = TlsClient::from_ca_file(&ca)?;
/// # std::fs::remove_dir_all(&dir)?;
/// // A server name is a DNS name or an IP address, without a port.
/// let (stream, _peer) = tokio::io::duplex(1024);
/// let refused = client.connect("localhost:9093", stream).await.unwrap_err();
/// assert!(matches!(refused, TlsError::ServerName { .. }));
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct TlsClient {
    roots: Arc<RootCertStore>,
    config: Arc<ClientConfig>,
    handshake_timeout: Duration,
    /// Whether it presents a certificate, for `Debug`.
    mutual: bool,
}

impl fmt::Debug for TlsClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TlsClient")
            .field("trusted_cas", &self.roots.len())
            .field("client_certificate", &self.mutual)
            .field("handshake_timeout", &self.handshake_timeout)
            .finish()
    }
}

impl TlsClient {
    /// Trusts the CA certificates in the PEM file at `path` (one or more
    /// `CERTIFICATE` sections), and no others.
    pub fn from_ca_file(path: impl AsRef<Path>) -> Result<TlsClient, TlsError> {
        let path = path.as_ref();
        TlsClient::from_roots(roots(&read_file(path)?, &path.display().to_string())?)
    }

    /// Trusts the CA certificates in `pem`, and no others.
    pub fn from_ca_pem(pem: &[u8]) -> Result<TlsClient, TlsError> {
        TlsClient::from_roots(roots(pem, "the CA certificates given")?)
    }

    fn from_roots(roots: RootCertStore) -> Result<TlsClient, TlsError> {
        let roots = Arc::new(roots);
        let config = ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(TlsError::Config)?
            .with_root_certificates(Arc::clone(&roots))
            .with_no_client_auth();
        Ok(TlsClient {
            roots,
            config: Arc::new(config),
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            mutual: false,
        })
    }

    /// Presents the certificate chain in `cert_pem` (the client's own first),
    /// signed with the private key in `key_pem`, to servers that ask for one
    /// (Kafka's `ssl.client.auth=required`).
    pub fn with_client_certificate(
        self,
        cert_pem: &[u8],
        key_pem: &[u8],
    ) -> Result<TlsClient, TlsError> {
        let certs = certificates(cert_pem, "the client certificate given")?;
        let key = private_key(key_pem, "the client key given")?;
        let config = ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(TlsError::Config)?
            .with_root_certificates(Arc::clone(&self.roots))
            .with_client_auth_cert(certs, key)
            .map_err(TlsError::InvalidKey)?;
        Ok(TlsClient {
            config: Arc::new(config),
            mutual: true,
            ..self
        })
    }

    /// Fails a handshake that takes longer than `timeout` (default
    /// [`DEFAULT_HANDSHAKE_TIMEOUT`]) with [`TlsError::HandshakeTimeout`].
    pub fn with_handshake_timeout(mut self, timeout: Duration) -> TlsClient {
        self.handshake_timeout = timeout;
        self
    }

    /// The longest a handshake may take.
    pub fn handshake_timeout(&self) -> Duration {
        self.handshake_timeout
    }

    /// The TLS handshake over `stream`, connected to the server whose certificate
    /// must be valid for `server_name` (a DNS name or an IP address, as the
    /// bootstrap or Metadata address names it, without the port).
    ///
    /// Refused, with [`TlsError::Handshake`], when the certificate does not chain
    /// to a trusted CA or is not for `server_name`.
    pub async fn connect<S: AsyncRead + AsyncWrite + Unpin>(
        &self,
        server_name: &str,
        stream: S,
    ) -> Result<ClientStream<S>, TlsError> {
        let name =
            ServerName::try_from(server_name.to_owned()).map_err(|_| TlsError::ServerName {
                name: server_name.to_owned(),
            })?;
        let connector = TlsConnector::from(Arc::clone(&self.config));
        bounded(self.handshake_timeout, connector.connect(name, stream)).await
    }
}

/// The server side: a certificate chain and its private key, and optionally the
/// CA certificates clients must present a certificate from. Cheap to clone: the
/// configuration is shared.
///
/// [`accept`](Self::accept) bounds the handshake by its
/// [timeout](Self::with_handshake_timeout); a server with connection limits
/// should also hold the connection's slot through it, so that handshakes
/// count, and can be evicted, like any connection.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use kwire_net::tls::{TlsError, TlsServer};
///
/// # let dir = std::env::temp_dir().join(format!("kwire-tls-server-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let (cert, key) = (dir.join("server.pem"), dir.join("server.key"));
/// # let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()])?;
/// # std::fs::write(&cert, made.cert.pem())?;
/// # std::fs::write(&key, made.signing_key.serialize_pem())?;
/// let server = TlsServer::from_pem_files(&cert, &key)?
///     .with_handshake_timeout(Duration::from_secs(5));
/// assert_eq!(server.handshake_timeout(), Duration::from_secs(5));
///
/// // The certificate's file given as the key: no key in it.
/// let wrong = TlsServer::from_pem_files(&cert, &cert).unwrap_err();
/// assert!(matches!(wrong, TlsError::NoKey { .. }));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct TlsServer {
    identity: Arc<Identity>,
    client_roots: Option<Arc<RootCertStore>>,
    config: Arc<ServerConfig>,
    handshake_timeout: Duration,
}

/// What the server proves itself with; kept to build the configuration again
/// when client authentication is added.
struct Identity {
    certs: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
}

impl fmt::Debug for TlsServer {
    // Not the key, nor rustls' configuration.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TlsServer")
            .field("certificates", &self.identity.certs.len())
            .field(
                "client_cas",
                &self.client_roots.as_ref().map(|roots| roots.len()),
            )
            .field("handshake_timeout", &self.handshake_timeout)
            .finish()
    }
}

impl TlsServer {
    /// The certificate chain in the PEM file at `cert_path` (the server's own
    /// certificate first, then any intermediates) and the private key in the one
    /// at `key_path` (PKCS#8, PKCS#1 or SEC1; the same file may hold both).
    pub fn from_pem_files(
        cert_path: impl AsRef<Path>,
        key_path: impl AsRef<Path>,
    ) -> Result<TlsServer, TlsError> {
        let (cert_path, key_path) = (cert_path.as_ref(), key_path.as_ref());
        let certs = certificates(&read_file(cert_path)?, &cert_path.display().to_string())?;
        let key = private_key(&read_file(key_path)?, &key_path.display().to_string())?;
        TlsServer::from_identity(Identity { certs, key })
    }

    /// The certificate chain in `cert_pem` and the private key in `key_pem`, as
    /// [`from_pem_files`](Self::from_pem_files) reads them.
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<TlsServer, TlsError> {
        let certs = certificates(cert_pem, "the server certificate given")?;
        let key = private_key(key_pem, "the server key given")?;
        TlsServer::from_identity(Identity { certs, key })
    }

    fn from_identity(identity: Identity) -> Result<TlsServer, TlsError> {
        let identity = Arc::new(identity);
        Ok(TlsServer {
            config: server_config(&identity, None)?,
            identity,
            client_roots: None,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
        })
    }

    /// Requires every client to present a certificate that chains to one of the
    /// CA certificates in `ca_pem` (Kafka's `ssl.client.auth=required`).
    pub fn with_client_ca_pem(self, ca_pem: &[u8]) -> Result<TlsServer, TlsError> {
        self.with_client_roots(roots(ca_pem, "the client CA certificates given")?)
    }

    /// [`with_client_ca_pem`](Self::with_client_ca_pem), the CA certificates read
    /// from the PEM file at `path`.
    pub fn with_client_ca_file(self, path: impl AsRef<Path>) -> Result<TlsServer, TlsError> {
        let path = path.as_ref();
        self.with_client_roots(roots(&read_file(path)?, &path.display().to_string())?)
    }

    fn with_client_roots(self, roots: RootCertStore) -> Result<TlsServer, TlsError> {
        let roots = Arc::new(roots);
        Ok(TlsServer {
            config: server_config(&self.identity, Some(&roots))?,
            client_roots: Some(roots),
            ..self
        })
    }

    /// Fails a handshake that takes longer than `timeout` (default
    /// [`DEFAULT_HANDSHAKE_TIMEOUT`]) with [`TlsError::HandshakeTimeout`].
    pub fn with_handshake_timeout(mut self, timeout: Duration) -> TlsServer {
        self.handshake_timeout = timeout;
        self
    }

    /// The longest a handshake may take.
    pub fn handshake_timeout(&self) -> Duration {
        self.handshake_timeout
    }

    /// The TLS handshake over the accepted `stream`, within the handshake
    /// timeout. Dropping the future (on eviction, at shutdown) drops the stream.
    pub async fn accept<S: AsyncRead + AsyncWrite + Unpin>(
        &self,
        stream: S,
    ) -> Result<ServerStream<S>, TlsError> {
        let acceptor = TlsAcceptor::from(Arc::clone(&self.config));
        bounded(self.handshake_timeout, acceptor.accept(stream)).await
    }
}

fn server_config(
    identity: &Identity,
    client_roots: Option<&Arc<RootCertStore>>,
) -> Result<Arc<ServerConfig>, TlsError> {
    let provider = provider();
    let builder = ServerConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(TlsError::Config)?;
    let builder = match client_roots {
        None => builder.with_no_client_auth(),
        Some(roots) => builder.with_client_cert_verifier(
            WebPkiClientVerifier::builder_with_provider(Arc::clone(roots), provider)
                .build()
                .map_err(TlsError::ClientVerifier)?,
        ),
    };
    let config = builder
        .with_single_cert(identity.certs.clone(), identity.key.clone_key())
        .map_err(TlsError::InvalidKey)?;
    Ok(Arc::new(config))
}
