//! The mechanisms, by the names Kafka's `sasl.mechanism` uses.

use super::scram::ScramHash;

/// A SASL mechanism this crate runs.
///
/// ```
/// use kwire_net::sasl::{Mechanism, ScramHash};
///
/// assert_eq!(Mechanism::from_name("SCRAM-SHA-256"), Some(Mechanism::Scram(ScramHash::Sha256)));
/// assert_eq!(Mechanism::Plain.name(), "PLAIN");
/// assert_eq!(Mechanism::from_name("GSSAPI"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mechanism {
    /// `PLAIN` (RFC 4616): the password itself, so only over TLS.
    Plain,
    /// `SCRAM-SHA-256` or `SCRAM-SHA-512`.
    Scram(ScramHash),
}

impl Mechanism {
    /// Every mechanism, in the order a broker lists them.
    pub const ALL: [Mechanism; 3] = [
        Mechanism::Plain,
        Mechanism::Scram(ScramHash::Sha256),
        Mechanism::Scram(ScramHash::Sha512),
    ];

    /// The name in SaslHandshake and in Kafka's configuration.
    pub const fn name(self) -> &'static str {
        match self {
            Mechanism::Plain => "PLAIN",
            Mechanism::Scram(hash) => hash.mechanism_name(),
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
