//! Who may use the broker: SASL users and mechanisms from the command line.
//!
//! With no `--sasl-user` and no `--sasl-users-file`, the listener is PLAINTEXT
//! (anyone is served). With users, it is SASL_PLAINTEXT: a connection must
//! authenticate (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512) before any request but
//! ApiVersions and the SASL exchange is served, as Kafka's broker requires.
//! `--sasl-user NAME:PASSWORD` salts the password at start; `--sasl-users-file`
//! holds credentials salted already (`users_file.rs`), so that no password is
//! on disk or on the command line.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use kwire_messages::frame::{self, frame_contents};
use kwire_messages::Request;
use kwire_net::sasl::{Gate, Mechanism, RawGate, ServerAuthenticator, UnsecuredValidator, Users};
use kwire_net::server::AuthenticationPool;

use crate::config::UsageError;
use crate::users_file;

/// SASL as configured.
#[derive(Debug)]
pub struct Security {
    /// The users, each stored as SCRAM credentials (salted; no password is kept).
    pub users: Arc<Users>,
    /// The mechanisms offered, in the order SaslHandshake lists them.
    pub mechanisms: Vec<Mechanism>,
    /// Kafka's `connections.max.reauth.ms`: sessions end after this unless the
    /// client re-authenticates.
    pub reauth: Option<Duration>,
}

impl Security {
    /// A new connection's SASL state; its credential checks run on `pool`.
    pub fn connection(&self, pool: &AuthenticationPool) -> SaslConnection {
        let gate = ServerAuthenticator::new(self.mechanisms.clone());
        let gate = match self.reauth {
            Some(lifetime) => gate.with_session_lifetime(lifetime),
            None => gate,
        };
        SaslConnection {
            gate,
            users: Arc::clone(&self.users),
            pool: pool.clone(),
        }
    }
}

/// One connection's SASL gate, the users it checks clients against, and where
/// the checks run (off the I/O threads, a bounded number at once).
pub struct SaslConnection {
    gate: ServerAuthenticator,
    users: Arc<Users>,
    pool: AuthenticationPool,
}

impl SaslConnection {
    /// Whether the next frame is a bare token (after SaslHandshake v0), not a
    /// request.
    pub fn expects_raw_token(&self) -> bool {
        self.gate.expects_raw_token()
    }

    /// Whether the connection has logged in and is not re-authenticating.
    pub fn is_authenticated(&self) -> bool {
        self.gate.is_authenticated()
    }

    /// The answer to a bare-token frame, itself a frame holding the reply
    /// token; `Err` says why the connection must close.
    pub async fn raw_token(&mut self, frame: &Bytes) -> Result<Bytes, String> {
        let token = frame_contents(frame).map_err(|error| error.to_string())?;
        let token = frame.slice_ref(token);
        let now = Instant::now();
        match self
            .pool
            .gate_raw_token(&mut self.gate, token, &self.users, now)
            .await
        {
            RawGate::Send(reply) => {
                let prefix = frame::length_prefix(reply.len()).map_err(|e| e.to_string())?;
                Ok([&prefix[..], &reply].concat().into())
            }
            RawGate::Close(why) => Err(why),
        }
    }

    /// What to do with `request`, sent at `version`.
    pub async fn on_request(&mut self, request: &Request, version: i16) -> Gate {
        let now = Instant::now();
        self.pool
            .gate_request(&mut self.gate, request, version, &self.users, now)
            .await
    }
}

/// The SASL options as given, before they are checked together.
#[derive(Debug, Default)]
pub struct SecurityOptions {
    users: Vec<(String, String)>,
    users_file: Option<PathBuf>,
    mechanisms: Option<Vec<Mechanism>>,
    reauth: Option<Duration>,
    unsecured_oauthbearer: bool,
}

impl SecurityOptions {
    /// Takes `arg` (and its value) if it is a SASL option.
    pub fn parse(
        &mut self,
        arg: &str,
        value: &mut impl FnMut(&str) -> Result<String, UsageError>,
    ) -> Result<bool, UsageError> {
        match arg {
            "--sasl-user" => {
                let given = value(arg)?;
                let (name, password) = given
                    .split_once(':')
                    .filter(|(name, password)| !name.is_empty() && !password.is_empty())
                    .ok_or_else(|| UsageError::new(format!("{arg}: not NAME:PASSWORD")))?;
                self.users.push((name.to_owned(), password.to_owned()));
            }
            "--sasl-users-file" => {
                let given = value(arg)?;
                if self.users_file.is_some() {
                    return Err(UsageError::new(format!("{arg} given twice")));
                }
                self.users_file = Some(PathBuf::from(given));
            }
            "--sasl-enabled-mechanisms" => {
                let given = value(arg)?;
                let mechanisms = given
                    .split(',')
                    .map(|name| {
                        Mechanism::from_name(name.trim()).ok_or_else(|| {
                            UsageError::new(format!(
                                "{arg}: {name} is not one of PLAIN, SCRAM-SHA-256, \
                                 SCRAM-SHA-512, OAUTHBEARER"
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                self.mechanisms = Some(mechanisms);
            }
            // Kafka's OAuthBearerUnsecuredValidatorCallbackHandler: for tests only,
            // as it checks no signature.
            "--sasl-oauthbearer-unsecured" => self.unsecured_oauthbearer = true,
            "--connections-max-reauth-ms" => {
                let given = value(arg)?;
                let ms: u64 = given.parse().ok().filter(|ms| *ms > 0).ok_or_else(|| {
                    UsageError::new(format!("{arg} {given}: not a positive count"))
                })?;
                self.reauth = Some(Duration::from_millis(ms));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The security settings; `None` without users (PLAINTEXT). Reads
    /// `--sasl-users-file`: a bad file is a usage error, so that the broker
    /// does not start.
    pub fn build(self) -> Result<Option<Security>, UsageError> {
        let stored = match &self.users_file {
            Some(path) => users_file::read(path)?,
            None => Vec::new(),
        };
        if self.users.is_empty() && stored.is_empty() {
            if self.mechanisms.is_some() || self.reauth.is_some() || self.unsecured_oauthbearer {
                return Err(UsageError::new(
                    "--sasl-enabled-mechanisms, --sasl-oauthbearer-unsecured and \
                     --connections-max-reauth-ms need a --sasl-user or --sasl-users-file"
                        .into(),
                ));
            }
            return Ok(None);
        }
        let oauthbearer = self
            .mechanisms
            .as_ref()
            .is_some_and(|m| m.contains(&Mechanism::OAuthBearer));
        if oauthbearer && !self.unsecured_oauthbearer {
            // Offered without a validator, every login would fail.
            return Err(UsageError::new(
                "--sasl-enabled-mechanisms OAUTHBEARER needs --sasl-oauthbearer-unsecured".into(),
            ));
        }
        let mut users = Users::new();
        for (name, password) in &self.users {
            users = users
                .with_user(name, password)
                .map_err(|error| UsageError::new(format!("--sasl-user {name}: {error}")))?;
        }
        for user in stored {
            // One user given both ways would have one password replace the
            // other's credential for a mechanism: refused as ambiguous.
            if self.users.iter().any(|(name, _)| *name == user.name) {
                let file = self
                    .users_file
                    .as_deref()
                    .map(|path| path.display().to_string())
                    .unwrap_or_default();
                return Err(UsageError::new(format!(
                    "--sasl-user {}: also in --sasl-users-file {file} (line {})",
                    user.name, user.line
                )));
            }
            users = users.with_credential(&user.name, user.credential);
        }
        if self.unsecured_oauthbearer {
            users = users.with_token_validator(UnsecuredValidator::new());
        }
        Ok(Some(Security {
            users: Arc::new(users),
            mechanisms: self.mechanisms.unwrap_or_else(|| Mechanism::ALL.to_vec()),
            reauth: self.reauth,
        }))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use kwire_net::sasl::{Credentials, ScramCredential, ScramHash};

    use super::*;

    fn parse(args: &[&str]) -> Result<Option<Security>, UsageError> {
        let mut options = SecurityOptions::default();
        let mut args = args.iter().map(|s| s.to_string());
        while let Some(arg) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .ok_or_else(|| UsageError::new(format!("{name} needs a value")))
            };
            assert!(options.parse(&arg, &mut value)?, "{arg} not taken");
        }
        options.build()
    }

    #[test]
    fn users_and_mechanisms_are_read_and_checked() {
        assert!(parse(&[]).unwrap().is_none());
        let security = parse(&[
            "--sasl-user",
            "alice:pw:with:colons",
            "--sasl-enabled-mechanisms",
            "SCRAM-SHA-512",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(security.users.len(), 1);
        assert_eq!(security.mechanisms.len(), 1);
        assert!(parse(&["--sasl-user", "alice"]).is_err());
        assert!(parse(&["--sasl-user", ":pw"]).is_err());
        assert!(parse(&["--sasl-enabled-mechanisms", "GSSAPI"]).is_err());
        assert!(parse(&["--connections-max-reauth-ms", "1000"]).is_err());
        assert!(parse(&[
            "--sasl-user",
            "a:b",
            "--sasl-enabled-mechanisms",
            "OAUTHBEARER"
        ])
        .is_err());
        assert!(parse(&["--sasl-oauthbearer-unsecured"]).is_err());
        let oauth = ["--sasl-user", "a:b", "--sasl-oauthbearer-unsecured"];
        assert!(parse(&oauth).unwrap().is_some());
    }

    /// A users file holding `text`, in the system's temporary directory.
    pub(crate) fn users_file(name: &str, text: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("kwire-broker-{}-{name}.users", std::process::id()));
        std::fs::write(&path, text).expect("write the users file");
        path
    }

    pub(crate) fn stored(name: &str, hash: ScramHash, password: &str) -> String {
        let credential = ScramCredential::new(hash, password, 4096).unwrap();
        format!("{name} {} {credential}\n", hash.mechanism_name())
    }

    #[test]
    fn a_users_file_gives_users_alone_or_with_sasl_user() {
        let text = format!(
            "# users\n{}{}",
            stored("alice", ScramHash::Sha512, "alice-secret"),
            stored("bob", ScramHash::Sha256, "bob-secret")
        );
        let path = users_file("alone", &text);
        let file = path.to_str().unwrap();
        let security = parse(&["--sasl-users-file", file]).unwrap().unwrap();
        assert_eq!(security.users.len(), 2);
        assert!(security.users.plain("alice", "alice-secret"));
        assert!(security.users.scram(ScramHash::Sha512, "alice").is_some());
        assert!(security.users.scram(ScramHash::Sha256, "alice").is_none());
        assert!(security.users.scram(ScramHash::Sha256, "bob").is_some());

        let both = parse(&[
            "--sasl-user",
            "carol:carol-secret",
            "--sasl-users-file",
            file,
        ])
        .unwrap()
        .unwrap();
        assert_eq!(both.users.len(), 3);
        assert!(both.users.plain("carol", "carol-secret"));
        assert!(both.users.plain("bob", "bob-secret"));

        // The other options need users, and a file gives them.
        let narrowed = parse(&[
            "--sasl-users-file",
            file,
            "--sasl-enabled-mechanisms",
            "SCRAM-SHA-512",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(narrowed.mechanisms, [Mechanism::Scram(ScramHash::Sha512)]);

        // One user given both ways, the file twice.
        let error = parse(&["--sasl-user", "bob:x", "--sasl-users-file", file]).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("--sasl-user bob: also in --sasl-users-file {file} (line 3)")
        );
        assert!(parse(&["--sasl-users-file", file, "--sasl-users-file", file]).is_err());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_bad_users_file_is_a_usage_error() {
        let text = format!(
            "{}\nalice SCRAM-SHA-512 salt=AAAA,iterations=4096\n",
            stored("bob", ScramHash::Sha256, "bob-secret")
        );
        let path = users_file("bad", &text);
        let file = path.to_str().unwrap();
        let error = parse(&["--sasl-users-file", file]).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "--sasl-users-file {file} line 3: alice SCRAM-SHA-512: bad SCRAM credential: \
                 stored_key, server_key missing"
            )
        );
        std::fs::remove_file(&path).unwrap();
        let error = parse(&["--sasl-users-file", file]).unwrap_err();
        assert!(error
            .to_string()
            .starts_with(&format!("--sasl-users-file {file}: ")));
        assert!(parse(&["--sasl-users-file"]).is_err());
    }
}
