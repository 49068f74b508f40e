//! What a server stores for a SCRAM user: never the password, only what Kafka's
//! `AlterUserScramCredentials` stores, and the text form Kafka writes it in.

use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

use super::attributes::encode64;
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

/// A credential in Kafka's text form, as its `ScramCredentialUtils.credentialToString`
/// writes it (what ZooKeeper-era Kafka kept per user and mechanism):
/// `salt=<base64>,stored_key=<base64>,server_key=<base64>,iterations=<n>`, in
/// standard padded base64. The hash is not part of it (Kafka keeps it beside,
/// as the mechanism's name); [`ScramCredential::parse`] reads it back.
///
/// Unlike [`Debug`](fmt::Debug), this shows the keys: they are as good as a
/// password hash, for a credential store and not for logs.
impl fmt::Display for ScramCredential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{SALT}={},{STORED_KEY}={},{SERVER_KEY}={},{ITERATIONS}={}",
            encode64(&self.salt),
            encode64(&self.stored_key),
            encode64(&self.server_key),
            self.iterations
        )
    }
}

// Kafka's key names (`ScramCredentialUtils`), in the order it writes them.
const SALT: &str = "salt";
const STORED_KEY: &str = "stored_key";
const SERVER_KEY: &str = "server_key";
const ITERATIONS: &str = "iterations";
const KEYS: [&str; 4] = [SALT, STORED_KEY, SERVER_KEY, ITERATIONS];

/// Bytes of random salt a new credential gets (Kafka's formatter uses a random
/// string of about this much entropy).
pub(crate) const SALT_LEN: usize = 24;

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

    /// Reads a credential for `hash` in Kafka's text form (what
    /// [`Display`](fmt::Display) writes, and Kafka's
    /// `ScramCredentialUtils.credentialFromString` reads):
    /// `salt=<base64>,stored_key=<base64>,server_key=<base64>,iterations=<n>`.
    ///
    /// The four keys may come in any order, as Kafka reads them. Refused with
    /// [`SaslError::BadCredential`]: a part that is not `key=value`, a key
    /// missing, repeated or not one of the four, a value that is not standard
    /// padded base64, an empty salt, keys of another length than `hash`'s
    /// output (32 bytes for SCRAM-SHA-256, 64 for SCRAM-SHA-512: a credential
    /// of the other hash), an iteration count that is not a number; with
    /// [`SaslError::Iterations`], a count outside Kafka's bounds
    /// ([`ScramHash::min_iterations`]..=[`ScramHash::max_iterations`]). No
    /// error repeats a key's or the salt's value.
    ///
    /// ```
    /// use kwire_net::sasl::{ScramCredential, ScramHash};
    ///
    /// let stored = ScramCredential::new(ScramHash::Sha512, "alice-secret", 4096)?;
    /// let text = stored.to_string(); // salt=...,stored_key=...,server_key=...,iterations=4096
    /// assert!(text.starts_with("salt=") && text.ends_with(",iterations=4096"));
    ///
    /// let read = ScramCredential::parse(ScramHash::Sha512, &text)?;
    /// assert_eq!(read, stored);
    /// assert!(read.matches_password("alice-secret"));
    /// // The text does not name its hash; SHA-512's keys are too long for SHA-256.
    /// assert!(ScramCredential::parse(ScramHash::Sha256, &text).is_err());
    /// # Ok::<(), kwire_net::sasl::SaslError>(())
    /// ```
    pub fn parse(hash: ScramHash, text: &str) -> Result<Self, SaslError> {
        let bad = |detail: String| SaslError::BadCredential(detail);
        let mut values: [Option<&str>; 4] = [None; 4];
        for (number, part) in text.split(',').enumerate() {
            let Some((key, value)) = part.split_once('=') else {
                // Not repeated: the part may be a piece of a key.
                return Err(bad(format!("part {} is not key=value", number + 1)));
            };
            let Some(index) = KEYS.iter().position(|known| *known == key) else {
                return Err(bad(format!(
                    "unknown key {}; Kafka's are {}",
                    shown_key(key),
                    KEYS.join(", ")
                )));
            };
            if values[index].replace(value).is_some() {
                return Err(bad(format!("{key} given twice")));
            }
        }
        let missing: Vec<&str> = KEYS
            .iter()
            .zip(&values)
            .filter(|(_, value)| value.is_none())
            .map(|(key, _)| *key)
            .collect();
        let [Some(salt), Some(stored_key), Some(server_key), Some(iterations)] = values else {
            return Err(bad(format!("{} missing", missing.join(", "))));
        };
        let decode = |key: &str, value: &str| {
            STANDARD
                .decode(value)
                .map_err(|error| bad(format!("{key} is not base64: {error}")))
        };
        let salt = decode(SALT, salt)?;
        if salt.is_empty() {
            return Err(bad(format!("{SALT} is empty")));
        }
        let stored_key = decode(STORED_KEY, stored_key)?;
        let server_key = decode(SERVER_KEY, server_key)?;
        for (key, value) in [(STORED_KEY, &stored_key), (SERVER_KEY, &server_key)] {
            if value.len() != hash.output_len() {
                return Err(bad(format!(
                    "{key} has {} bytes, {} keys have {}",
                    value.len(),
                    hash.mechanism_name(),
                    hash.output_len()
                )));
            }
        }
        let iterations: u32 = iterations.parse().map_err(|_| {
            bad(format!(
                "{ITERATIONS} {} is not a count",
                shown_key(iterations)
            ))
        })?;
        Self::from_parts(hash, salt, iterations, stored_key, server_key)
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

/// A key (or count) as an error may show it: quoted if it looks like a name or
/// a number, else not at all (it may be a piece of a secret value).
fn shown_key(key: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if key.len() <= 32 && key.chars().all(plain) {
        format!("{key:?}")
    } else {
        format!("({} characters, not shown)", key.chars().count())
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 7677's example: salt `W22ZaJ0SNY7soEsUEjb6gQ==`, 4096 iterations,
    /// password `pencil`.
    fn rfc7677(hash: ScramHash) -> ScramCredential {
        let salt = STANDARD.decode("W22ZaJ0SNY7soEsUEjb6gQ==").unwrap();
        ScramCredential::with_salt(hash, "pencil", salt, 4096).unwrap()
    }

    #[test]
    fn rfc7677_credential_in_kafkas_text_form() {
        let credential = rfc7677(ScramHash::Sha256);
        // Kafka's format, written out: salt, stored_key, server_key, iterations.
        let expected = format!(
            "salt=W22ZaJ0SNY7soEsUEjb6gQ==,stored_key={},server_key={},iterations=4096",
            STANDARD.encode(credential.stored_key()),
            STANDARD.encode(credential.server_key()),
        );
        assert_eq!(credential.to_string(), expected);
        // The same keys from an independent implementation (Python's hashlib
        // and hmac: PBKDF2-HMAC-SHA-256, then RFC 5802's ClientKey, StoredKey,
        // ServerKey), so that the text is not only checked against itself.
        assert_eq!(
            expected,
            "salt=W22ZaJ0SNY7soEsUEjb6gQ==,\
             stored_key=WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=,\
             server_key=wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=,\
             iterations=4096"
        );
        let read = ScramCredential::parse(ScramHash::Sha256, &expected).unwrap();
        assert_eq!(read, credential);
        assert!(read.matches_password("pencil"));
        assert!(!read.matches_password("pen"));
    }

    #[test]
    fn rfc7677_salt_with_sha512() {
        let credential = rfc7677(ScramHash::Sha512);
        // Python's hashlib again, with SHA-512.
        let text = "salt=W22ZaJ0SNY7soEsUEjb6gQ==,\
            stored_key=6AAub3065EYRmyFpM2RNwqK+eGnrkYuEWbXn19LsEmBqzu8QaCXNc1FwpnX9NhH2hK/60dzj9DoO5DvVkOHbvg==,\
            server_key=jZHbYjC1aHh0/hKbxyBuGFjDrgjgKTT1esA7awWiKcRZ0o/0b1yWEebBeSVkkCFewf91nLDfKF24mvD5nmE6rA==,\
            iterations=4096";
        assert_eq!(credential.to_string(), text);
        assert_eq!(
            ScramCredential::parse(ScramHash::Sha512, text).unwrap(),
            credential
        );
    }

    #[test]
    fn fresh_credentials_round_trip() {
        for hash in ScramHash::ALL {
            for iterations in [hash.min_iterations(), 10_000, hash.max_iterations()] {
                let credential = ScramCredential::new(hash, "s3cret,=x", iterations).unwrap();
                let text = credential.to_string();
                let read = ScramCredential::parse(hash, &text).unwrap();
                assert_eq!(read, credential);
                assert_eq!(read.hash(), hash);
                assert_eq!(read.iterations(), iterations);
                assert!(read.matches_password("s3cret,=x"));
            }
        }
    }

    #[test]
    fn keys_may_come_in_any_order() {
        let credential = rfc7677(ScramHash::Sha256);
        let text = credential.to_string();
        let mut parts: Vec<&str> = text.split(',').collect();
        parts.reverse();
        let reordered = parts.join(",");
        assert_eq!(
            ScramCredential::parse(ScramHash::Sha256, &reordered).unwrap(),
            credential
        );
    }

    #[test]
    fn debug_hides_the_keys() {
        let credential = rfc7677(ScramHash::Sha256);
        let debug = format!("{credential:?}");
        assert!(debug.contains("iterations: 4096"), "{debug}");
        for secret in [credential.stored_key(), credential.server_key()] {
            assert!(!debug.contains(&STANDARD.encode(secret)), "{debug}");
        }
        assert!(!debug.contains("W22ZaJ0SNY7soEsUEjb6gQ"), "{debug}");
    }

    /// The text of the RFC 7677 credential with `key`'s value replaced.
    fn with(key: &str, value: &str) -> String {
        rfc7677(ScramHash::Sha256)
            .to_string()
            .split(',')
            .map(|part| match part.split_once('=') {
                Some((k, _)) if k == key => format!("{k}={value}"),
                _ => part.to_owned(),
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    fn refused(text: &str) -> String {
        match ScramCredential::parse(ScramHash::Sha256, text) {
            Err(SaslError::BadCredential(detail)) => detail,
            other => panic!("{text:?}: {other:?}"),
        }
    }

    #[test]
    fn missing_repeated_and_unknown_keys_are_refused() {
        let good = rfc7677(ScramHash::Sha256).to_string();
        let parts: Vec<&str> = good.split(',').collect();
        for (index, key) in KEYS.iter().enumerate() {
            let mut without = parts.clone();
            without.remove(index);
            let detail = refused(&without.join(","));
            assert_eq!(detail, format!("{key} missing"));

            let mut twice = parts.clone();
            twice.push(parts[index]);
            assert_eq!(refused(&twice.join(",")), format!("{key} given twice"));
        }
        assert_eq!(
            refused(""),
            "part 1 is not key=value",
            "the empty text has one empty part"
        );
        assert_eq!(
            refused(&format!("{good},mechanism=SCRAM-SHA-256")),
            "unknown key \"mechanism\"; Kafka's are salt, stored_key, server_key, iterations"
        );
        // Kafka's names exactly: not another case, not padded with spaces.
        assert!(refused(&good.replace("stored_key", "StoredKey")).contains("unknown key"));
        assert!(refused(&good.replace(",server_key", ", server_key")).contains("unknown key"));
        // A part without `=` is not echoed: it may be a piece of a key.
        let detail = refused(&format!("{good},WG5d8oPm3Otc"));
        assert_eq!(detail, "part 5 is not key=value");
        let detail = refused(&format!("{good},WG5d8oPm3Otc/+=x"));
        assert!(!detail.contains("WG5d8oPm3Otc"), "{detail}");
    }

    #[test]
    fn bad_base64_and_empty_salt_are_refused() {
        for key in [SALT, STORED_KEY, SERVER_KEY] {
            for value in [
                "not base64!",
                "W22ZaJ0SNY7soEsUEjb6gQ",
                "W22Z_J0SNY7soEsUEjb6gQ==",
            ] {
                let detail = refused(&with(key, value));
                assert!(
                    detail.starts_with(&format!("{key} is not base64")),
                    "{key}={value}: {detail}"
                );
            }
        }
        assert_eq!(refused(&with(SALT, "")), "salt is empty");
    }

    #[test]
    fn keys_of_the_other_hash_are_refused() {
        let sha512 = rfc7677(ScramHash::Sha512).to_string();
        assert_eq!(
            refused(&sha512),
            "stored_key has 64 bytes, SCRAM-SHA-256 keys have 32"
        );
        let sha256 = rfc7677(ScramHash::Sha256).to_string();
        assert_eq!(
            ScramCredential::parse(ScramHash::Sha512, &sha256),
            Err(SaslError::BadCredential(
                "stored_key has 32 bytes, SCRAM-SHA-512 keys have 64".into()
            ))
        );
        // One key short (31 bytes), the other right.
        let short = STANDARD.encode([7; 31]);
        assert_eq!(
            refused(&with(SERVER_KEY, &short)),
            "server_key has 31 bytes, SCRAM-SHA-256 keys have 32"
        );
        assert_eq!(
            refused(&with(STORED_KEY, "")),
            "stored_key has 0 bytes, SCRAM-SHA-256 keys have 32"
        );
    }

    #[test]
    fn iterations_outside_kafkas_bounds_are_refused() {
        for (count, iterations) in [("4095", 4095), ("16385", 16385), ("0", 0)] {
            assert_eq!(
                ScramCredential::parse(ScramHash::Sha256, &with(ITERATIONS, count)),
                Err(SaslError::Iterations {
                    iterations,
                    min: 4096,
                    max: 16384
                })
            );
        }
        for count in ["", "-1", "4096.0", "four", "99999999999", " 4096"] {
            let detail = refused(&with(ITERATIONS, count));
            assert!(detail.ends_with("is not a count"), "{count:?}: {detail}");
        }
        // At the bounds it reads; the keys were made at 4096, so the password
        // no longer matches them: the text is taken as it is, not re-derived.
        let at_max = ScramCredential::parse(ScramHash::Sha256, &with(ITERATIONS, "16384")).unwrap();
        assert_eq!(at_max.iterations(), 16384);
        assert!(!at_max.matches_password("pencil"));
    }
}
