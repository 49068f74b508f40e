//! What an exchange for a user that does not exist is made to look like and
//! cost, so that it does not tell who has an account.

use std::sync::OnceLock;

use super::credential::{ScramCredential, SALT_LEN};
use super::hash::ScramHash;
use crate::sasl::error::SaslError;

/// How a SCRAM exchange, or a PLAIN check, for a user with no credential is
/// made to look and cost: the hash its key derivation runs with, the length of
/// the salt shown, the iterations shown and run.
///
/// A server answers a user it does not know as if it did, against a stand-in
/// credential of these parameters (a salt derived from the name, the same each
/// time in the process; keys nobody's password gives), and fails it at the
/// proof as a wrong password. For that to hide anything, the stand-in must
/// look like the real users: [`Credentials`](crate::sasl::Credentials) says
/// what it is, per name, and [`Users`](crate::sasl::Users) copies its own
/// users' parameters.
///
/// ```
/// use kwire_net::sasl::{ScramCredential, ScramHash, StandIn};
///
/// // What ScramCredential::new and Users::with_user make: a 24-byte salt, 4096 iterations.
/// let usual = StandIn::default_for(ScramHash::Sha512);
/// assert_eq!((usual.salt_len(), usual.iterations()), (24, 4096));
///
/// // One like a stored credential.
/// let stored = ScramCredential::with_salt(ScramHash::Sha256, "pw", vec![7; 16], 8192)?;
/// let like = StandIn::like(&stored);
/// assert_eq!(like, StandIn::new(ScramHash::Sha256, 16, 8192)?);
///
/// // No password matches a stand-in, after the same work as a real check.
/// assert!(!like.matches_password("mallory", "pw"));
/// # Ok::<(), kwire_net::sasl::SaslError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StandIn {
    hash: ScramHash,
    salt_len: usize,
    iterations: u32,
}

impl StandIn {
    /// The longest stand-in salt: 1 KiB, the longest salt a
    /// [`ScramClient`](super::ScramClient) accepts
    /// ([`ScramClient::MAX_SALT`](super::ScramClient::MAX_SALT)). Real salts
    /// are 20 to 30 bytes; a credential with a longer salt than this is
    /// mimicked with one of this length, and stands out.
    pub const MAX_SALT_LEN: usize = 1024;

    /// A stand-in with `hash`, a salt of `salt_len` bytes and `iterations`.
    /// Refuses iterations outside Kafka's bounds ([`SaslError::Iterations`]),
    /// an empty salt ([`SaslError::BadCredential`]) and one over
    /// [`MAX_SALT_LEN`](Self::MAX_SALT_LEN) ([`SaslError::TooLarge`]).
    pub fn new(hash: ScramHash, salt_len: usize, iterations: u32) -> Result<Self, SaslError> {
        let (min, max) = (hash.min_iterations(), hash.max_iterations());
        if !(min..=max).contains(&iterations) {
            return Err(SaslError::Iterations {
                iterations,
                min,
                max,
            });
        }
        if salt_len == 0 {
            return Err(SaslError::BadCredential("a stand-in salt is empty".into()));
        }
        if salt_len > Self::MAX_SALT_LEN {
            return Err(SaslError::TooLarge {
                what: "stand-in salt",
                len: salt_len,
                max: Self::MAX_SALT_LEN,
            });
        }
        Ok(StandIn {
            hash,
            salt_len,
            iterations,
        })
    }

    /// What a credential made by [`ScramCredential::new`] at Kafka's minimum
    /// iterations looks like, as [`Users::with_user`](crate::sasl::Users::with_user)
    /// makes them: a 24-byte salt, [`ScramHash::min_iterations`].
    pub const fn default_for(hash: ScramHash) -> Self {
        StandIn {
            hash,
            salt_len: SALT_LEN,
            iterations: hash.min_iterations(),
        }
    }

    /// What `credential` looks like: its hash, salt length (at most
    /// [`MAX_SALT_LEN`](Self::MAX_SALT_LEN)) and iterations.
    pub fn like(credential: &ScramCredential) -> Self {
        StandIn {
            hash: credential.hash(),
            // A credential's salt is never empty when made or read here, but
            // one from parts may be: a stand-in's is at least a byte.
            salt_len: credential.salt().len().clamp(1, Self::MAX_SALT_LEN),
            iterations: credential.iterations(),
        }
    }

    /// The hash the key derivation runs with.
    pub fn hash(&self) -> ScramHash {
        self.hash
    }

    /// The length of the salt shown, in bytes.
    pub fn salt_len(&self) -> usize {
        self.salt_len
    }

    /// The iteration count shown and run.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// The same stand-in for another hash (a SCRAM exchange runs its own).
    pub(crate) fn with_hash(self, hash: ScramHash) -> Self {
        StandIn { hash, ..self }
    }

    /// Always `false`, after the work [`ScramCredential::matches_password`]
    /// does for a credential like this one: for a
    /// [`Credentials::plain`](crate::sasl::Credentials::plain) of its own to
    /// take as long for a user that does not exist as for one that does.
    pub fn matches_password(&self, username: &str, password: &str) -> bool {
        match self.credential(username) {
            Ok(credential) => {
                // Cannot match: the stand-in's keys are random, not derived.
                let _ = credential.matches_password(password);
            }
            Err(_) => {
                // No random source, so no stand-in keys to compare with: the
                // derivation alone, which is nearly all of a check's time.
                let _ = self
                    .hash
                    .keys(password, &vec![0; self.salt_len], self.iterations);
            }
        }
        false
    }

    /// The credential `username` gets: a salt derived from the name (the same
    /// each time in this process: a salt that changed would tell, and no one's
    /// real salt), keys drawn at random once per process and hash (so no
    /// password gives them, and making them costs no key derivation a real
    /// credential's lookup does not).
    pub(crate) fn credential(&self, username: &str) -> Result<ScramCredential, SaslError> {
        let keys = stand_in_keys()?;
        let (stored_key, server_key) = match self.hash {
            ScramHash::Sha256 => &keys[0],
            ScramHash::Sha512 => &keys[1],
        };
        let salt = stand_in_salt(self.hash, username, self.salt_len)?;
        ScramCredential::from_parts(
            self.hash,
            salt,
            self.iterations,
            stored_key.clone(),
            server_key.clone(),
        )
    }
}

/// Random bytes drawn once per process, `Err` if the random source failed (then
/// every stand-in fails, as a nonce would).
fn random_once<const N: usize>(
    cell: &'static OnceLock<Result<[u8; N], String>>,
) -> Result<&'static [u8; N], SaslError> {
    cell.get_or_init(|| {
        let mut bytes = [0; N];
        getrandom::fill(&mut bytes)
            .map(|()| bytes)
            .map_err(|error| error.to_string())
    })
    .as_ref()
    .map_err(|error| SaslError::Random(error.clone()))
}

/// The key of everything derived from a name here: per process, so that the
/// stand-ins of one server tell nothing about another's.
fn process_key() -> Result<&'static [u8; 32], SaslError> {
    static KEY: OnceLock<Result<[u8; 32], String>> = OnceLock::new();
    random_once(&KEY)
}

/// The stand-in keys (stored, server): SHA-256's, then SHA-512's.
type Keys = [(Vec<u8>, Vec<u8>); 2];

fn stand_in_keys() -> Result<&'static Keys, SaslError> {
    static KEYS: OnceLock<Result<Keys, String>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let random_key = |hash: ScramHash| -> Result<Vec<u8>, String> {
            let mut key = vec![0; hash.output_len()];
            getrandom::fill(&mut key).map_err(|error| error.to_string())?;
            Ok(key)
        };
        let pair = |hash| Ok::<_, String>((random_key(hash)?, random_key(hash)?));
        Ok([pair(ScramHash::Sha256)?, pair(ScramHash::Sha512)?])
    })
    .as_ref()
    .map_err(|error| SaslError::Random(error.clone()))
}

/// `len` bytes from the name and the process key: HMAC blocks of
/// `"stand-in salt" || counter || name`, as many as needed.
fn stand_in_salt(hash: ScramHash, username: &str, len: usize) -> Result<Vec<u8>, SaslError> {
    let key = process_key()?;
    let mut salt = Vec::with_capacity(len + hash.output_len());
    let mut counter: u32 = 0;
    while salt.len() < len {
        let mut input = Vec::with_capacity(SALT_LABEL.len() + 4 + username.len());
        input.extend_from_slice(SALT_LABEL);
        input.extend_from_slice(&counter.to_be_bytes());
        input.extend_from_slice(username.as_bytes());
        salt.extend_from_slice(&hash.hmac(key, &input));
        counter += 1;
    }
    salt.truncate(len);
    Ok(salt)
}

/// A number from the name and the process key, for choosing which of a store's
/// users an unknown name is made to look like: the same each time in this
/// process. 0 if the random source failed (a stand-in then fails anyway).
pub(crate) fn pick_for(username: &str) -> u64 {
    let Ok(key) = process_key() else {
        return 0;
    };
    let mut input = Vec::with_capacity(PICK_LABEL.len() + username.len());
    input.extend_from_slice(PICK_LABEL);
    input.extend_from_slice(username.as_bytes());
    let tag = ScramHash::Sha256.hmac(key, &input);
    let mut first = [0; 8];
    first.copy_from_slice(&tag[..8]);
    u64::from_be_bytes(first)
}

// Labels of one length: with the counter's fixed width, no salt input is a
// pick input and the other way round.
const SALT_LABEL: &[u8] = b"stand-in salt";
const PICK_LABEL: &[u8] = b"stand-in pick";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn salts_are_stable_per_name_of_any_length() {
        for hash in ScramHash::ALL {
            for len in [1, 16, 24, 32, 65, 200, StandIn::MAX_SALT_LEN] {
                let salt = stand_in_salt(hash, "mallory", len).unwrap();
                assert_eq!(salt.len(), len);
                assert_eq!(salt, stand_in_salt(hash, "mallory", len).unwrap());
                assert_ne!(salt, stand_in_salt(hash, "mallorx", len).unwrap());
                // Not one block repeated: each is keyed by its counter.
                if len >= 2 * hash.output_len() {
                    let block = hash.output_len();
                    assert_ne!(salt[..block / 2], salt[block..block + block / 2]);
                }
            }
        }
        assert_ne!(
            stand_in_salt(ScramHash::Sha256, "a", 24).unwrap(),
            stand_in_salt(ScramHash::Sha512, "a", 24).unwrap()
        );
        assert_eq!(pick_for("a"), pick_for("a"));
        assert_ne!(pick_for("a"), pick_for("b"));
    }

    #[test]
    fn parameters_are_checked_and_copied() {
        let hash = ScramHash::Sha256;
        assert!(matches!(
            StandIn::new(hash, 24, 4095),
            Err(SaslError::Iterations { .. })
        ));
        assert!(matches!(
            StandIn::new(hash, 24, 16385),
            Err(SaslError::Iterations { .. })
        ));
        assert!(matches!(
            StandIn::new(hash, 0, 4096),
            Err(SaslError::BadCredential(_))
        ));
        assert!(matches!(
            StandIn::new(hash, StandIn::MAX_SALT_LEN + 1, 4096),
            Err(SaslError::TooLarge { .. })
        ));
        let long_salt =
            ScramCredential::with_salt(hash, "pw", vec![1; StandIn::MAX_SALT_LEN + 5], 4096)
                .unwrap();
        assert_eq!(StandIn::like(&long_salt).salt_len(), StandIn::MAX_SALT_LEN);
        assert_eq!(
            StandIn::default_for(ScramHash::Sha512),
            StandIn::like(&ScramCredential::new(ScramHash::Sha512, "pw", 4096).unwrap())
        );
    }

    #[test]
    fn a_stand_in_credential_looks_the_part_and_matches_nothing() {
        let stand_in = StandIn::new(ScramHash::Sha512, 16, 8192).unwrap();
        let credential = stand_in.credential("mallory").unwrap();
        assert_eq!(credential.hash(), ScramHash::Sha512);
        assert_eq!(credential.salt().len(), 16);
        assert_eq!(credential.iterations(), 8192);
        assert_eq!(credential, stand_in.credential("mallory").unwrap());
        assert!(!credential.matches_password(""));
        assert!(!stand_in.matches_password("mallory", "anything"));
    }
}
