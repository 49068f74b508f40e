//! The client side of a SCRAM exchange (RFC 5802 section 5; RFC 7677).

use super::attributes::{
    attributes, check_nonce, decode64, encode64, escape_name, expect, malformed, refuse_mandatory,
    text,
};
use super::credential::constant_time_eq;
use super::hash::{xor, ScramHash};
use crate::sasl::error::SaslError;

/// GS2 header of a client without channel binding or authorization id: `n,,`.
const GS2_HEADER: &str = "n,,";

/// Random bytes in a client nonce (then base64: 32 printable characters).
const NONCE_LEN: usize = 24;

/// A SCRAM client: three messages, sans-IO.
///
/// [`client_first`](Self::client_first) gives the first message;
/// [`client_final`](Self::client_final) reads the server's challenge (salt,
/// iterations, the combined nonce) and gives the proof;
/// [`verify_server_final`](Self::verify_server_final) checks that the server knew
/// the credential too. Each refuses to run out of order.
///
/// ```
/// use kwire_net::sasl::{ScramClient, ScramHash};
///
/// let mut client = ScramClient::new(ScramHash::Sha512, "alice", "secret").unwrap();
/// let first = client.client_first().unwrap();
/// assert!(first.starts_with(b"n,,n=alice,r="));
/// ```
pub struct ScramClient {
    hash: ScramHash,
    username: String,
    password: String,
    nonce: String,
    extensions: Vec<(String, String)>,
    state: State,
}

impl std::fmt::Debug for ScramClient {
    // The password, and the server signature it proves, are not for logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScramClient")
            .field("hash", &self.hash)
            .field("username", &self.username)
            .field("extensions", &self.extensions.len())
            .finish_non_exhaustive()
    }
}

enum State {
    Initial,
    SentFirst { client_first_bare: String },
    SentFinal { server_signature: Vec<u8> },
    Done,
    Failed,
}

impl ScramClient {
    /// The longest server message (server-first or server-final) a client
    /// reads: 16 KiB, as for the server's side
    /// ([`ScramServer::MAX_CLIENT_MESSAGE`](super::ScramServer::MAX_CLIENT_MESSAGE)).
    /// Kafka's broker sends about 100 bytes; a broker that sends more is not to
    /// make its client hold it.
    pub const MAX_SERVER_MESSAGE: usize = 16 * 1024;

    /// The most the server may add to the client's nonce: 512 bytes, as a
    /// server allows a client's nonce
    /// ([`ScramServer::MAX_CLIENT_NONCE`](super::ScramServer::MAX_CLIENT_NONCE));
    /// Kafka's broker adds about 26 characters. The client echoes the combined
    /// nonce in its final message.
    pub const MAX_SERVER_NONCE: usize = 512;

    /// The longest salt a client accepts: 1 KiB. Kafka's broker salts with 20
    /// to 30 bytes, this crate with 24; only the first iteration of the key
    /// derivation reads the salt, so this bound is about memory, not time.
    pub const MAX_SALT: usize = 1024;

    /// A client for `username` with `password`, with a fresh random nonce.
    pub fn new(hash: ScramHash, username: &str, password: &str) -> Result<Self, SaslError> {
        let mut random = [0; NONCE_LEN];
        getrandom::fill(&mut random).map_err(|error| SaslError::Random(error.to_string()))?;
        Ok(Self::with_nonce(
            hash,
            username,
            password,
            &encode64(&random),
        ))
    }

    /// A client with the given nonce. For test vectors only: a nonce must be
    /// fresh and unpredictable for every exchange, which [`new`](Self::new) does.
    pub fn with_nonce(hash: ScramHash, username: &str, password: &str, nonce: &str) -> Self {
        ScramClient {
            hash,
            username: username.to_owned(),
            password: password.to_owned(),
            nonce: nonce.to_owned(),
            extensions: Vec::new(),
            state: State::Initial,
        }
    }

    /// Adds an extension to the first message, as Kafka's client does for
    /// delegation tokens (`tokenauth=true`). The key must be letters and digits,
    /// and the value must not hold a comma.
    pub fn with_extension(mut self, key: &str, value: &str) -> Result<Self, SaslError> {
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(malformed("extension", format!("name {key:?}")));
        }
        if value.contains(',') || value.chars().any(char::is_control) {
            return Err(malformed("extension", format!("value of {key}")));
        }
        self.extensions.push((key.to_owned(), value.to_owned()));
        Ok(self)
    }

    /// The hash of this exchange.
    pub fn hash(&self) -> ScramHash {
        self.hash
    }

    /// The client-first message: `n,,n=NAME,r=NONCE[,EXTENSIONS]`.
    pub fn client_first(&mut self) -> Result<Vec<u8>, SaslError> {
        if !matches!(self.state, State::Initial) {
            return Err(self.out_of_order("client-first"));
        }
        let mut bare = format!("n={},r={}", escape_name(&self.username), self.nonce);
        for (key, value) in &self.extensions {
            bare.push_str(&format!(",{key}={value}"));
        }
        let message = format!("{GS2_HEADER}{bare}").into_bytes();
        self.state = State::SentFirst {
            client_first_bare: bare,
        };
        Ok(message)
    }

    /// Reads the server-first message and gives the client-final one (with the
    /// proof). Refuses a nonce that does not extend ours, a salt that is not
    /// base64, and iterations outside Kafka's bounds; with
    /// [`SaslError::TooLarge`], a message over [`MAX_SERVER_MESSAGE`](Self::MAX_SERVER_MESSAGE),
    /// a nonce extended by more than [`MAX_SERVER_NONCE`](Self::MAX_SERVER_NONCE)
    /// and a salt over [`MAX_SALT`](Self::MAX_SALT); with
    /// [`SaslError::TooMany`], more than 16 extensions.
    pub fn client_final(&mut self, server_first: &[u8]) -> Result<Vec<u8>, SaslError> {
        let State::SentFirst { client_first_bare } =
            std::mem::replace(&mut self.state, State::Failed)
        else {
            return Err(self.out_of_order("client-final"));
        };
        const WHAT: &str = "server-first message";
        check_len(server_first, "SCRAM server-first message")?;
        let text = text(server_first, WHAT)?;
        let attrs = attributes(text, WHAT, 3)?;
        if let Some((_, error)) = attrs.iter().find(|(key, _)| *key == "e") {
            return Err(SaslError::ServerError((*error).to_owned()));
        }
        refuse_mandatory(&attrs, WHAT)?;
        let nonce = expect(&attrs, 0, "r", WHAT)?;
        check_nonce(nonce, WHAT)?;
        if !nonce.starts_with(&self.nonce) || nonce.len() == self.nonce.len() {
            return Err(SaslError::NonceMismatch);
        }
        let added = nonce.len() - self.nonce.len();
        if added > Self::MAX_SERVER_NONCE {
            return Err(SaslError::TooLarge {
                what: "SCRAM server nonce",
                len: added,
                max: Self::MAX_SERVER_NONCE,
            });
        }
        let salt = decode64(expect(&attrs, 1, "s", WHAT)?, WHAT)?;
        if salt.is_empty() {
            return Err(malformed(WHAT, "empty salt".into()));
        }
        if salt.len() > Self::MAX_SALT {
            return Err(SaslError::TooLarge {
                what: "SCRAM salt",
                len: salt.len(),
                max: Self::MAX_SALT,
            });
        }
        let iterations = expect(&attrs, 2, "i", WHAT)?;
        let iterations: u32 = iterations
            .parse()
            .map_err(|_| malformed(WHAT, format!("iterations {iterations:?}")))?;
        let (min, max) = (self.hash.min_iterations(), self.hash.max_iterations());
        if !(min..=max).contains(&iterations) {
            return Err(SaslError::Iterations {
                iterations,
                min,
                max,
            });
        }

        let without_proof = format!("c={},r={nonce}", encode64(GS2_HEADER.as_bytes()));
        let auth_message = format!("{client_first_bare},{text},{without_proof}");
        let keys = self.hash.keys(&self.password, &salt, iterations);
        let client_signature = self.hash.hmac(&keys.stored, auth_message.as_bytes());
        let proof = xor(&keys.client, &client_signature);
        self.state = State::SentFinal {
            server_signature: self.hash.hmac(&keys.server, auth_message.as_bytes()),
        };
        Ok(format!("{without_proof},p={}", encode64(&proof)).into_bytes())
    }

    /// Checks the server-final message: the server's signature (`v=`) must be the
    /// one only a holder of the credential can make; `e=` is the server's error.
    pub fn verify_server_final(&mut self, server_final: &[u8]) -> Result<(), SaslError> {
        let State::SentFinal { server_signature } =
            std::mem::replace(&mut self.state, State::Failed)
        else {
            return Err(self.out_of_order("server-final"));
        };
        const WHAT: &str = "server-final message";
        check_len(server_final, "SCRAM server-final message")?;
        let text = text(server_final, WHAT)?;
        let attrs = attributes(text, WHAT, 1)?;
        match attrs.first() {
            Some(("e", error)) => Err(SaslError::ServerError((*error).to_owned())),
            Some(("v", signature)) => {
                if constant_time_eq(&decode64(signature, WHAT)?, &server_signature) {
                    self.state = State::Done;
                    Ok(())
                } else {
                    Err(SaslError::ServerSignature)
                }
            }
            _ => Err(malformed(WHAT, "neither v= nor e=".into())),
        }
    }

    /// Whether the exchange has completed and the server proved itself.
    pub fn is_done(&self) -> bool {
        matches!(self.state, State::Done)
    }

    fn out_of_order(&mut self, step: &'static str) -> SaslError {
        self.state = State::Failed;
        SaslError::OutOfOrder { step }
    }
}

/// Refuses a server message over [`ScramClient::MAX_SERVER_MESSAGE`].
fn check_len(message: &[u8], what: &'static str) -> Result<(), SaslError> {
    SaslError::check_len(what, message.len(), ScramClient::MAX_SERVER_MESSAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 7677 section 3: the SCRAM-SHA-256 example exchange, byte for byte.
    #[test]
    fn rfc_7677_example() {
        let mut client =
            ScramClient::with_nonce(ScramHash::Sha256, "user", "pencil", "rOprNGfwEbeRWgbNEkqO");
        assert_eq!(
            client.client_first().unwrap(),
            b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
        );
        let server_first = b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,\
            s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
        let client_final = client.client_final(server_first).unwrap();
        assert_eq!(
            std::str::from_utf8(&client_final).unwrap(),
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,\
             p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
        );
        assert!(!client.is_done());
        client
            .verify_server_final(b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
            .unwrap();
        assert!(client.is_done());
    }

    fn after_first() -> ScramClient {
        let mut client = ScramClient::with_nonce(ScramHash::Sha256, "u", "p", "abc");
        client.client_first().unwrap();
        client
    }

    /// Whether an error is the one expected.
    type Expected = fn(&SaslError) -> bool;

    #[test]
    fn a_bad_server_first_is_refused() {
        let cases: [(&[u8], Expected); 8] = [
            (b"r=xyzdef,s=c2FsdA==,i=4096", |e| {
                matches!(e, SaslError::NonceMismatch)
            }),
            (b"r=abc,s=c2FsdA==,i=4096", |e| {
                matches!(e, SaslError::NonceMismatch)
            }),
            (b"r=abcdef,s=c2FsdA==,i=4095", |e| {
                matches!(e, SaslError::Iterations { .. })
            }),
            (b"r=abcdef,s=c2FsdA==,i=16385", |e| {
                matches!(e, SaslError::Iterations { .. })
            }),
            (b"r=abcdef,s=!!,i=4096", |e| {
                matches!(e, SaslError::Malformed { .. })
            }),
            (b"r=abcdef,i=4096", |e| {
                matches!(e, SaslError::Malformed { .. })
            }),
            (b"m=x,r=abcdef,s=c2FsdA==,i=4096", |e| {
                matches!(e, SaslError::Malformed { .. })
            }),
            (b"e=unknown-user", |e| {
                matches!(e, SaslError::ServerError(_))
            }),
        ];
        for (message, expected) in cases {
            let error = after_first().client_final(message).unwrap_err();
            assert!(
                expected(&error),
                "{:?}: {error:?}",
                String::from_utf8_lossy(message)
            );
        }
    }

    /// A hostile broker must not make its client hold what it sends either.
    #[test]
    fn oversized_server_messages_are_refused() {
        let over = ScramClient::MAX_SERVER_MESSAGE + 1;
        let long = format!("r=abcdef,s=c2FsdA==,i=4096{}", ",a=b".repeat(over / 4));
        assert!(matches!(
            after_first().client_final(long.as_bytes()),
            Err(SaslError::TooLarge {
                what: "SCRAM server-first message",
                ..
            })
        ));
        let many = format!("r=abcdef,s=c2FsdA==,i=4096{}", ",a=b".repeat(17));
        assert!(matches!(
            after_first().client_final(many.as_bytes()),
            Err(SaslError::TooMany { .. })
        ));
        let added = "x".repeat(ScramClient::MAX_SERVER_NONCE);
        let at_bound = format!("r=abc{added},s=c2FsdA==,i=4096");
        assert!(after_first().client_final(at_bound.as_bytes()).is_ok());
        let over_nonce = format!("r=abc{added}x,s=c2FsdA==,i=4096");
        assert_eq!(
            after_first().client_final(over_nonce.as_bytes()),
            Err(SaslError::TooLarge {
                what: "SCRAM server nonce",
                len: ScramClient::MAX_SERVER_NONCE + 1,
                max: ScramClient::MAX_SERVER_NONCE
            })
        );
        let salt = encode64(&[7; ScramClient::MAX_SALT + 1]);
        let long_salt = format!("r=abcdef,s={salt},i=4096");
        assert!(matches!(
            after_first().client_final(long_salt.as_bytes()),
            Err(SaslError::TooLarge {
                what: "SCRAM salt",
                ..
            })
        ));
        let mut client = after_first();
        client.client_final(b"r=abcdef,s=c2FsdA==,i=4096").unwrap();
        let long_final = format!("v=AAAA{}", ",a=b".repeat(over / 4));
        assert!(matches!(
            client.verify_server_final(long_final.as_bytes()),
            Err(SaslError::TooLarge {
                what: "SCRAM server-final message",
                ..
            })
        ));
    }

    #[test]
    fn a_wrong_server_signature_is_refused() {
        let mut client = after_first();
        client.client_final(b"r=abcdef,s=c2FsdA==,i=4096").unwrap();
        let error = client.verify_server_final(b"v=AAAA").unwrap_err();
        assert!(matches!(error, SaslError::ServerSignature));
        assert!(!client.is_done());
    }

    #[test]
    fn steps_out_of_order_fail() {
        let mut client = ScramClient::with_nonce(ScramHash::Sha256, "u", "p", "abc");
        assert!(matches!(
            client.client_final(b"r=abcdef,s=c2FsdA==,i=4096"),
            Err(SaslError::OutOfOrder { .. })
        ));
        let mut client = after_first();
        assert!(matches!(
            client.client_first(),
            Err(SaslError::OutOfOrder { .. })
        ));
    }

    #[test]
    fn names_are_escaped_and_extensions_carried() {
        let mut client = ScramClient::with_nonce(ScramHash::Sha512, "a=b,c", "p", "n0nce")
            .with_extension("tokenauth", "true")
            .unwrap();
        assert_eq!(
            client.client_first().unwrap(),
            b"n,,n=a=3Db=2Cc,r=n0nce,tokenauth=true"
        );
        assert!(ScramClient::with_nonce(ScramHash::Sha512, "u", "p", "n")
            .with_extension("bad key", "x")
            .is_err());
    }
}
