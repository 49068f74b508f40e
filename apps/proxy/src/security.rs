//! TLS and SASL on either side of the proxy, from the command line.
//!
//! Clients' side: `--tls-cert`/`--tls-key` make every listener TLS; `--sasl-user`
//! makes the proxy authenticate clients itself (it runs kwire-net's SASL gate,
//! and no client SASL frame goes upstream). Upstream side: `--upstream-tls-ca`
//! makes the proxy connect over TLS, verifying the broker's certificate;
//! `--upstream-sasl` makes it log in with its own credentials on every upstream
//! connection, once the client has logged in at the proxy and before anything of
//! the client's but its ApiVersions is forwarded.
//!
//! Without `--sasl-user` the proxy authenticates nobody: the clients' SASL goes
//! through to the broker as it came (`passthrough.rs`).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use kwire_net::sasl::{Login, Mechanism, ScramHash, ServerAuthenticator, Users};
use kwire_net::tls::{TlsClient, TlsServer};
use tracing::warn;

use crate::error::ProxyError;
use crate::routes::BrokerAddress;

/// Security as configured, files loaded and users' credentials derived.
#[derive(Debug, Default)]
pub struct Security {
    /// TLS on every listener, the bootstrap one and each broker's.
    pub client_tls: Option<TlsServer>,
    /// SASL terminated at the proxy.
    pub client_sasl: Option<ClientSasl>,
    /// TLS to every upstream broker.
    pub upstream_tls: Option<UpstreamTls>,
    /// The proxy's own login to every upstream broker (`--upstream-sasl
    /// MECHANISM:NAME:PASSWORD`: PLAIN or SCRAM; OAUTHBEARER would need a token
    /// provider, which the proxy has not).
    pub upstream_login: Option<Login>,
}

/// Who may log in to the proxy, and how.
#[derive(Debug)]
pub struct ClientSasl {
    /// Each user as salted SCRAM credentials (PLAIN is checked against them).
    pub users: Arc<Users>,
    /// The mechanisms offered, in SaslHandshake's order.
    pub mechanisms: Vec<Mechanism>,
}

impl ClientSasl {
    /// A new client's gate. No session lifetime: clients are not asked to
    /// re-authenticate (KIP-368), so the gate never has to run mid-forwarding.
    pub fn gate(&self) -> ServerAuthenticator {
        ServerAuthenticator::new(self.mechanisms.clone())
    }
}

/// TLS to the upstream brokers.
#[derive(Debug)]
pub struct UpstreamTls {
    /// The CA certificates the brokers' certificates must chain to.
    pub client: TlsClient,
    /// The name every broker's certificate is checked against; `None`: each
    /// broker's own host, as Metadata names it (a Kafka client's check).
    pub server_name: Option<String>,
}

impl UpstreamTls {
    /// The name `upstream`'s certificate must be valid for.
    pub fn server_name<'a>(&'a self, upstream: &'a BrokerAddress) -> &'a str {
        self.server_name.as_deref().unwrap_or(upstream.host())
    }
}

/// The security options as given, before they are checked together and their
/// files read.
#[derive(Debug, Default)]
pub struct SecurityOptions {
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
    users: Vec<(String, String)>,
    mechanisms: Option<Vec<Mechanism>>,
    upstream_ca: Option<PathBuf>,
    upstream_server_name: Option<String>,
    upstream_login: Option<Login>,
}

/// The mechanisms a client may be offered: OAUTHBEARER would need a token
/// validator, which the proxy has not.
const CLIENT_MECHANISMS: [Mechanism; 3] = [
    Mechanism::Plain,
    Mechanism::Scram(ScramHash::Sha256),
    Mechanism::Scram(ScramHash::Sha512),
];

impl SecurityOptions {
    /// Takes `flag` and its value (`text`, as a path `path`) if it is a security
    /// option; whether it was.
    pub fn take(&mut self, flag: &str, text: &str, path: PathBuf) -> Result<bool, ProxyError> {
        let usage = |why: String| ProxyError::Usage(format!("{flag}: {why}"));
        match flag {
            "--tls-cert" => self.tls_cert = Some(path),
            "--tls-key" => self.tls_key = Some(path),
            "--sasl-user" => {
                let (name, password) = text
                    .split_once(':')
                    .filter(|(name, password)| !name.is_empty() && !password.is_empty())
                    .ok_or_else(|| usage("not NAME:PASSWORD".into()))?;
                self.users.push((name.to_owned(), password.to_owned()));
            }
            "--sasl-enabled-mechanisms" => {
                let mechanisms = text
                    .split(',')
                    .map(|name| {
                        Mechanism::from_name(name.trim())
                            .filter(|m| CLIENT_MECHANISMS.contains(m))
                            .ok_or_else(|| {
                                usage(format!(
                                    "{name} is not one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512"
                                ))
                            })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                self.mechanisms = Some(mechanisms);
            }
            "--upstream-tls-ca" => self.upstream_ca = Some(path),
            "--upstream-tls-server-name" => {
                if text.is_empty() {
                    return Err(usage("empty".into()));
                }
                self.upstream_server_name = Some(text.to_owned());
            }
            "--upstream-sasl" => {
                self.upstream_login = Some(text.parse().map_err(|e| usage(format!("{e}")))?)
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Checks the options together, before anything is read: what the command
    /// line alone can tell.
    pub fn check(&self) -> Result<(), ProxyError> {
        let usage = |text: &str| Err(ProxyError::Usage(text.to_owned()));
        if self.tls_cert.is_some() != self.tls_key.is_some() {
            return usage("--tls-cert and --tls-key go together");
        }
        if self.users.is_empty() && self.mechanisms.is_some() {
            return usage("--sasl-enabled-mechanisms needs a --sasl-user");
        }
        if self.upstream_server_name.is_some() && self.upstream_ca.is_none() {
            return usage("--upstream-tls-server-name needs --upstream-tls-ca");
        }
        // Otherwise every client would reach the brokers as the proxy's user,
        // authenticated by nobody.
        if self.upstream_login.is_some() && self.users.is_empty() {
            return usage(
                "--upstream-sasl needs a --sasl-user: the proxy must authenticate the clients \
                 it lends its own credentials to",
            );
        }
        Ok(())
    }

    /// Reads the certificates and derives the users' credentials.
    /// `handshake_timeout` bounds each client's TLS handshake.
    pub fn build(self, handshake_timeout: Duration) -> Result<Security, ProxyError> {
        self.check()?;
        let client_tls = match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Some(
                TlsServer::from_pem_files(cert, key)?.with_handshake_timeout(handshake_timeout),
            ),
            _ => None,
        };
        let client_sasl = if self.users.is_empty() {
            None
        } else {
            let mut users = Users::new();
            for (name, password) in &self.users {
                users = users
                    .with_user(name, password)
                    .map_err(|error| ProxyError::Usage(format!("--sasl-user {name}: {error}")))?;
            }
            let mechanisms = self
                .mechanisms
                .unwrap_or_else(|| CLIENT_MECHANISMS.to_vec());
            if mechanisms.contains(&Mechanism::Plain) && client_tls.is_none() {
                warn!("PLAIN offered without --tls-cert: clients' passwords travel in clear");
            }
            Some(ClientSasl {
                users: Arc::new(users),
                mechanisms,
            })
        };
        let upstream_tls = match self.upstream_ca {
            Some(ca) => Some(UpstreamTls {
                client: TlsClient::from_ca_file(ca)?,
                server_name: self.upstream_server_name,
            }),
            None => None,
        };
        if let Some(login) = &self.upstream_login {
            if login.mechanism() == Mechanism::Plain && upstream_tls.is_none() {
                warn!("--upstream-sasl PLAIN without --upstream-tls-ca: the password travels in clear");
            }
        }
        Ok(Security {
            client_tls,
            client_sasl,
            upstream_tls,
            upstream_login: self.upstream_login,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(args: &[&str]) -> Result<SecurityOptions, ProxyError> {
        let mut options = SecurityOptions::default();
        for pair in args.chunks(2) {
            let [flag, value] = pair else {
                panic!("{pair:?}")
            };
            assert!(options.take(flag, value, PathBuf::from(value))?, "{flag}");
        }
        options.check()?;
        Ok(options)
    }

    #[test]
    fn upstream_credentials_are_read_whole() {
        let mut options = SecurityOptions::default();
        let text = "SCRAM-SHA-512:proxy:pass:with:colons";
        assert!(options.take("--upstream-sasl", text, text.into()).unwrap());
        let login = options.upstream_login.unwrap();
        assert_eq!(login.mechanism_name(), "SCRAM-SHA-512");
        assert_eq!(login.username(), Some("proxy"));
        assert!(!format!("{login:?}").contains("pass"));
        for bad in [
            "SCRAM-SHA-512:proxy",
            "SCRAM-SHA-512::pw",
            "PLAIN:proxy:",
            "GSSAPI:proxy:pw",
            "OAUTHBEARER:proxy:pw",
        ] {
            let refused = SecurityOptions::default().take("--upstream-sasl", bad, bad.into());
            assert!(
                matches!(&refused, Err(ProxyError::Usage(text)) if text.starts_with("--upstream-sasl: ")),
                "{bad}: {refused:?}"
            );
        }
    }

    #[test]
    fn options_that_need_others_are_refused_alone() {
        assert!(options(&["--tls-cert", "c.pem"]).is_err());
        assert!(options(&["--tls-cert", "c.pem", "--tls-key", "k.pem"]).is_ok());
        assert!(options(&["--sasl-enabled-mechanisms", "PLAIN"]).is_err());
        assert!(options(&[
            "--sasl-user",
            "a:b",
            "--sasl-enabled-mechanisms",
            "OAUTHBEARER"
        ])
        .is_err());
        assert!(options(&["--sasl-user", "nopassword"]).is_err());
        assert!(options(&["--upstream-tls-server-name", "broker"]).is_err());
        // Lending the proxy's credentials to clients nobody authenticated.
        assert!(options(&["--upstream-sasl", "PLAIN:p:pw"]).is_err());
        assert!(options(&["--sasl-user", "a:b", "--upstream-sasl", "PLAIN:p:pw"]).is_ok());
    }

    #[test]
    fn missing_certificates_are_errors_not_panics() {
        let options =
            options(&["--tls-cert", "/no/such.pem", "--tls-key", "/no/such.key"]).unwrap();
        let error = options.build(Duration::from_secs(1)).unwrap_err();
        assert!(matches!(error, ProxyError::Tls(_)), "{error:?}");
    }
}
