//! SASL PLAIN (RFC 4616): the authorization id, the user name and the password in
//! one message, separated by NUL bytes. Safe only over TLS.

use super::error::SaslError;

/// The longest PLAIN message a server reads, in bytes: 64 KiB.
///
/// A PLAIN message is an authorization id, a user name and a password; real ones
/// are tens of bytes, and a password a manager generates is at most a few hundred.
/// 64 KiB is far beyond any of them, an eighth of what Kafka's broker lets a
/// connection send before it authenticates (`sasl.server.max.receive.size`, 512
/// KiB), and small enough that a server holding one per connection in the middle
/// of authenticating does not care. [`parse`] refuses a longer message with
/// [`SaslError::TooLarge`] before it looks at a byte of it, and
/// [`message`] refuses to make one.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// The one PLAIN message: `[authzid] NUL username NUL password`. Refuses parts
/// holding NUL, an empty user name or password (Kafka's broker refuses both),
/// and a message longer than a server reads ([`MAX_MESSAGE`]).
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
    let len = 2 + username.len() + password.len();
    SaslError::check_len(WHAT, len, MAX_MESSAGE)?;
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
/// A message longer than [`MAX_MESSAGE`] is [`SaslError::TooLarge`], refused
/// before it is read; a shorter one costs its own size in memory (the three
/// parts copied out), whatever it holds.
///
/// ```
/// use kwire_net::sasl::{plain, SaslError};
///
/// let read = plain::parse(b"alice\0alice\0secret").unwrap();
/// assert_eq!((read.username.as_str(), read.password.as_str()), ("alice", "secret"));
/// assert!(plain::parse(b"bob\0alice\0secret").is_err());
/// let huge = vec![0; plain::MAX_MESSAGE + 1];
/// assert!(matches!(plain::parse(&huge), Err(SaslError::TooLarge { .. })));
/// ```
pub fn parse(message: &[u8]) -> Result<PlainCredentials, SaslError> {
    SaslError::check_len(WHAT, message.len(), MAX_MESSAGE)?;
    let text = std::str::from_utf8(message).map_err(|_| malformed("not UTF-8".into()))?;
    // Three parts taken one by one: a message of NULs must not cost a slice
    // per NUL, so the parts after the third are not even counted.
    let mut parts = text.split('\0');
    let (Some(authzid), Some(username), Some(password), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(malformed("not 3 NUL-separated parts".into()));
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

/// What the errors call the message.
const WHAT: &str = "PLAIN message";

fn malformed(detail: String) -> SaslError {
    SaslError::Malformed { what: WHAT, detail }
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

    /// The attack of issue 29, scaled down: NULs up to the bound are refused as
    /// malformed (the parts past the third are never collected, which made
    /// 100 MiB of NULs cost 1.7 GiB), and one byte more is refused by its size.
    #[test]
    fn a_message_of_nuls_is_refused_and_an_oversized_one_unread() {
        let nuls = vec![0; MAX_MESSAGE];
        assert!(matches!(parse(&nuls), Err(SaslError::Malformed { .. })));
        let over = vec![0; MAX_MESSAGE + 1];
        assert_eq!(
            parse(&over),
            Err(SaslError::TooLarge {
                what: WHAT,
                len: MAX_MESSAGE + 1,
                max: MAX_MESSAGE
            })
        );
        // The size is checked before the text: not UTF-8, but too large first.
        let mut invalid = vec![0xff; 4 * 1024 * 1024];
        invalid[1] = 0;
        assert!(matches!(parse(&invalid), Err(SaslError::TooLarge { .. })));
    }

    #[test]
    fn a_message_at_the_bound_is_read_and_one_over_is_not_made() {
        let password = "p".repeat(MAX_MESSAGE - "\0alice\0".len());
        let at_bound = message("alice", &password).unwrap();
        assert_eq!(at_bound.len(), MAX_MESSAGE);
        assert_eq!(parse(&at_bound).unwrap().password, password);
        assert!(matches!(
            message("alice", &format!("{password}p")),
            Err(SaslError::TooLarge { .. })
        ));
    }
}
