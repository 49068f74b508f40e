//! What a server stores for a SCRAM user: never the password, only what Kafka's
//! `AlterUserScramCredentials` stores.

use super::hash::ScramHash;
use crate::sasl::error::SaslError;

/// A SCRAM credential as a server keeps it (RFC 5802 section 3; Kafka's
/// `ScramCredential`): the salt, the iteration count, `StoredKey = H(ClientKey)`
/// and `ServerKey`. From these a server checks a client's proof and proves itself,
/// and nobody can log in with them: the password is not among them.
///
/// ```
/// use kwire_net::sasl::{ScramCredential, ScramHash};
///
/// let credential = ScramCredential::new(ScramHash::Sha256, "pencil", 4096).unwrap();
/// assert_eq!(credential.iterations(), 4096);
/// assert!(credential.matches_password("pencil"));
/// assert!(!credential.matches_password("pen"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct ScramCredential {
    hash: ScramHash,
    salt: Vec<u8>,
    iterations: u32,
    stored_key: Vec<u8>,
    server_key: Vec<u8>,
}

impl std::fmt::Debug for ScramCredential {
    // The keys are as good as a password hash: not for logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScramCredential")
            .field("hash", &self.hash)
            .field("iterations", &self.iterations)
            .finish_non_exhaustive()
    }
}

/// Bytes of random salt a new credential gets (Kafka's formatter uses a random
/// string of about this much entropy).
const SALT_LEN: usize = 24;

impl ScramCredential {
    /// Salts `password` with fresh random bytes and derives the keys, as Kafka
    /// does when it stores a user. `iterations` must be within Kafka's bounds
    /// ([`ScramHash::min_iterations`]..=[`ScramHash::max_iterations`]).
    pub fn new(hash: ScramHash, password: &str, iterations: u32) -> Result<Self, SaslError> {
        let mut salt = vec![0; SALT_LEN];
        getrandom::fill(&mut salt).map_err(|error| SaslError::Random(error.to_string()))?;
        Self::with_salt(hash, password, salt, iterations)
    }

    /// Like [`new`](Self::new) with a given salt: to reproduce a credential
    /// stored elsewhere, or a test vector.
    pub fn with_salt(
        hash: ScramHash,
        password: &str,
        salt: Vec<u8>,
        iterations: u32,
    ) -> Result<Self, SaslError> {
        check_iterations(hash, iterations)?;
        let keys = hash.keys(password, &salt, iterations);
        Ok(ScramCredential {
            hash,
            stored_key: keys.stored,
            server_key: keys.server,
            salt,
            iterations,
        })
    }

    /// A credential from its stored parts (for a store that keeps them, as
    /// Kafka's metadata log does). The keys must have the hash's length.
    pub fn from_parts(
        hash: ScramHash,
        salt: Vec<u8>,
        iterations: u32,
        stored_key: Vec<u8>,
        server_key: Vec<u8>,
    ) -> Result<Self, SaslError> {
        check_iterations(hash, iterations)?;
        for (what, key) in [("stored key", &stored_key), ("server key", &server_key)] {
            if key.len() != hash.output_len() {
                return Err(SaslError::Malformed {
                    what,
                    detail: format!(
                        "{} bytes, {} has {}",
                        key.len(),
                        hash.mechanism_name(),
                        hash.output_len()
                    ),
                });
            }
        }
        Ok(ScramCredential {
            hash,
            salt,
            iterations,
            stored_key,
            server_key,
        })
    }

    /// The hash this credential is for.
    pub fn hash(&self) -> ScramHash {
        self.hash
    }

    /// The salt.
    pub fn salt(&self) -> &[u8] {
        &self.salt
    }

    /// The PBKDF2 iteration count.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// `StoredKey = H(ClientKey)`.
    pub fn stored_key(&self) -> &[u8] {
        &self.stored_key
    }

    /// `ServerKey`.
    pub fn server_key(&self) -> &[u8] {
        &self.server_key
    }

    /// Whether `password` is the one this credential was made from (for SASL
    /// PLAIN against stored SCRAM credentials: no password is kept in clear).
    pub fn matches_password(&self, password: &str) -> bool {
        let keys = self.hash.keys(password, &self.salt, self.iterations);
        constant_time_eq(&keys.stored, &self.stored_key)
    }
}

/// Equality that takes as long whatever the first differing byte.
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

fn check_iterations(hash: ScramHash, iterations: u32) -> Result<(), SaslError> {
    if (hash.min_iterations()..=hash.max_iterations()).contains(&iterations) {
        Ok(())
    } else {
        Err(SaslError::Iterations {
            iterations,
            min: hash.min_iterations(),
            max: hash.max_iterations(),
        })
    }
}
