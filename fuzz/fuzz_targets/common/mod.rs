//! What the SASL targets (`sasl_server`, `pre_auth`) share: the one user, the
//! credentials the gate checks, which mechanisms a config byte enables, and the
//! input read from the front.

use std::sync::OnceLock;

use kwire_net::sasl::{
    Credentials, Mechanism, ScramCredential, ScramHash, TokenValidator, UnsecuredValidator, Users,
};

pub const USER: &str = "alice";
pub const PASSWORD: &str = "secret";

/// Deriving SCRAM keys is slow by design: once per process.
pub fn users() -> &'static Users {
    static USERS: OnceLock<Users> = OnceLock::new();
    USERS.get_or_init(|| Users::new().with_user(USER, PASSWORD).expect("a user"))
}

/// The one user, and the validator if configured. PLAIN compares the password
/// as it is: the key derivation `Users` runs for it (to take as long for every
/// name) would only slow the fuzzing down.
pub struct Accounts {
    pub validator: Option<UnsecuredValidator>,
}

impl Credentials for Accounts {
    fn scram(&self, hash: ScramHash, username: &str) -> Option<ScramCredential> {
        users().scram(hash, username)
    }

    fn plain(&self, username: &str, password: &str) -> bool {
        username == USER && password == PASSWORD
    }

    fn token_validator(&self) -> Option<&dyn TokenValidator> {
        self.validator.as_ref().map(|v| v as &dyn TokenValidator)
    }
}

/// The mechanisms a config byte's low four bits enable (none set: all).
pub fn enabled(config: u8) -> Vec<Mechanism> {
    let mask = config & 0x0f;
    Mechanism::ALL
        .into_iter()
        .enumerate()
        .filter(|(i, _)| mask == 0 || mask & (1 << i) != 0)
        .map(|(_, m)| m)
        .collect()
}

/// The input, read from the front; short reads give what is left.
pub struct Input<'a>(pub &'a [u8]);

impl<'a> Input<'a> {
    pub fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }

    /// A length byte, then that many bytes.
    pub fn bytes(&mut self) -> &'a [u8] {
        let len = usize::from(self.byte().unwrap_or(0)).min(self.0.len());
        let (taken, rest) = self.0.split_at(len);
        self.0 = rest;
        taken
    }
}
