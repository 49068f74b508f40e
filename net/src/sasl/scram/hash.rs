//! The two hash functions Kafka's SCRAM mechanisms use, and what SCRAM builds of
//! them (RFC 5802 section 3).

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256, Sha512};

/// The hash of a SCRAM mechanism: SCRAM-SHA-256 (RFC 7677) or SCRAM-SHA-512, the
/// two Kafka offers.
///
/// ```
/// use kwire_net::sasl::ScramHash;
///
/// assert_eq!(ScramHash::Sha512.mechanism_name(), "SCRAM-SHA-512");
/// assert_eq!(ScramHash::from_mechanism_name("SCRAM-SHA-256"), Some(ScramHash::Sha256));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScramHash {
    /// SHA-256: `SCRAM-SHA-256`.
    Sha256,
    /// SHA-512: `SCRAM-SHA-512`.
    Sha512,
}

impl ScramHash {
    /// Both, in the order Kafka lists them.
    pub const ALL: [ScramHash; 2] = [ScramHash::Sha256, ScramHash::Sha512];

    /// The SASL mechanism name.
    pub const fn mechanism_name(self) -> &'static str {
        match self {
            ScramHash::Sha256 => "SCRAM-SHA-256",
            ScramHash::Sha512 => "SCRAM-SHA-512",
        }
    }

    /// The hash of a SASL mechanism name, if it is one of the two.
    pub fn from_mechanism_name(name: &str) -> Option<ScramHash> {
        ScramHash::ALL
            .into_iter()
            .find(|hash| hash.mechanism_name() == name)
    }

    /// The fewest iterations Kafka accepts for this hash (its
    /// `ScramMechanism.minIterations`): a client refuses a server that asks for
    /// fewer, since they make a stolen salted password cheap to crack.
    pub const fn min_iterations(self) -> u32 {
        4096
    }

    /// The most iterations Kafka stores a credential with (its
    /// `ScramMechanism.maxIterations`): a client refuses a server that asks for
    /// more, which would make it spend its CPU for the server.
    pub const fn max_iterations(self) -> u32 {
        16384
    }

    /// `HMAC(key, data)`.
    pub(crate) fn hmac(self, key: &[u8], data: &[u8]) -> Vec<u8> {
        fn run<M: Mac + KeyInit>(key: &[u8], data: &[u8]) -> Vec<u8> {
            // HMAC takes a key of any length (a long one is hashed first), so
            // this cannot fail; an empty tag would fail every comparison if it did.
            match <M as KeyInit>::new_from_slice(key) {
                Ok(mut mac) => {
                    mac.update(data);
                    mac.finalize().into_bytes().to_vec()
                }
                Err(_) => Vec::new(),
            }
        }
        match self {
            ScramHash::Sha256 => run::<Hmac<Sha256>>(key, data),
            ScramHash::Sha512 => run::<Hmac<Sha512>>(key, data),
        }
    }

    /// `H(data)`.
    pub(crate) fn hash(self, data: &[u8]) -> Vec<u8> {
        match self {
            ScramHash::Sha256 => Sha256::digest(data).to_vec(),
            ScramHash::Sha512 => Sha512::digest(data).to_vec(),
        }
    }

    /// `Hi(password, salt, iterations)`: PBKDF2 with HMAC of this hash.
    pub(crate) fn salted_password(self, password: &[u8], salt: &[u8], iterations: u32) -> Vec<u8> {
        let mut out = vec![0; self.output_len()];
        match self {
            ScramHash::Sha256 => {
                pbkdf2::pbkdf2_hmac::<Sha256>(password, salt, iterations, &mut out)
            }
            ScramHash::Sha512 => {
                pbkdf2::pbkdf2_hmac::<Sha512>(password, salt, iterations, &mut out)
            }
        }
        out
    }

    /// The length of this hash's output, in bytes.
    pub const fn output_len(self) -> usize {
        match self {
            ScramHash::Sha256 => 32,
            ScramHash::Sha512 => 64,
        }
    }

    /// The keys a password gives with `salt` and `iterations` (RFC 5802 section
    /// 3): `SaltedPassword = Hi(password, salt, i)`, `ClientKey = HMAC(SaltedPassword,
    /// "Client Key")`, `StoredKey = H(ClientKey)`, `ServerKey = HMAC(SaltedPassword,
    /// "Server Key")`.
    pub(crate) fn keys(self, password: &str, salt: &[u8], iterations: u32) -> Keys {
        let salted = self.salted_password(password.as_bytes(), salt, iterations);
        let client = self.hmac(&salted, b"Client Key");
        Keys {
            stored: self.hash(&client),
            server: self.hmac(&salted, b"Server Key"),
            client,
        }
    }
}

/// What a password derives, for one salt and iteration count.
pub(crate) struct Keys {
    /// `ClientKey`: only the client knows it.
    pub client: Vec<u8>,
    /// `StoredKey = H(ClientKey)`: what the server checks a proof against.
    pub stored: Vec<u8>,
    /// `ServerKey`: what the server signs with.
    pub server: Vec<u8>,
}

/// `a XOR b`, for two values of the same length (a proof and a signature).
pub(crate) fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}
