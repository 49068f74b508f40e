//! `--sasl-users-file FILE`: SASL users stored as Kafka stores what
//! AlterUserScramCredentials sets, salted, so that no password is on disk.
//!
//! One user and mechanism a line, `NAME MECHANISM CREDENTIAL`, separated by
//! spaces or tabs: MECHANISM is `SCRAM-SHA-256` or `SCRAM-SHA-512`, CREDENTIAL
//! Kafka's text form of a stored credential
//! (`salt=<base64>,stored_key=<base64>,server_key=<base64>,iterations=<n>`, see
//! `kwire_net::sasl::ScramCredential::parse`). Empty lines and lines starting
//! with `#` are skipped. A user may have one line per mechanism, and logs in
//! with SCRAM only by the mechanisms it has a line for (PLAIN with any).
//! `kwire scram-credential NAME` makes a line.
//!
//! ```text
//! # NAME MECHANISM CREDENTIAL
//! alice SCRAM-SHA-512 salt=...,stored_key=...,server_key=...,iterations=4096
//! ```

use std::collections::HashMap;
use std::path::Path;

use kwire_net::sasl::{ScramCredential, ScramHash};

use crate::config::UsageError;

/// One line of the file: a user's credential for one mechanism.
#[derive(Debug)]
pub struct StoredUser {
    /// Where it is in the file, counting from 1.
    pub line: usize,
    /// The user name.
    pub name: String,
    /// The salted credential (its hash is the line's mechanism).
    pub credential: ScramCredential,
}

/// Reads and checks `path`; every failure names the file, and a bad line its
/// number and what is wrong with it.
pub fn read(path: &Path) -> Result<Vec<StoredUser>, UsageError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|error| UsageError::new(format!("--sasl-users-file {file}: {error}")))?;
    parse(&file, &text)
}

/// The users in `text`, the contents of `file` (named in errors). A file
/// without any user is refused: SASL with nobody to log in is a mistake.
pub fn parse(file: &str, text: &str) -> Result<Vec<StoredUser>, UsageError> {
    let mut users = Vec::new();
    // (name, mechanism) -> the line that gave it first.
    let mut seen: HashMap<(&str, ScramHash), usize> = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail =
            |why: String| UsageError::new(format!("--sasl-users-file {file} line {number}: {why}"));
        // The fields are not echoed in errors but for the name: the others
        // may be (or hold) a credential.
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [name, mechanism, credential] = fields[..] else {
            return Err(fail(format!(
                "{} fields; NAME MECHANISM CREDENTIAL expected",
                fields.len()
            )));
        };
        let hash = ScramHash::from_mechanism_name(mechanism).ok_or_else(|| {
            fail(format!(
                "mechanism {} is not SCRAM-SHA-256 or SCRAM-SHA-512",
                shown(mechanism)
            ))
        })?;
        let credential = ScramCredential::parse(hash, credential)
            .map_err(|error| fail(format!("{name} {mechanism}: {error}")))?;
        if let Some(first) = seen.insert((name, hash), number) {
            return Err(fail(format!(
                "a second {mechanism} line for {name} (the first is line {first})"
            )));
        }
        users.push(StoredUser {
            line: number,
            name: name.to_owned(),
            credential,
        });
    }
    if users.is_empty() {
        return Err(UsageError::new(format!(
            "--sasl-users-file {file}: no users (lines NAME MECHANISM CREDENTIAL)"
        )));
    }
    Ok(users)
}

/// A mechanism field as an error may show it: quoted if it looks like a
/// mechanism name, else only its length (it may be a misplaced credential).
fn shown(field: &str) -> String {
    let name_like = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if field.len() <= 20 && field.chars().all(name_like) {
        format!("{field:?}")
    } else {
        format!("({} characters, not shown)", field.chars().count())
    }
}

#[cfg(test)]
mod tests {
    use kwire_net::sasl::Credentials;

    use super::*;

    /// A line for `name`, `hash` and `password`.
    fn line(name: &str, hash: ScramHash, password: &str) -> String {
        let credential = ScramCredential::new(hash, password, 4096).unwrap();
        format!("{name} {} {credential}", hash.mechanism_name())
    }

    fn refused(text: &str) -> String {
        match parse("users.txt", text) {
            Err(error) => error.to_string(),
            Ok(users) => panic!("{text:?} read as {users:?}"),
        }
    }

    #[test]
    fn users_comments_and_blank_lines_are_read() {
        let text = format!(
            "# NAME MECHANISM CREDENTIAL\n\n{}\n  {}\t\r\n   # indented comment\n{}\n",
            line("alice", ScramHash::Sha512, "alice-secret"),
            line("alice", ScramHash::Sha256, "alice-secret"),
            line("bob", ScramHash::Sha512, "bob-secret"),
        );
        let users = parse("users.txt", &text).unwrap();
        let read: Vec<(usize, &str, ScramHash)> = users
            .iter()
            .map(|u| (u.line, u.name.as_str(), u.credential.hash()))
            .collect();
        assert_eq!(
            read,
            [
                (3, "alice", ScramHash::Sha512),
                (4, "alice", ScramHash::Sha256),
                (6, "bob", ScramHash::Sha512),
            ]
        );
        assert!(users[2].credential.matches_password("bob-secret"));
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let good = line("alice", ScramHash::Sha512, "alice-secret");
        let sha256 = ScramCredential::new(ScramHash::Sha256, "x", 4096)
            .unwrap()
            .to_string();
        let cases = [
            (
                format!("{good}\nbob SCRAM-SHA-512"),
                "line 2: 2 fields; NAME MECHANISM CREDENTIAL expected",
            ),
            (
                format!("{good} extra"),
                "line 1: 4 fields; NAME MECHANISM CREDENTIAL expected",
            ),
            (
                format!("# c\nbob PLAIN {sha256}"),
                "line 2: mechanism \"PLAIN\" is not SCRAM-SHA-256 or SCRAM-SHA-512",
            ),
            (
                format!("bob scram-sha-256 {sha256}"),
                "line 1: mechanism \"scram-sha-256\" is not SCRAM-SHA-256 or SCRAM-SHA-512",
            ),
            (
                format!("bob SCRAM-SHA-512 {sha256}"),
                "line 1: bob SCRAM-SHA-512: bad SCRAM credential: stored_key has 32 bytes, \
                 SCRAM-SHA-512 keys have 64",
            ),
            (
                format!(
                    "bob SCRAM-SHA-256 {}",
                    sha256.replace("iterations=4096", "iterations=100")
                ),
                "line 1: bob SCRAM-SHA-256: SCRAM iteration count 100 outside 4096..=16384",
            ),
            (
                "bob SCRAM-SHA-256 salt=AAAA".to_owned(),
                "line 1: bob SCRAM-SHA-256: bad SCRAM credential: \
                 stored_key, server_key, iterations missing",
            ),
            (
                format!("{good}\n\n{good}"),
                "line 3: a second SCRAM-SHA-512 line for alice (the first is line 1)",
            ),
            (
                "# only a comment\n\n".to_owned(),
                ": no users (lines NAME MECHANISM CREDENTIAL)",
            ),
        ];
        for (text, expected) in cases {
            let error = refused(&text);
            assert!(
                error.starts_with("--sasl-users-file users.txt") && error.ends_with(expected),
                "{text:?}: {error}"
            );
        }
        // A credential in the mechanism's place is not echoed.
        let error = refused(&format!("bob {sha256}"));
        assert!(!error.contains("salt="), "{error}");
        let error = refused(&format!("bob {sha256} SCRAM-SHA-256"));
        assert!(
            error.ends_with("not shown) is not SCRAM-SHA-256 or SCRAM-SHA-512"),
            "{error}"
        );
    }

    #[test]
    fn a_user_logs_in_only_by_the_mechanisms_it_has() {
        let users = parse("f", &line("carol", ScramHash::Sha512, "pw")).unwrap();
        let users = users
            .into_iter()
            .fold(kwire_net::sasl::Users::new(), |all, user| {
                all.with_credential(&user.name, user.credential)
            });
        assert!(users.scram(ScramHash::Sha512, "carol").is_some());
        assert!(users.scram(ScramHash::Sha256, "carol").is_none());
        assert!(users.plain("carol", "pw"));
        assert!(!users.plain("carol", "guess"));
    }

    #[test]
    fn a_missing_file_names_itself() {
        let error = read(Path::new("/nonexistent/users.txt")).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("--sasl-users-file /nonexistent/users.txt: "),
            "{error}"
        );
    }
}
