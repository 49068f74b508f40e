//! The server side of a SCRAM exchange (RFC 5802 section 5).

use super::attributes::{
    attributes, check_nonce, decode64, encode64, expect, extensions, malformed, refuse_mandatory,
    text, unescape_name, MAX_EXTENSIONS,
};
use super::credential::{constant_time_eq, ScramCredential};
use super::hash::{xor, ScramHash};
use super::stand_in::StandIn;
use crate::sasl::error::SaslError;

/// Random bytes the server adds to the client's nonce.
const NONCE_LEN: usize = 24;

/// A SCRAM server: reads the client-first message, answers with the salt, the
/// iterations and the combined nonce, then checks the client's proof and proves
/// itself. Sans-IO: the caller moves the bytes and looks the user up.
///
/// A user that does not exist gets a challenge like any other and fails at the
/// proof, with the same error as a wrong password, after the same work: the
/// exchange does not tell who has an account. For that, the lookup answers an
/// unknown name with a [`StandIn`] that looks like the real users (their salt
/// length and iterations); the server shows a salt derived from the name (the
/// same each time in the process) and checks the proof against keys no
/// password gives.
///
/// Every client message is bounded: at most
/// [`MAX_CLIENT_MESSAGE`](Self::MAX_CLIENT_MESSAGE) bytes, a nonce of at most
/// [`MAX_CLIENT_NONCE`](Self::MAX_CLIENT_NONCE), at most
/// [`MAX_EXTENSIONS`](Self::MAX_EXTENSIONS) extensions; what the server holds
/// between the two steps is a small multiple of the first message.
///
/// ```
/// use kwire_net::sasl::{ScramClient, ScramCredential, ScramHash, ScramLookup, ScramServer, StandIn};
///
/// let stored = ScramCredential::new(ScramHash::Sha256, "secret", 4096).unwrap();
/// // Anyone else is made to look like alice.
/// let lookup = |user: &str, _extensions: &[(String, String)]| match user {
///     "alice" => ScramLookup::Found(stored.clone()),
///     _ => ScramLookup::Unknown(StandIn::like(&stored)),
/// };
///
/// let mut client = ScramClient::new(ScramHash::Sha256, "alice", "secret").unwrap();
/// let mut server = ScramServer::new(ScramHash::Sha256);
/// let first = client.client_first().unwrap();
/// let challenge = server.server_first(&first, lookup).unwrap();
/// let proof = client.client_final(&challenge).unwrap();
/// let done = server.server_final(&proof).unwrap();
/// client.verify_server_final(&done.server_final).unwrap();
/// assert_eq!(done.username, "alice");
///
/// // Mallory gets a challenge, then fails as a wrong password does.
/// let mut client = ScramClient::new(ScramHash::Sha256, "mallory", "secret").unwrap();
/// let mut server = ScramServer::new(ScramHash::Sha256);
/// let challenge = server.server_first(&client.client_first().unwrap(), lookup).unwrap();
/// let proof = client.client_final(&challenge).unwrap();
/// assert_eq!(server.server_final(&proof), Err(kwire_net::sasl::SaslError::AuthenticationFailed));
/// ```
#[derive(Debug)]
pub struct ScramServer {
    hash: ScramHash,
    state: State,
}

#[derive(Debug)]
enum State {
    Initial,
    SentFirst(Box<Pending>),
    Done,
    Failed,
}

#[derive(Debug)]
struct Pending {
    username: String,
    extensions: Vec<(String, String)>,
    /// The user's, or a stand-in's for a user that does not exist: the proof
    /// is checked against it either way, at the same cost.
    credential: ScramCredential,
    /// Whether `credential` is the user's: a stand-in's never passes.
    known: bool,
    gs2_header: String,
    client_first_bare: String,
    server_first: String,
    nonce: String,
}

/// What a [`ScramServer`]'s lookup found for the client's user name (and
/// extensions).
///
/// See [`ScramServer`] for an example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScramLookup {
    /// The user's credential for the exchange's hash.
    Found(ScramCredential),
    /// No such user, or none with a credential for the exchange's hash: the
    /// exchange goes on against a stand-in that looks like this (its salt
    /// length and iterations, with the exchange's hash whatever its own), and
    /// fails at the proof as a wrong password does.
    Unknown(StandIn),
}

/// A successful exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScramOutcome {
    /// Who authenticated.
    pub username: String,
    /// The client's extensions (Kafka's `tokenauth=true` marks a delegation
    /// token).
    pub extensions: Vec<(String, String)>,
    /// The server-final message (`v=` and the server's signature), to send.
    pub server_final: Vec<u8>,
}

impl ScramServer {
    /// The longest client message (client-first or client-final) a server
    /// reads: 16 KiB; a longer one is [`SaslError::TooLarge`] before any of it
    /// is read.
    ///
    /// Kafka's clients send 50 to 250 bytes: a GS2 header, a name, a nonce of
    /// about 32 characters, then a proof of 44 or 88. Even a user name that is a
    /// long distinguished name and all [`MAX_EXTENSIONS`](Self::MAX_EXTENSIONS)
    /// fit many times over, while a connection that has not authenticated gets
    /// to make the server hold no more than this (and what it derives from it,
    /// a few times this size) until the exchange ends.
    pub const MAX_CLIENT_MESSAGE: usize = 16 * 1024;

    /// The longest client nonce: 512 bytes, refused with
    /// [`SaslError::TooLarge`] before the server echoes it in server-first (and
    /// keeps it for the proof). Kafka's Java client sends about 26 characters,
    /// librdkafka and this crate 32: 512 is far beyond any, and keeps the
    /// server's answer to an unauthenticated client small.
    pub const MAX_CLIENT_NONCE: usize = 512;

    /// The most extensions (`key=value` after the nonce, such as Kafka's
    /// `tokenauth=true`) a client message may carry: 16, refused past that with
    /// [`SaslError::TooMany`] without reading the rest. Kafka sends one at most.
    pub const MAX_EXTENSIONS: usize = MAX_EXTENSIONS;

    /// A server for one exchange with `hash`.
    pub fn new(hash: ScramHash) -> Self {
        ScramServer {
            hash,
            state: State::Initial,
        }
    }

    /// The hash of this exchange.
    pub fn hash(&self) -> ScramHash {
        self.hash
    }

    /// Reads the client-first message and gives the server-first one. `lookup`
    /// finds the user's credential (for this server's hash) by name and the
    /// client's extensions, or says what a user of that name that does not
    /// exist is to look like ([`ScramLookup::Unknown`]: for
    /// [`Credentials`](crate::sasl::Credentials), its
    /// [`scram_stand_in`](crate::sasl::Credentials::scram_stand_in)). A
    /// credential found for another hash than the server's is taken as no
    /// user, who looks like [`StandIn::default_for`] this hash.
    ///
    /// Refused before the lookup: a message over
    /// [`MAX_CLIENT_MESSAGE`](Self::MAX_CLIENT_MESSAGE) or a nonce over
    /// [`MAX_CLIENT_NONCE`](Self::MAX_CLIENT_NONCE)
    /// ([`SaslError::TooLarge`]), more than
    /// [`MAX_EXTENSIONS`](Self::MAX_EXTENSIONS) extensions
    /// ([`SaslError::TooMany`]), and what RFC 5802 does not allow.
    pub fn server_first(
        &mut self,
        client_first: &[u8],
        lookup: impl FnOnce(&str, &[(String, String)]) -> ScramLookup,
    ) -> Result<Vec<u8>, SaslError> {
        if !matches!(self.state, State::Initial) {
            return Err(self.out_of_order("server-first"));
        }
        self.state = State::Failed;
        const WHAT: &str = "client-first message";
        check_len(client_first, "SCRAM client-first message")?;
        let text = text(client_first, WHAT)?;
        let (gs2_header, bare) = split_gs2_header(text)?;
        let attrs = attributes(bare, WHAT, 2)?;
        refuse_mandatory(&attrs, WHAT)?;
        let username = unescape_name(expect(&attrs, 0, "n", WHAT)?)?;
        let client_nonce = expect(&attrs, 1, "r", WHAT)?;
        if client_nonce.len() > Self::MAX_CLIENT_NONCE {
            return Err(SaslError::TooLarge {
                what: "SCRAM client nonce",
                len: client_nonce.len(),
                max: Self::MAX_CLIENT_NONCE,
            });
        }
        check_nonce(client_nonce, WHAT)?;
        let extensions = extensions(&attrs[2..], WHAT)?;
        if let Some(authzid) = gs2_header
            .strip_suffix(',')
            .and_then(|h| h.split_once(",a="))
        {
            // Kafka's rule: one may only act as oneself.
            if unescape_name(authzid.1)? != username {
                return Err(SaslError::AuthenticationFailed);
            }
        }

        let (credential, known) = match lookup(&username, &extensions) {
            ScramLookup::Found(credential) if credential.hash() == self.hash => (credential, true),
            ScramLookup::Found(_) => (
                StandIn::default_for(self.hash).credential(&username)?,
                false,
            ),
            ScramLookup::Unknown(stand_in) => {
                (stand_in.with_hash(self.hash).credential(&username)?, false)
            }
        };
        let mut random = [0; NONCE_LEN];
        getrandom::fill(&mut random).map_err(|error| SaslError::Random(error.to_string()))?;
        let nonce = format!("{client_nonce}{}", encode64(&random));
        let server_first = format!(
            "r={nonce},s={},i={}",
            encode64(credential.salt()),
            credential.iterations()
        );
        let reply = server_first.clone().into_bytes();
        self.state = State::SentFirst(Box::new(Pending {
            username,
            extensions,
            credential,
            known,
            gs2_header: gs2_header.to_owned(),
            client_first_bare: bare.to_owned(),
            server_first,
            nonce,
        }));
        Ok(reply)
    }

    /// Reads the client-final message and checks its proof; on success gives
    /// who it was and the server-final message to send. A wrong proof, like an
    /// unknown user, is [`SaslError::AuthenticationFailed`]: the same
    /// hashing, against the stand-in's keys, fails it.
    ///
    /// A message over [`MAX_CLIENT_MESSAGE`](Self::MAX_CLIENT_MESSAGE) is
    /// [`SaslError::TooLarge`], unread.
    pub fn server_final(&mut self, client_final: &[u8]) -> Result<ScramOutcome, SaslError> {
        let State::SentFirst(pending) = std::mem::replace(&mut self.state, State::Failed) else {
            return Err(self.out_of_order("server-final"));
        };
        const WHAT: &str = "client-final message";
        check_len(client_final, "SCRAM client-final message")?;
        let text = text(client_final, WHAT)?;
        let (without_proof, proof) = text
            .rsplit_once(",p=")
            .ok_or_else(|| malformed(WHAT, "no proof (p=)".into()))?;
        let attrs = attributes(without_proof, WHAT, 2)?;
        let binding = decode64(expect(&attrs, 0, "c", WHAT)?, WHAT)?;
        if binding != pending.gs2_header.as_bytes() {
            return Err(malformed(
                WHAT,
                "channel binding differs from the GS2 header".into(),
            ));
        }
        // Exactly the nonce of the server-first message (RFC 5802), as Kafka's
        // broker has checked it since CVE-2024-56128; it once accepted any nonce
        // that ends with it, and librdkafka 2.0.2 (Debian's kcat) sends its own
        // nonce again in front, which Kafka 4.4.0 refuses and so do we.
        if expect(&attrs, 1, "r", WHAT)? != pending.nonce {
            return Err(SaslError::NonceMismatch);
        }
        let proof = decode64(proof, WHAT)?;
        // A user that does not exist goes through every step a wrong password
        // does, against the stand-in's keys: an early return would tell.
        let credential = &pending.credential;
        if proof.len() != self.hash.output_len() {
            return Err(SaslError::AuthenticationFailed);
        }
        let auth_message = format!(
            "{},{},{without_proof}",
            pending.client_first_bare, pending.server_first
        );
        let client_signature = self
            .hash
            .hmac(credential.stored_key(), auth_message.as_bytes());
        let client_key = xor(&proof, &client_signature);
        let proved = constant_time_eq(&self.hash.hash(&client_key), credential.stored_key());
        // No proof matches a stand-in's random keys; `known` is the rule
        // written down, not left to chance.
        if !(proved & pending.known) {
            return Err(SaslError::AuthenticationFailed);
        }
        let signature = self
            .hash
            .hmac(credential.server_key(), auth_message.as_bytes());
        self.state = State::Done;
        let Pending {
            username,
            extensions,
            ..
        } = *pending;
        Ok(ScramOutcome {
            username,
            extensions,
            server_final: format!("v={}", encode64(&signature)).into_bytes(),
        })
    }

    /// Whether the client-first message has been read.
    pub fn has_started(&self) -> bool {
        !matches!(self.state, State::Initial)
    }

    /// Whether the client has proved itself.
    pub fn is_done(&self) -> bool {
        matches!(self.state, State::Done)
    }

    fn out_of_order(&mut self, step: &'static str) -> SaslError {
        self.state = State::Failed;
        SaslError::OutOfOrder { step }
    }
}

/// Refuses a client message over [`ScramServer::MAX_CLIENT_MESSAGE`].
fn check_len(message: &[u8], what: &'static str) -> Result<(), SaslError> {
    SaslError::check_len(what, message.len(), ScramServer::MAX_CLIENT_MESSAGE)
}

/// Splits `gs2-header` (`n,,` or `y,,` or `n,a=NAME,`) from the bare message.
fn split_gs2_header(text: &str) -> Result<(&str, &str), SaslError> {
    const WHAT: &str = "client-first message";
    let flag_end = text
        .find(',')
        .ok_or_else(|| malformed(WHAT, "no GS2 header".into()))?;
    match &text[..flag_end] {
        // "y": the client could bind but thinks we cannot; we cannot, so no
        // downgrade happened.
        "n" | "y" => {}
        flag if flag.starts_with("p=") => return Err(SaslError::ChannelBinding),
        flag => return Err(malformed(WHAT, format!("GS2 flag {flag:?}"))),
    }
    let authz_end = text[flag_end + 1..]
        .find(',')
        .map(|at| flag_end + 1 + at)
        .ok_or_else(|| malformed(WHAT, "GS2 header not ended".into()))?;
    let authz = &text[flag_end + 1..authz_end];
    if !authz.is_empty() && !authz.starts_with("a=") {
        return Err(malformed(WHAT, format!("authorization id {authz:?}")));
    }
    Ok(text.split_at(authz_end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sasl::ScramClient;

    /// The lookup of a server without users.
    fn unknown(_: &str, _: &[(String, String)]) -> ScramLookup {
        ScramLookup::Unknown(StandIn::default_for(ScramHash::Sha512))
    }

    /// The server side of RFC 7677's example: the credential from its salt and
    /// password, our nonce replaced by the RFC's (the server's half is random).
    #[test]
    fn rfc_7677_proof_is_accepted_and_signed() {
        let salt = decode64("W22ZaJ0SNY7soEsUEjb6gQ==", "t").unwrap();
        let credential =
            ScramCredential::with_salt(ScramHash::Sha256, "pencil", salt, 4096).unwrap();
        let pending = Pending {
            username: "user".into(),
            extensions: Vec::new(),
            credential,
            known: true,
            gs2_header: "n,,".into(),
            client_first_bare: "n=user,r=rOprNGfwEbeRWgbNEkqO".into(),
            server_first: "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,\
                           s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
                .into(),
            nonce: "rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0".into(),
        };
        let mut server = ScramServer {
            hash: ScramHash::Sha256,
            state: State::SentFirst(Box::new(pending)),
        };
        let done = server
            .server_final(
                b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,\
                  p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
            )
            .unwrap();
        assert_eq!(
            done.server_final,
            b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="
        );
        assert!(server.is_done());
    }

    fn exchange(
        hash: ScramHash,
        stored_password: &str,
        user: &str,
        password: &str,
    ) -> Result<ScramOutcome, SaslError> {
        let stored = ScramCredential::new(hash, stored_password, 4096).unwrap();
        let mut client = ScramClient::new(hash, user, password).unwrap();
        let mut server = ScramServer::new(hash);
        let first = client.client_first().unwrap();
        let challenge = server.server_first(&first, |name, _| match name {
            "alice" => ScramLookup::Found(stored),
            _ => ScramLookup::Unknown(StandIn::default_for(hash)),
        })?;
        let proof = client.client_final(&challenge)?;
        let done = server.server_final(&proof)?;
        client.verify_server_final(&done.server_final)?;
        assert!(client.is_done());
        Ok(done)
    }

    #[test]
    fn both_hashes_authenticate_the_right_password_only() {
        for hash in ScramHash::ALL {
            assert_eq!(
                exchange(hash, "pw", "alice", "pw").unwrap().username,
                "alice"
            );
            assert!(matches!(
                exchange(hash, "pw", "alice", "wrong"),
                Err(SaslError::AuthenticationFailed)
            ));
        }
    }

    #[test]
    fn an_unknown_user_fails_like_a_wrong_password_with_a_stable_salt() {
        let error = exchange(ScramHash::Sha512, "pw", "mallory", "pw").unwrap_err();
        assert!(matches!(error, SaslError::AuthenticationFailed));
        let challenge = |nonce: &str| {
            let mut server = ScramServer::new(ScramHash::Sha512);
            let first = format!("n,,n=mallory,r={nonce}");
            let reply = server.server_first(first.as_bytes(), unknown).unwrap();
            let text = String::from_utf8(reply).unwrap();
            text.split(',').skip(1).collect::<Vec<_>>().join(",")
        };
        assert_eq!(challenge("one"), challenge("two"));
    }

    /// The stand-in a lookup gives is what the challenge shows and what the
    /// proof is checked against (issue 29: an unknown user was 24 bytes of
    /// salt at 4096 whatever the lookup knew, and its proof was not checked at
    /// all, which took less time than a wrong password).
    #[test]
    fn an_unknown_user_is_checked_against_the_stand_in_it_is_shown() {
        for hash in ScramHash::ALL {
            let mut server = ScramServer::new(hash);
            let stand_in = StandIn::new(ScramHash::Sha256, 16, 8192).unwrap();
            let reply = server
                .server_first(b"n,,n=mallory,r=abc", |_, _| ScramLookup::Unknown(stand_in))
                .unwrap();
            let State::SentFirst(pending) = &server.state else {
                panic!("no exchange pending");
            };
            assert!(!pending.known);
            let credential = &pending.credential;
            // The exchange's hash, the stand-in's salt length and iterations.
            assert_eq!(credential.hash(), hash);
            assert_eq!(
                (credential.salt().len(), credential.iterations()),
                (16, 8192)
            );
            let shown = format!(",s={},i=8192", encode64(credential.salt()));
            assert!(String::from_utf8(reply).unwrap().ends_with(&shown));
            // Nobody's password gives its keys.
            assert!(!credential.matches_password(""));
        }
        // A credential of another hash is nobody's, shown as the default.
        let mut server = ScramServer::new(ScramHash::Sha256);
        let other = ScramCredential::with_salt(ScramHash::Sha512, "pw", vec![1; 16], 8192).unwrap();
        let reply = server
            .server_first(b"n,,n=alice,r=abc", |_, _| ScramLookup::Found(other))
            .unwrap();
        assert!(String::from_utf8(reply).unwrap().ends_with(",i=4096"));
    }

    #[test]
    fn bad_client_messages_are_refused() {
        let first =
            |message: &[u8]| ScramServer::new(ScramHash::Sha256).server_first(message, unknown);
        assert!(matches!(
            first(b"p=tls-unique,,n=u,r=x"),
            Err(SaslError::ChannelBinding)
        ));
        assert!(matches!(
            first(b"q,,n=u,r=x"),
            Err(SaslError::Malformed { .. })
        ));
        assert!(matches!(
            first(b"n,,m=ext,n=u,r=x"),
            Err(SaslError::Malformed { .. })
        ));
        assert!(matches!(
            first(b"n,,n=u=ZZ,r=x"),
            Err(SaslError::Malformed { .. })
        ));
        assert!(matches!(
            first(b"n,,n=u,r="),
            Err(SaslError::Malformed { .. })
        ));
        assert!(matches!(
            first(b"n,,r=x,n=u"),
            Err(SaslError::Malformed { .. })
        ));
        assert!(matches!(
            first(b"n,a=bob,n=alice,r=x"),
            Err(SaslError::AuthenticationFailed)
        ));
        assert!(first(b"n,a=alice,n=alice,r=x").is_ok());
        assert!(first(b"y,,n=alice,r=x,tokenauth=true").is_ok());
        assert!(first(b"\xff").is_err());
    }

    /// Issue 29: `n,,n=alice,r=abc` and `,a=b` up to 100 MiB made a Vec of
    /// every pair and kept them all until the exchange ended. Scaled down: at
    /// the size bound the reader stops at the 17th extension; past it the
    /// message is refused by its length, unread.
    #[test]
    fn many_extensions_are_refused_and_a_long_message_unread() {
        let first =
            |message: &[u8]| ScramServer::new(ScramHash::Sha512).server_first(message, unknown);
        let prefix = "n,,n=alice,r=abc";
        let pairs = (ScramServer::MAX_CLIENT_MESSAGE - prefix.len()) / 4;
        let hostile = format!("{prefix}{}", ",a=b".repeat(pairs));
        assert!(hostile.len() <= ScramServer::MAX_CLIENT_MESSAGE);
        assert_eq!(
            first(hostile.as_bytes()),
            Err(SaslError::TooMany {
                what: "SCRAM extensions",
                max: ScramServer::MAX_EXTENSIONS
            })
        );
        let huge = format!("{prefix}{}", ",a=b".repeat(1 << 20));
        assert_eq!(
            first(huge.as_bytes()),
            Err(SaslError::TooLarge {
                what: "SCRAM client-first message",
                len: huge.len(),
                max: ScramServer::MAX_CLIENT_MESSAGE
            })
        );
        // The length is checked before anything else: not UTF-8, too large first.
        let invalid = vec![0xff; ScramServer::MAX_CLIENT_MESSAGE + 1];
        assert!(matches!(first(&invalid), Err(SaslError::TooLarge { .. })));
        // Sixteen extensions are read and kept, as Kafka's one is.
        let sixteen = format!("{prefix}{}", ",a=b".repeat(ScramServer::MAX_EXTENSIONS));
        assert!(first(sixteen.as_bytes()).is_ok());
    }

    #[test]
    fn a_long_client_nonce_is_refused_before_it_is_echoed() {
        let first = |nonce: &str| {
            let message = format!("n,,n=alice,r={nonce}");
            ScramServer::new(ScramHash::Sha256).server_first(message.as_bytes(), unknown)
        };
        let longest = "x".repeat(ScramServer::MAX_CLIENT_NONCE);
        let echoed = String::from_utf8(first(&longest).unwrap()).unwrap();
        assert!(echoed.starts_with(&format!("r={longest}")));
        let four_mib = "x".repeat(4 << 20);
        assert!(matches!(
            first(&four_mib),
            Err(SaslError::TooLarge {
                what: "SCRAM client-first message",
                ..
            })
        ));
        let over = "x".repeat(ScramServer::MAX_CLIENT_NONCE + 1);
        assert_eq!(
            first(&over),
            Err(SaslError::TooLarge {
                what: "SCRAM client nonce",
                len: ScramServer::MAX_CLIENT_NONCE + 1,
                max: ScramServer::MAX_CLIENT_NONCE
            })
        );
    }

    #[test]
    fn a_long_client_final_message_is_refused_unread() {
        let mut server = ScramServer::new(ScramHash::Sha256);
        server.server_first(b"n,,n=alice,r=abc", unknown).unwrap();
        let mut hostile = vec![b','; ScramServer::MAX_CLIENT_MESSAGE + 1];
        hostile.extend_from_slice(b",p=AAAA");
        assert!(matches!(
            server.server_final(&hostile),
            Err(SaslError::TooLarge {
                what: "SCRAM client-final message",
                ..
            })
        ));
        // Under the bound, a proof behind too many extensions stops at the 17th.
        let mut server = ScramServer::new(ScramHash::Sha256);
        server.server_first(b"n,,n=alice,r=abc", unknown).unwrap();
        let hostile = format!("c=biws,r=abc{},p=AAAA", ",a=b".repeat(4000));
        assert!(matches!(
            server.server_final(hostile.as_bytes()),
            Err(SaslError::TooMany { .. })
        ));
    }

    /// librdkafka 2.0.2's client-final message, as Debian's kcat sent it to our
    /// broker: its nonce again in front of the server's, with a proof that holds.
    /// Kafka 4.4.0 refuses it (the nonce must be the server-first's exactly, since
    /// CVE-2024-56128), so do we.
    #[test]
    fn a_final_nonce_that_only_ends_with_the_servers_is_refused() {
        let hash = ScramHash::Sha512;
        let stored = ScramCredential::new(hash, "pw", 4096).unwrap();
        let mut server = ScramServer::new(hash);
        let challenge = server
            .server_first(b"n,,n=alice,r=cnonce", |_, _| {
                ScramLookup::Found(stored.clone())
            })
            .unwrap();
        let challenge = String::from_utf8(challenge).unwrap();
        let combined = challenge
            .split(',')
            .next()
            .unwrap()
            .strip_prefix("r=")
            .unwrap();
        let without_proof = format!("c=biws,r=cnonce{combined}");
        let auth_message = format!("n=alice,r=cnonce,{challenge},{without_proof}");
        let keys = hash.keys("pw", stored.salt(), 4096);
        let signature = hash.hmac(&keys.stored, auth_message.as_bytes());
        let proof = encode64(&xor(&keys.client, &signature));
        let refused = server.server_final(format!("{without_proof},p={proof}").as_bytes());
        assert!(
            matches!(refused, Err(SaslError::NonceMismatch)),
            "{refused:?}"
        );
    }

    #[test]
    fn a_replayed_or_altered_final_message_fails() {
        let stored = ScramCredential::new(ScramHash::Sha256, "pw", 4096).unwrap();
        let mut client = ScramClient::new(ScramHash::Sha256, "alice", "pw").unwrap();
        let mut server = ScramServer::new(ScramHash::Sha256);
        let challenge = server
            .server_first(&client.client_first().unwrap(), |_, _| {
                ScramLookup::Found(stored.clone())
            })
            .unwrap();
        let proof = String::from_utf8(client.client_final(&challenge).unwrap()).unwrap();
        let mut other = ScramServer::new(ScramHash::Sha256);
        other
            .server_first(b"n,,n=alice,r=zzz", |_, _| {
                ScramLookup::Found(stored.clone())
            })
            .unwrap();
        assert!(matches!(
            other.server_final(proof.as_bytes()),
            Err(SaslError::NonceMismatch)
        ));
        let altered = proof.replace("c=biws", "c=eSws");
        assert!(matches!(
            server.server_final(altered.as_bytes()),
            Err(SaslError::Malformed { .. })
        ));
        // The failed attempt ends the exchange: no second try on one server.
        assert!(matches!(
            server.server_final(proof.as_bytes()),
            Err(SaslError::OutOfOrder { .. })
        ));
    }
}
