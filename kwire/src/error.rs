//! The one error type of kwire: what went wrong, said on one line of stderr, and
//! the exit status that goes with it.

use std::fmt;

/// A failure of a command: a message for one line and an exit status.
#[derive(Debug)]
pub struct CliError {
    message: String,
    status: u8,
}

/// The status of a run that failed on its input, its network or its decoding.
const FAILURE: u8 = 1;
/// The status of a command line that does not make sense (clap's convention).
const USAGE: u8 = 2;

impl CliError {
    /// A failure on the input: bad hex, unknown API, undecodable bytes, bad JSON.
    pub fn new(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            status: FAILURE,
        }
    }

    /// A command line whose options do not go together.
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            status: USAGE,
        }
    }

    /// A failure with a status of its own, for a command whose statuses say more
    /// than failed or not (`compat`: 1 breaks the wire, 2 cannot tell).
    pub fn with_status(message: impl Into<String>, status: u8) -> Self {
        CliError {
            message: message.into(),
            status,
        }
    }

    /// An error from a library, with every cause in its `source()` chain, after
    /// `context` (what kwire was doing).
    pub fn from_error(context: &str, error: &dyn std::error::Error) -> Self {
        let mut message = format!("{context}: {error}");
        let mut source = error.source();
        while let Some(cause) = source {
            // The crates say each fact once across the chain, so joining repeats nothing.
            message.push_str(": ");
            message.push_str(&cause.to_string());
            source = cause.source();
        }
        CliError::new(message)
    }

    /// The exit status.
    pub fn status(&self) -> u8 {
        self.status
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line whatever the message holds: scripts read stderr line by line.
        for part in self
            .message
            .split(['\n', '\r'])
            .filter(|p| !p.is_empty())
            .enumerate()
        {
            if part.0 > 0 {
                f.write_str(" ")?;
            }
            f.write_str(part.1.trim())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_print_on_one_line() {
        let error = CliError::new("first\n  second\r\nthird");
        assert_eq!(error.to_string(), "first second third");
        assert_eq!(CliError::new("a  b").to_string(), "a  b");
    }
}
