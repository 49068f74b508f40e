//! The server side of any mechanism, and where it finds users.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::error::SaslError;
use super::mechanism::Mechanism;
use super::oauthbearer::{
    now_ms, OAuthBearerServer, SaslExtensions, TokenValidator, ValidatedToken,
};
use super::plain;
use super::scram::{pick_for, ScramCredential, ScramHash, ScramLookup, ScramServer, StandIn};

/// Where a server finds its users' credentials, and how it judges OAUTHBEARER
/// tokens.
///
/// Only salted SCRAM credentials are asked for: PLAIN is checked against them
/// too ([`ScramCredential::matches_password`]), so no password need be stored.
/// OAUTHBEARER needs a [`token_validator`](Self::token_validator); without one
/// (the default) it is not offered.
///
/// A user that does not exist must look like one that does, or the exchange
/// tells who has an account: SCRAM shows a salt and an iteration count, and a
/// PLAIN check takes as long as its key derivation. For a name without a
/// credential, [`scram_stand_in`](Self::scram_stand_in) and
/// [`plain_stand_in`](Self::plain_stand_in) say what to look like. Their
/// defaults are what [`Users::with_user`] makes (a 24-byte salt, 4096
/// iterations, PLAIN checked with SHA-512): a store whose users differ should
/// say so, as [`Users`] does from its own.
///
/// ```
/// use kwire_net::sasl::{Credentials, ScramCredential, ScramHash, StandIn};
///
/// /// One user, stored at 8192 iterations.
/// struct OneUser(ScramCredential);
///
/// impl Credentials for OneUser {
///     fn scram(&self, hash: ScramHash, username: &str) -> Option<ScramCredential> {
///         (username == "alice" && hash == self.0.hash()).then(|| self.0.clone())
///     }
///
///     // Nobody else is to look any different from alice.
///     fn scram_stand_in(&self, hash: ScramHash, _username: &str) -> StandIn {
///         if hash == self.0.hash() {
///             StandIn::like(&self.0)
///         } else {
///             StandIn::default_for(hash)
///         }
///     }
///
///     fn plain_stand_in(&self, _username: &str) -> StandIn {
///         StandIn::like(&self.0)
///     }
/// }
///
/// let store = OneUser(ScramCredential::new(ScramHash::Sha512, "secret", 8192)?);
/// assert!(store.plain("alice", "secret"));
/// assert!(!store.plain("mallory", "secret")); // after a derivation at 8192 too
/// # Ok::<(), kwire_net::sasl::SaslError>(())
/// ```
pub trait Credentials {
    /// The credential of `username` for `hash`, if the user has one.
    fn scram(&self, hash: ScramHash, username: &str) -> Option<ScramCredential>;

    /// Whether `password` is `username`'s (for PLAIN). By default checked
    /// against the user's SCRAM credentials, its SHA-512 one if it has one,
    /// else its SHA-256 one; for a user that has neither, the same work against
    /// a credential like [`plain_stand_in`](Self::plain_stand_in) says, so that
    /// it takes as long.
    fn plain(&self, username: &str, password: &str) -> bool {
        let found = [ScramHash::Sha512, ScramHash::Sha256]
            .into_iter()
            .find_map(|hash| self.scram(hash, username));
        match found {
            Some(credential) => credential.matches_password(password),
            None => self
                .plain_stand_in(username)
                .matches_password(username, password),
        }
    }

    /// What a SCRAM exchange with `hash` for `username`, who has no credential
    /// for it, is to look like: the salt length and iterations shown (the
    /// server runs `hash` whatever the stand-in's). Should be what the store's
    /// real credentials for `hash` look like, and the same for a name each
    /// time; by default, [`StandIn::default_for`] `hash`, what
    /// [`Users::with_user`] makes.
    fn scram_stand_in(&self, hash: ScramHash, username: &str) -> StandIn {
        let _ = username;
        StandIn::default_for(hash)
    }

    /// What the default [`plain`](Self::plain) check of `username`, who has
    /// no credential, derives with: the hash and iterations a real user's
    /// check would run (the hash of its SHA-512 credential if it has one, else
    /// of its SHA-256 one). By default SHA-512 at Kafka's minimum, as for a
    /// user [`Users::with_user`] makes.
    fn plain_stand_in(&self, username: &str) -> StandIn {
        let _ = username;
        StandIn::default_for(ScramHash::Sha512)
    }

    /// What judges OAUTHBEARER tokens; `None` (the default): OAUTHBEARER is
    /// refused, and a [`ServerAuthenticator`](super::ServerAuthenticator) does
    /// not offer it.
    fn token_validator(&self) -> Option<&dyn TokenValidator> {
        None
    }
}

/// Users held in memory, each with a SCRAM credential per hash, and
/// optionally a [`TokenValidator`] for OAUTHBEARER.
///
/// A name that is not among them is made to look like one that is: each
/// unknown name is given one of the users (chosen from the name with a key
/// drawn at random per process, so the same each time, and in proportion to
/// how many users look each way), and its SCRAM exchanges show that user's
/// salt length and iterations, its PLAIN checks derive as that user's do.
///
/// ```
/// use kwire_net::sasl::{Credentials, ScramCredential, ScramHash, StandIn, UnsecuredValidator, Users};
///
/// let users = Users::new().with_user("alice", "secret").unwrap();
/// assert!(users.scram(ScramHash::Sha256, "alice").is_some());
/// assert!(users.plain("alice", "secret"));
/// assert!(!users.plain("alice", "guess"));
/// assert!(users.token_validator().is_none());
///
/// let users = users.with_token_validator(UnsecuredValidator::new());
/// assert!(users.token_validator().is_some());
///
/// // Bob is stored at 8192 iterations with a 16-byte salt: with him alone,
/// // anybody else looks like him.
/// let bob = ScramCredential::with_salt(ScramHash::Sha512, "pw", vec![9; 16], 8192).unwrap();
/// let users = Users::new().with_credential("bob", bob);
/// let stand_in = users.scram_stand_in(ScramHash::Sha512, "mallory");
/// assert_eq!(stand_in, StandIn::new(ScramHash::Sha512, 16, 8192).unwrap());
/// assert_eq!(users.plain_stand_in("mallory"), stand_in);
/// ```
#[derive(Clone, Default)]
pub struct Users {
    by_name: HashMap<String, Vec<ScramCredential>>,
    /// How many users look each way: what unknown names are made to look like,
    /// in proportion. Kept as users are added, so that a lookup costs the
    /// number of different looks (a handful), not the number of users.
    looks: BTreeMap<Look, usize>,
    validator: Option<Arc<dyn TokenValidator + Send + Sync>>,
}

/// What one user's credentials show: per hash (in [`ScramHash::ALL`]'s order)
/// the salt length and iterations, if the user has a credential for it. Kept
/// whole, so that an unknown name copies one user's SHA-256, SHA-512 and PLAIN
/// look together, as a real user shows them together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Look {
    by_hash: [Option<(usize, u32)>; 2],
}

impl Look {
    fn of(credentials: &[ScramCredential]) -> Look {
        let mut by_hash = [None; 2];
        for credential in credentials {
            let like = StandIn::like(credential);
            by_hash[rank(like.hash())] = Some((like.salt_len(), like.iterations()));
        }
        Look { by_hash }
    }

    fn scram(&self, hash: ScramHash) -> Option<StandIn> {
        let (salt_len, iterations) = self.by_hash[rank(hash)]?;
        StandIn::new(hash, salt_len, iterations).ok()
    }

    /// What the default PLAIN check runs for such a user: its SHA-512
    /// credential if it has one, else its SHA-256 one.
    fn plain(&self) -> Option<StandIn> {
        self.scram(ScramHash::Sha512)
            .or_else(|| self.scram(ScramHash::Sha256))
    }
}

fn rank(hash: ScramHash) -> usize {
    match hash {
        ScramHash::Sha256 => 0,
        ScramHash::Sha512 => 1,
    }
}

impl std::fmt::Debug for Users {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Users")
            .field("by_name", &self.by_name)
            .field("token_validator", &self.validator.is_some())
            .finish()
    }
}

impl Users {
    /// No users.
    pub fn new() -> Self {
        Users::default()
    }

    /// Adds `username` with credentials for both hashes made from `password` at
    /// Kafka's minimum iterations (4096), salted at random.
    pub fn with_user(mut self, username: &str, password: &str) -> Result<Self, SaslError> {
        for hash in ScramHash::ALL {
            let credential = ScramCredential::new(hash, password, hash.min_iterations())?;
            self = self.with_credential(username, credential);
        }
        Ok(self)
    }

    /// Adds (or replaces) one credential of `username`.
    pub fn with_credential(mut self, username: &str, credential: ScramCredential) -> Self {
        let credentials = self.by_name.entry(username.to_owned()).or_default();
        let before = (!credentials.is_empty()).then(|| Look::of(credentials));
        credentials.retain(|c| c.hash() != credential.hash());
        credentials.push(credential);
        let after = Look::of(credentials);
        if let Some(before) = before {
            if let Some(count) = self.looks.get_mut(&before) {
                *count -= 1;
                if *count == 0 {
                    self.looks.remove(&before);
                }
            }
        }
        *self.looks.entry(after).or_default() += 1;
        self
    }

    /// Judges OAUTHBEARER tokens with `validator` (replacing any before), so
    /// that a [`ServerAuthenticator`](super::ServerAuthenticator) offers it.
    pub fn with_token_validator(
        mut self,
        validator: impl TokenValidator + Send + Sync + 'static,
    ) -> Self {
        self.validator = Some(Arc::new(validator));
        self
    }

    /// How many users there are.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The look of one of the users whose look is `eligible`, chosen by
    /// `pick` in proportion to how many users look each way; `None` if no user
    /// is eligible.
    fn choose(&self, pick: u64, eligible: impl Fn(&Look) -> bool) -> Option<&Look> {
        let eligible = || self.looks.iter().filter(|(look, _)| eligible(look));
        let total: usize = eligible().map(|(_, count)| count).sum();
        let total = u64::try_from(total).ok().filter(|&total| total > 0)?;
        let at = pick % total;
        let mut seen: u64 = 0;
        for (look, count) in eligible() {
            seen += u64::try_from(*count).unwrap_or(u64::MAX);
            if at < seen {
                return Some(look);
            }
        }
        None
    }
}

impl Credentials for Users {
    fn scram(&self, hash: ScramHash, username: &str) -> Option<ScramCredential> {
        self.by_name
            .get(username)?
            .iter()
            .find(|c| c.hash() == hash)
            .cloned()
    }

    /// The look of the user the name is given (see [`Users`]) for `hash`; if
    /// that user has no credential for `hash`, of one chosen the same way among
    /// those that have (as that user's own exchange with `hash` would look);
    /// with none, the default.
    fn scram_stand_in(&self, hash: ScramHash, username: &str) -> StandIn {
        let pick = pick_for(username);
        let with_hash = |look: &Look| look.scram(hash);
        self.choose(pick, |_| true)
            .and_then(with_hash)
            .or_else(|| {
                self.choose(pick, |look| with_hash(look).is_some())
                    .and_then(with_hash)
            })
            .unwrap_or(StandIn::default_for(hash))
    }

    /// What the PLAIN check of the user the name is given derives with; with
    /// no users, the default.
    fn plain_stand_in(&self, username: &str) -> StandIn {
        self.choose(pick_for(username), |_| true)
            .and_then(Look::plain)
            .unwrap_or(StandIn::default_for(ScramHash::Sha512))
    }

    fn token_validator(&self) -> Option<&dyn TokenValidator> {
        self.validator.as_deref().map(|v| v as &dyn TokenValidator)
    }
}

/// What the server sends back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerStep {
    /// A challenge: the client must answer.
    Challenge(Vec<u8>),
    /// Authenticated; these bytes (empty for PLAIN and OAUTHBEARER, the
    /// signature for SCRAM) go in the last SaslAuthenticate response.
    Done(Vec<u8>),
}

impl ServerStep {
    /// The bytes to send, whichever step this is.
    pub fn message(&self) -> &[u8] {
        match self {
            ServerStep::Challenge(bytes) | ServerStep::Done(bytes) => bytes,
        }
    }

    /// Whether the client is authenticated.
    pub fn is_done(&self) -> bool {
        matches!(self, ServerStep::Done(_))
    }
}

/// A server's side of one SASL exchange, whatever the mechanism: each client
/// message to [`step`](Self::step) until [`ServerStep::Done`]; any error ends the
/// exchange (answer it with [`SaslError::error_code`]).
///
/// OAUTHBEARER refuses a token with a [`ServerStep::Challenge`] holding RFC
/// 7628's error message; the client's `%x01` to it then fails with
/// [`SaslError::TokenRejected`], as Kafka's broker does.
///
/// See [`SaslClient`](super::SaslClient) for an exchange end to end.
#[derive(Debug)]
pub struct SaslServer {
    inner: Inner,
    principal: Option<String>,
    failed: bool,
}

#[derive(Debug)]
enum Inner {
    Plain,
    Scram(ScramServer),
    OAuthBearer(OAuthBearerServer),
}

impl SaslServer {
    /// A server for one exchange with `mechanism`.
    pub fn new(mechanism: Mechanism) -> Self {
        let inner = match mechanism {
            Mechanism::Plain => Inner::Plain,
            Mechanism::Scram(hash) => Inner::Scram(ScramServer::new(hash)),
            Mechanism::OAuthBearer => Inner::OAuthBearer(OAuthBearerServer::new()),
        };
        SaslServer {
            inner,
            principal: None,
            failed: false,
        }
    }

    /// The mechanism of this exchange.
    pub fn mechanism(&self) -> Mechanism {
        match &self.inner {
            Inner::Plain => Mechanism::Plain,
            Inner::Scram(server) => Mechanism::Scram(server.hash()),
            Inner::OAuthBearer(_) => Mechanism::OAuthBearer,
        }
    }

    /// Reads the client's next message, checking it against `credentials`.
    pub fn step(
        &mut self,
        from_client: &[u8],
        credentials: &dyn Credentials,
    ) -> Result<ServerStep, SaslError> {
        if self.failed || self.principal.is_some() {
            self.failed = true;
            return Err(SaslError::OutOfOrder {
                step: "client message",
            });
        }
        let step = self.run(from_client, credentials);
        self.failed = step.is_err();
        step
    }

    fn run(
        &mut self,
        from_client: &[u8],
        credentials: &dyn Credentials,
    ) -> Result<ServerStep, SaslError> {
        match &mut self.inner {
            Inner::Plain => {
                let given = plain::parse(from_client)?;
                if !credentials.plain(&given.username, &given.password) {
                    return Err(SaslError::AuthenticationFailed);
                }
                self.principal = Some(given.username);
                Ok(ServerStep::Done(Vec::new()))
            }
            Inner::Scram(server) => {
                if !server.has_started() {
                    let hash = server.hash();
                    let reply = server.server_first(from_client, |name, _| {
                        match credentials.scram(hash, name) {
                            Some(credential) => ScramLookup::Found(credential),
                            None => ScramLookup::Unknown(credentials.scram_stand_in(hash, name)),
                        }
                    })?;
                    return Ok(ServerStep::Challenge(reply));
                }
                let outcome = server.server_final(from_client)?;
                self.principal = Some(outcome.username);
                Ok(ServerStep::Done(outcome.server_final))
            }
            Inner::OAuthBearer(server) => {
                let step = server.step(from_client, credentials.token_validator(), now_ms())?;
                if let Some(token) = server.token() {
                    self.principal = Some(token.principal.clone());
                }
                Ok(step)
            }
        }
    }

    /// OAUTHBEARER: the token accepted, once done (its expiry bounds the
    /// session).
    pub fn token(&self) -> Option<&ValidatedToken> {
        match &self.inner {
            Inner::OAuthBearer(server) => server.token(),
            _ => None,
        }
    }

    /// OAUTHBEARER: the extensions the client sent with its accepted token.
    pub fn extensions(&self) -> Option<&SaslExtensions> {
        match &self.inner {
            Inner::OAuthBearer(server) => server.extensions(),
            _ => None,
        }
    }

    /// Who authenticated, once done.
    pub fn principal(&self) -> Option<&str> {
        self.principal.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sasl::scram::ScramClient;

    /// What a SCRAM server shows `username` in server-first: the salt and the
    /// iterations.
    fn challenge(users: &Users, hash: ScramHash, username: &str) -> (Vec<u8>, u32) {
        let mut server = SaslServer::new(Mechanism::Scram(hash));
        let first = format!("n,,n={username},r=nonce");
        let reply = server.step(first.as_bytes(), users).unwrap();
        let text = std::str::from_utf8(reply.message()).unwrap();
        let mut salt = None;
        let mut iterations = None;
        for part in text.split(',') {
            if let Some(value) = part.strip_prefix("s=") {
                salt = Some(crate::sasl::scram::attributes::decode64(value, "s").unwrap());
            }
            if let Some(value) = part.strip_prefix("i=") {
                iterations = Some(value.parse().unwrap());
            }
        }
        (salt.unwrap(), iterations.unwrap())
    }

    fn stored(hash: ScramHash, salt_len: usize, iterations: u32) -> ScramCredential {
        ScramCredential::with_salt(hash, "pw", vec![5; salt_len], iterations).unwrap()
    }

    /// Issue 29: an unknown name got 24 bytes of salt and 4096 iterations
    /// whatever the real users had, so with a users file of 16-byte salts at
    /// 8192 anybody could tell who has an account.
    #[test]
    fn unknown_names_look_like_the_one_user() {
        let hash = ScramHash::Sha512;
        let users = Users::new().with_credential("bob", stored(hash, 16, 8192));
        let (salt, iterations) = challenge(&users, hash, "bob");
        assert_eq!((salt.len(), iterations), (16, 8192));
        for name in ["mallory", "eve", "trudy", "a", "bob2"] {
            let (salt, iterations) = challenge(&users, hash, name);
            assert_eq!((salt.len(), iterations), (16, 8192), "{name}");
            // The same each time, and nobody else's.
            assert_eq!(challenge(&users, hash, name).0, salt, "{name}");
            assert_ne!(salt, vec![5; 16]);
        }
        // Bob has no SHA-256 credential: his exchange and a stranger's both
        // show the default.
        let other = ScramHash::Sha256;
        assert_eq!(challenge(&users, other, "bob").0.len(), 24);
        assert_eq!(challenge(&users, other, "mallory").1, 4096);
    }

    #[test]
    fn with_two_users_each_unknown_name_looks_like_one_of_them_stably() {
        let hash = ScramHash::Sha256;
        let alice = StandIn::new(hash, 16, 8192).unwrap();
        let bob = StandIn::new(hash, 32, 4096).unwrap();
        let users = Users::new()
            .with_credential("alice", stored(hash, 16, 8192))
            .with_credential("bob", stored(hash, 32, 4096));
        let mut seen = [0; 2];
        for n in 0..64 {
            let name = format!("user{n}");
            let stand_in = users.scram_stand_in(hash, &name);
            assert!(stand_in == alice || stand_in == bob, "{name}: {stand_in:?}");
            seen[usize::from(stand_in == bob)] += 1;
            assert_eq!(users.scram_stand_in(hash, &name), stand_in);
            let (salt, iterations) = challenge(&users, hash, &name);
            assert_eq!(
                (salt.len(), iterations),
                (stand_in.salt_len(), stand_in.iterations())
            );
            // PLAIN derives as the same user's check would.
            assert_eq!(users.plain_stand_in(&name), stand_in);
        }
        // Both are used (1 chance in 2^63 of failing by bad luck).
        assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
    }

    #[test]
    fn plain_for_an_unknown_name_derives_as_a_sha256_only_user_does() {
        let users = Users::new().with_credential("carol", stored(ScramHash::Sha256, 20, 8192));
        assert_eq!(
            users.plain_stand_in("nobody"),
            StandIn::new(ScramHash::Sha256, 20, 8192).unwrap()
        );
        assert!(!users.plain("nobody", "pw"));
        assert!(users.plain("carol", "pw"));
        // Given a SHA-512 credential too, carol's PLAIN check runs it, and
        // so does a stranger's.
        let users = users.with_credential("carol", stored(ScramHash::Sha512, 16, 4096));
        assert_eq!(
            users.plain_stand_in("nobody"),
            StandIn::new(ScramHash::Sha512, 16, 4096).unwrap()
        );
    }

    #[test]
    fn defaults_are_what_with_user_makes_and_replaced_credentials_are_forgotten() {
        for users in [Users::new(), Users::new().with_user("alice", "pw").unwrap()] {
            for hash in ScramHash::ALL {
                assert_eq!(
                    users.scram_stand_in(hash, "mallory"),
                    StandIn::default_for(hash)
                );
            }
            assert_eq!(
                users.plain_stand_in("mallory"),
                StandIn::default_for(ScramHash::Sha512)
            );
        }
        let hash = ScramHash::Sha512;
        let users = Users::new()
            .with_credential("bob", stored(hash, 16, 8192))
            .with_credential("bob", stored(hash, 40, 10_000));
        assert_eq!(users.looks.len(), 1);
        assert_eq!(
            users.scram_stand_in(hash, "mallory"),
            StandIn::new(hash, 40, 10_000).unwrap()
        );
    }

    /// An unknown user's proof fails as a wrong password's does, through the
    /// same steps.
    #[test]
    fn an_unknown_users_proof_fails_like_a_wrong_password() {
        let hash = ScramHash::Sha512;
        let users = Users::new().with_credential("bob", stored(hash, 16, 4096));
        for (name, password) in [("bob", "wrong"), ("mallory", "pw")] {
            let mut server = SaslServer::new(Mechanism::Scram(hash));
            let mut client = ScramClient::new(hash, name, password).unwrap();
            let challenge = server
                .step(&client.client_first().unwrap(), &users)
                .unwrap();
            let proof = client.client_final(challenge.message()).unwrap();
            assert_eq!(
                server.step(&proof, &users),
                Err(SaslError::AuthenticationFailed),
                "{name}"
            );
        }
    }
}
