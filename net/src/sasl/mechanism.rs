//! The mechanisms, by the names Kafka's `sasl.mechanism` uses.

use super::scram::ScramHash;

/// A SASL mechanism this crate runs.
///
/// ```
/// use kwire_net::sasl::{Mechanism, ScramHash};
///
/// assert_eq!(Mechanism::from_name("SCRAM-SHA-256"), Some(Mechanism::Scram(ScramHash::Sha256)));
/// assert_eq!(Mechanism::Plain.name(), "PLAIN");
/// assert_eq!(Mechanism::from_name("OAUTHBEARER"), Some(Mechanism::OAuthBearer));
/// assert_eq!(Mechanism::from_name("GSSAPI"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mechanism {
    /// `PLAIN` (RFC 4616): the password itself, so only over TLS.
    Plain,
    /// `SCRAM-SHA-256` or `SCRAM-SHA-512`.
    Scram(ScramHash),
    /// `OAUTHBEARER` (RFC 7628): a bearer token, judged by the server's
    /// [`TokenValidator`](super::TokenValidator). Only over TLS too.
    OAuthBearer,
}

impl Mechanism {
    /// Every mechanism, in the order a broker lists them. A
    /// [`ServerAuthenticator`](super::ServerAuthenticator) offers OAUTHBEARER
    /// only with a [`TokenValidator`](super::TokenValidator), whatever it is
    /// given.
    pub const ALL: [Mechanism; 4] = [
        Mechanism::Plain,
        Mechanism::Scram(ScramHash::Sha256),
        Mechanism::Scram(ScramHash::Sha512),
        Mechanism::OAuthBearer,
    ];

    /// The name in SaslHandshake and in Kafka's configuration.
    pub const fn name(self) -> &'static str {
        match self {
            Mechanism::Plain => "PLAIN",
            Mechanism::Scram(hash) => hash.mechanism_name(),
            Mechanism::OAuthBearer => "OAUTHBEARER",
        }
    }

    /// The mechanism of a name, if this crate runs it.
    pub fn from_name(name: &str) -> Option<Mechanism> {
        Mechanism::ALL.into_iter().find(|m| m.name() == name)
    }
}

impl std::fmt::Display for Mechanism {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
