//! `kwire scram-credential`: a user's SCRAM credential, salted, as a line of the
//! broker's `--sasl-users-file`: `NAME MECHANISM CREDENTIAL`, CREDENTIAL in the
//! text form Kafka stores what AlterUserScramCredentials sets
//! (`salt=<base64>,stored_key=<base64>,server_key=<base64>,iterations=<n>`).
//!
//! The password is read from stdin (one line, its newline dropped), never from
//! the command line, where other users and the shell's history would see it;
//! the salt is fresh random bytes each run.

use std::io::{Read, Write};

use kwire_net::sasl::{ScramCredential, ScramHash};

use crate::cli::ScramCredentialArgs;
use crate::error::CliError;

/// The longest password taken: more is not a password typed or pasted (stdin is
/// read up to this and a line end, and one byte more to tell).
const MAX_PASSWORD_BYTES: usize = 4096;

/// Runs the command.
pub fn run(args: &ScramCredentialArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let mut input = Vec::new();
    std::io::stdin()
        .take(MAX_PASSWORD_BYTES as u64 + 3)
        .read_to_end(&mut input)
        .map_err(|e| CliError::new(format!("cannot read the password from stdin: {e}")))?;
    let line = users_file_line(args, &input)?;
    writeln!(out, "{line}").map_err(|e| CliError::new(format!("cannot write the output: {e}")))
}

/// The users-file line for `args` and the password in `input` (stdin's bytes).
fn users_file_line(args: &ScramCredentialArgs, input: &[u8]) -> Result<String, CliError> {
    let name = &args.name;
    // The broker splits a line at whitespace and skips lines starting with `#`.
    if name.is_empty() || name.chars().any(char::is_whitespace) {
        return Err(CliError::usage(format!(
            "NAME {name:?}: a users-file name has no spaces"
        )));
    }
    if name.starts_with('#') {
        return Err(CliError::usage(format!(
            "NAME {name:?}: a users-file line starting with # is a comment"
        )));
    }
    let hash = ScramHash::from_mechanism_name(&args.mechanism).ok_or_else(|| {
        CliError::usage(format!(
            "--mechanism {}: not SCRAM-SHA-256 or SCRAM-SHA-512",
            args.mechanism
        ))
    })?;
    let password = password(input)?;
    let credential =
        ScramCredential::new(hash, password, args.iterations).map_err(|error| match error {
            kwire_net::sasl::SaslError::Iterations { .. } => {
                CliError::usage(format!("--iterations: {error}"))
            }
            other => CliError::from_error("cannot make the credential", &other),
        })?;
    Ok(format!("{name} {} {credential}", hash.mechanism_name()))
}

/// The password in stdin's bytes: one line of UTF-8, not empty, its line end
/// (`\n` or `\r\n`) dropped.
fn password(input: &[u8]) -> Result<&str, CliError> {
    let text = std::str::from_utf8(input)
        .map_err(|_| CliError::new("the password on stdin is not UTF-8"))?;
    let text = text.strip_suffix('\n').unwrap_or(text);
    let text = text.strip_suffix('\r').unwrap_or(text);
    if text.contains(['\n', '\r']) {
        return Err(CliError::new(
            "stdin holds more than one line: the password is one line",
        ));
    }
    if text.is_empty() {
        return Err(CliError::new("no password on stdin"));
    }
    if text.len() > MAX_PASSWORD_BYTES {
        return Err(CliError::new(format!(
            "the password on stdin is over {MAX_PASSWORD_BYTES} bytes"
        )));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_is_one_line_without_its_end() {
        assert_eq!(password(b"secret\n").unwrap(), "secret");
        assert_eq!(password(b"secret\r\n").unwrap(), "secret");
        assert_eq!(password(b"secret").unwrap(), "secret");
        assert_eq!(password(b" spaced out ").unwrap(), " spaced out ");
        assert_eq!(password("pässwörd\n".as_bytes()).unwrap(), "pässwörd");
        for bad in [
            &b""[..],
            b"\n",
            b"\r\n",
            b"one\ntwo\n",
            b"one\n\n",
            b"\xff\n",
        ] {
            assert!(password(bad).is_err(), "{bad:?}");
        }
        let long = vec![b'x'; MAX_PASSWORD_BYTES + 1];
        assert!(password(&long).is_err());
        let mut longest = vec![b'x'; MAX_PASSWORD_BYTES];
        longest.push(b'\n');
        assert_eq!(password(&longest).unwrap().len(), MAX_PASSWORD_BYTES);
    }
}
