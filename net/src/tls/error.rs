//! Why a TLS configuration or handshake failed.

use std::path::PathBuf;
use std::time::Duration;

use tokio_rustls::rustls;

/// Why a [`TlsClient`](super::TlsClient) or [`TlsServer`](super::TlsServer) could
/// not be made, or a handshake did not complete.
///
/// ```
/// use kwire_net::tls::{TlsClient, TlsError};
///
/// let error = TlsClient::from_ca_file("/no/such/ca.pem").unwrap_err();
/// assert!(matches!(error, TlsError::Read { .. }));
/// assert!(error.to_string().contains("/no/such/ca.pem"));
/// let error = TlsClient::from_ca_pem(b"not a certificate").unwrap_err();
/// assert!(matches!(error, TlsError::NoCertificate { .. }));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TlsError {
    /// A certificate or key file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// PEM text that does not parse (a section without its end, bad base64).
    #[error("unreadable PEM in {origin}: {source}")]
    Pem {
        /// Where the PEM came from: a file's path, or what it was given as.
        origin: String,
        /// What the PEM parser found.
        source: rustls::pki_types::pem::Error,
    },
    /// PEM text with no `CERTIFICATE` section.
    #[error("no certificate in {origin}")]
    NoCertificate {
        /// Where the PEM came from.
        origin: String,
    },
    /// PEM text with no private key section (PKCS#8, PKCS#1 or SEC1).
    #[error("no private key in {origin}")]
    NoKey {
        /// Where the PEM came from.
        origin: String,
    },
    /// A certificate that cannot be a trust anchor (not X.509, or unparseable).
    #[error("invalid certificate in {origin}: {source}")]
    InvalidCertificate {
        /// Where the certificate came from.
        origin: String,
        /// rustls' reason.
        source: rustls::Error,
    },
    /// A private key rustls cannot use, or one that does not match its
    /// certificate.
    #[error("invalid certificate or private key: {0}")]
    InvalidKey(#[source] rustls::Error),
    /// The verifier of client certificates could not be built.
    #[error("cannot verify client certificates: {0}")]
    ClientVerifier(#[source] rustls::server::VerifierBuilderError),
    /// rustls refused the configuration (no protocol version or cipher suite in
    /// common with the cryptography provider).
    #[error("TLS configuration refused: {0}")]
    Config(#[source] rustls::Error),
    /// The name to verify the server's certificate against is neither a DNS name
    /// nor an IP address.
    #[error("{name:?} is not a server name (a DNS name or an IP address)")]
    ServerName {
        /// The name given.
        name: String,
    },
    /// The handshake failed on TLS's terms: a certificate not trusted or not for
    /// this name, no protocol in common, an alert from the peer.
    #[error("TLS handshake failed: {0}")]
    Handshake(#[source] rustls::Error),
    /// The connection failed during the handshake (closed, reset).
    #[error("connection failed during the TLS handshake: {0}")]
    Io(#[source] std::io::Error),
    /// The handshake did not complete in time.
    #[error("TLS handshake not complete after {0:?}")]
    HandshakeTimeout(Duration),
}

impl TlsError {
    /// A handshake's I/O error: tokio-rustls reports TLS failures as
    /// `InvalidData` wrapping rustls' error, which is the one worth keeping.
    pub(super) fn from_handshake(error: std::io::Error) -> TlsError {
        match error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        {
            Some(tls) => TlsError::Handshake(tls.clone()),
            None => TlsError::Io(error),
        }
    }
}
