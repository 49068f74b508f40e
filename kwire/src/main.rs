//! `kwire`: Kafka's wire protocol at a terminal.
//!
//! ```text
//! kwire dissect <HEX|FILE|->                               a request frame, every byte annotated
//! kwire dissect --api NAME --version V [--response] <..>   a bare body
//! kwire dissect --response --frame --api NAME --version V  a response frame
//! kwire decode  <same inputs> [--compact]                  Kafka's JSON form
//! kwire encode  --api NAME --version V [--response] <JSON|FILE|-> [--raw]
//! kwire encode  --frame [--api NAME --version V] <JSON>    a whole frame from {"header", "body"}
//! kwire versions HOST:PORT [--timeout SECONDS]             negotiate with a live broker
//! kwire schema  NAME [--version V]                         a message's fields
//! kwire schema  --json NAME                                its Kafka JSON schema file
//! kwire scram-credential [--mechanism M] [--iterations N] NAME   a users-file line
//! kwire compat  OLD NEW [--allow RULE]...                   does NEW keep OLD's bytes?
//! ```
//!
//! `compat` compares two Kafka JSON schema files, or two folders of them, older
//! (released) first; its status is 0 when nothing breaks a released version's
//! bytes, 1 when something does, 2 when a schema does not read.
//!
//! `scram-credential` reads the password from stdin and prints
//! `NAME MECHANISM CREDENTIAL` for kwire-broker's `--sasl-users-file`, the
//! credential salted as Kafka stores it.
//!
//! Run it from the workspace with
//! `cargo install --path kwire`, then `kwire <command>` (or `cargo run -p kwire-cli -- <command>`).
//!
//! Bytes are given as hex (spaces, newlines and `0x` allowed), as a file holding hex
//! or raw bytes, or as `-` for stdin. A frame may come with its 4-byte length prefix
//! or without it. `NAME` is an API as the API table names it (`InitProducerId`) or
//! its key (`22`). Every failure is one line on stderr and a non-zero exit status:
//! 1 for bad input, undecodable bytes or an unreachable broker, 2 for options that
//! do not go together.

mod cli;
mod compat;
mod decode;
mod dissect;
mod encode;
mod error;
mod hex;
mod input;
mod layout;
mod lines;
mod names;
mod read;
mod records;
mod render;
mod schema;
mod scram_credential;
mod target;
mod versions;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};
use crate::error::CliError;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage(&error),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = run(cli.command, &mut out);
    // Output comes before the error, so a failed dissection shows what it read.
    let flushed = out.flush();
    match result
        .and_then(|()| flushed.map_err(|e| CliError::new(format!("cannot write the output: {e}"))))
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("kwire: {error}");
            ExitCode::from(error.status())
        }
    }
}

fn run(command: Command, out: &mut dyn Write) -> Result<(), CliError> {
    match command {
        Command::Dissect(args) => dissect::run(&args, out),
        Command::Decode(args) => decode::run(&args, out),
        Command::Encode(args) => encode::run(&args, out),
        Command::Versions(args) => versions::run(&args, out),
        Command::Schema(args) => schema::run(&args, out),
        Command::ScramCredential(args) => scram_credential::run(&args, out),
        Command::Compat(args) => compat::run(&args, out),
    }
}

/// Help and version go to stdout as clap writes them; a command line clap refuses
/// is one line on stderr, like every other error.
fn usage(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // Printing help can only fail on a closed stdout, where nothing is to be done.
        let _ = error.print();
        return if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    // clap's first paragraph says what is wrong (over two lines for a missing
    // argument); the usage and tips after it are for --help.
    let rendered = error.render().to_string();
    let paragraph: Vec<&str> = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let message = paragraph.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    eprintln!("kwire: {message} (see kwire --help)");
    ExitCode::from(2)
}
