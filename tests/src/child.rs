//! A helper program (the Java judges) run as a child spoken to over pipes: its
//! stdin and stdout ours, its stderr the log's, so that its exceptions show.

use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Why the child could not be started with its pipes.
#[derive(Debug, thiserror::Error)]
#[error("cannot start {command}: {source}")]
pub struct SpawnError {
    /// The command line, as given.
    pub command: String,
    /// What the operating system said.
    pub source: std::io::Error,
}

/// Starts `command` (program, then arguments) with piped stdin and stdout.
pub fn spawn_piped(command: &[String]) -> Result<(Child, ChildStdin, ChildStdout), SpawnError> {
    let failed = |source| SpawnError {
        command: command.join(" "),
        source,
    };
    let (program, args) = command
        .split_first()
        .ok_or_else(|| failed(std::io::Error::other("no command given")))?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(failed)?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        // Both were asked for as pipes; stop the child rather than leave it waiting.
        let _ = child.kill();
        let _ = child.wait();
        return Err(failed(std::io::Error::other("no pipes")));
    };
    Ok((child, stdin, stdout))
}
