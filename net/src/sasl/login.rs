//! The credentials a client logs in with, named once for the client connection,
//! the proxy's upstream login and command lines.

use std::str::FromStr;
use std::sync::Arc;

use super::{Mechanism, SaslClient, SaslError, ScramHash, TokenProvider};

/// The credentials a client logs in with, and the mechanism: each login (and
/// each login again) makes a fresh [`SaslClient`] from them.
///
/// ```
/// use kwire_net::sasl::Login;
/// use kwire_net::sasl::ScramHash;
///
/// let login = Login::scram(ScramHash::Sha512, "alice", "alice-secret");
/// assert_eq!(login.mechanism_name(), "SCRAM-SHA-512");
/// ```
#[derive(Clone)]
pub struct Login {
    kind: LoginKind,
}

#[derive(Clone)]
enum LoginKind {
    Plain {
        username: String,
        password: String,
    },
    Scram {
        hash: ScramHash,
        username: String,
        password: String,
    },
    OAuthBearer(Arc<dyn TokenProvider + Send + Sync>),
}

impl Login {
    /// PLAIN: the password travels as it is, so use it over TLS only.
    pub fn plain(username: impl Into<String>, password: impl Into<String>) -> Self {
        Login {
            kind: LoginKind::Plain {
                username: username.into(),
                password: password.into(),
            },
        }
    }

    /// SCRAM-SHA-256 or SCRAM-SHA-512: the password never leaves this side, and
    /// the broker proves it holds the user's credentials too.
    pub fn scram(
        hash: ScramHash,
        username: impl Into<String>,
        password: impl Into<String>,
    ) -> Self {
        Login {
            kind: LoginKind::Scram {
                hash,
                username: username.into(),
                password: password.into(),
            },
        }
    }

    /// OAUTHBEARER with the token `provider` gives, asked again at each login
    /// (a re-login before the session ends sends a fresh token). A fixed
    /// [`OAuthBearerToken`](crate::sasl::OAuthBearerToken) is a provider; so is
    /// a closure. Only over TLS: whoever reads the token can use it.
    ///
    /// ```
    /// use kwire_net::sasl::Login;
    /// use kwire_net::sasl::OAuthBearerToken;
    ///
    /// let login = Login::oauthbearer(OAuthBearerToken::new("eyJhbGciOi...").unwrap());
    /// assert_eq!(login.mechanism_name(), "OAUTHBEARER");
    /// ```
    pub fn oauthbearer(provider: impl TokenProvider + Send + Sync + 'static) -> Self {
        Login {
            kind: LoginKind::OAuthBearer(Arc::new(provider)),
        }
    }

    /// The mechanism.
    pub fn mechanism(&self) -> Mechanism {
        match &self.kind {
            LoginKind::Plain { .. } => Mechanism::Plain,
            LoginKind::Scram { hash, .. } => Mechanism::Scram(*hash),
            LoginKind::OAuthBearer(_) => Mechanism::OAuthBearer,
        }
    }

    /// The mechanism's name, as SaslHandshake carries it.
    pub fn mechanism_name(&self) -> &'static str {
        self.mechanism().name()
    }

    /// The user's name; `None` for OAUTHBEARER (the token names the principal).
    pub fn username(&self) -> Option<&str> {
        match &self.kind {
            LoginKind::Plain { username, .. } | LoginKind::Scram { username, .. } => Some(username),
            LoginKind::OAuthBearer(_) => None,
        }
    }

    /// A fresh exchange (each login and re-login needs its own nonce).
    pub fn client(&self) -> Result<SaslClient, SaslError> {
        match &self.kind {
            LoginKind::Plain { username, password } => SaslClient::plain(username, password),
            LoginKind::Scram {
                hash,
                username,
                password,
            } => SaslClient::scram(*hash, username, password),
            LoginKind::OAuthBearer(provider) => SaslClient::oauthbearer(provider.as_ref()),
        }
    }
}

/// Passwords stay out of logs.
impl std::fmt::Debug for Login {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut login = f.debug_struct("Login");
        login.field("mechanism", &self.mechanism_name());
        if let Some(username) = self.username() {
            login.field("username", &username);
        }
        login.finish_non_exhaustive()
    }
}

/// `MECHANISM:USER:PASSWORD` (the password may hold colons, the user not), for
/// PLAIN and SCRAM: what command lines take.
///
/// ```
/// use kwire_net::sasl::Login;
///
/// let login: Login = "SCRAM-SHA-256:alice:a:b:c".parse().unwrap();
/// assert_eq!((login.mechanism_name(), login.username()), ("SCRAM-SHA-256", Some("alice")));
/// assert!("OAUTHBEARER:alice:x".parse::<Login>().is_err());
/// assert!("PLAIN:alice".parse::<Login>().is_err());
/// ```
impl FromStr for Login {
    type Err = SaslError;

    fn from_str(text: &str) -> Result<Self, SaslError> {
        let mut parts = text.splitn(3, ':');
        let (Some(mechanism), Some(user), Some(password)) =
            (parts.next(), parts.next(), parts.next())
        else {
            return Err(SaslError::BadLogin("not MECHANISM:USER:PASSWORD"));
        };
        if user.is_empty() || password.is_empty() {
            return Err(SaslError::BadLogin("not MECHANISM:USER:PASSWORD"));
        }
        match Mechanism::from_name(mechanism) {
            Some(Mechanism::Plain) => Ok(Login::plain(user, password)),
            Some(Mechanism::Scram(hash)) => Ok(Login::scram(hash, user, password)),
            Some(Mechanism::OAuthBearer) => Err(SaslError::BadLogin(
                "OAUTHBEARER logs in with a token provider, not a password",
            )),
            None => Err(SaslError::BadLogin(
                "the mechanism is not one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512",
            )),
        }
    }
}
