//! SASL PLAIN (RFC 4616): the authorization id, the user name and the password in
//! one message, separated by NUL bytes. Safe only over TLS.

use super::error::SaslError;

/// The one PLAIN message: `[authzid] NUL username NUL password`. Refuses parts
/// holding NUL, and an empty user name or password (Kafka's broker refuses both).
///
/// ```
/// use kwire_net::sasl::plain;
///
/// assert_eq!(plain::message("alice", "secret").unwrap(), b"\0alice\0secret");
/// ```
pub fn message(username: &str, password: &str) -> Result<Vec<u8>, SaslError> {
    if username.is_empty() || password.is_empty() {
        return Err(malformed("an empty user name or password".into()));
    }
    if username.contains('\0') || password.contains('\0') {
        return Err(malformed("a NUL inside the user name or password".into()));
    }
    Ok(format!("\0{username}\0{password}").into_bytes())
}

/// A PLAIN message as a server reads it.
#[derive(Clone, PartialEq, Eq)]
pub struct PlainCredentials {
    /// Who to act as; Kafka allows only oneself (or nobody given).
    pub authzid: String,
    /// Who is logging in.
    pub username: String,
    /// The password.
    pub password: String,
}

impl std::fmt::Debug for PlainCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlainCredentials")
            .field("authzid", &self.authzid)
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// Reads a PLAIN message as Kafka's `PlainSaslServer` does: three parts, a user
/// name and a password that are not empty, and an authorization id that is empty
/// or the user name.
///
/// ```
/// use kwire_net::sasl::plain;
///
/// let read = plain::parse(b"alice\0alice\0secret").unwrap();
/// assert_eq!((read.username.as_str(), read.password.as_str()), ("alice", "secret"));
/// assert!(plain::parse(b"bob\0alice\0secret").is_err());
/// ```
pub fn parse(message: &[u8]) -> Result<PlainCredentials, SaslError> {
    let text = std::str::from_utf8(message).map_err(|_| malformed("not UTF-8".into()))?;
    let parts: Vec<&str> = text.split('\0').collect();
    let [authzid, username, password] = parts[..] else {
        return Err(malformed(format!(
            "{} NUL-separated parts, not 3",
            parts.len()
        )));
    };
    if username.is_empty() || password.is_empty() {
        return Err(malformed("an empty user name or password".into()));
    }
    if !authzid.is_empty() && authzid != username {
        return Err(SaslError::AuthenticationFailed);
    }
    Ok(PlainCredentials {
        authzid: authzid.to_owned(),
        username: username.to_owned(),
        password: password.to_owned(),
    })
}

fn malformed(detail: String) -> SaslError {
    SaslError::Malformed {
        what: "PLAIN message",
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_bad_ones_are_refused() {
        let read = parse(&message("alice", "pw").unwrap()).unwrap();
        assert_eq!(
            (read.authzid.as_str(), read.username.as_str()),
            ("", "alice")
        );
        assert!(message("", "pw").is_err());
        assert!(message("a\0b", "pw").is_err());
        for bad in [
            &b"alice\0pw"[..],
            b"\0\0pw",
            b"\0alice\0",
            b"\0a\0b\0c",
            b"\xff\0a\0b",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        assert!(!format!("{read:?}").contains("pw"));
    }
}
