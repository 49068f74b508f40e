//! The command line, as clap reads it: one struct per command, the options they
//! share written once.

use clap::{Args, Parser, Subcommand};

/// Kafka's wire protocol at a terminal: dissect, decode and encode frames and
/// bodies, ask a broker its API versions, print message schemas, make SCRAM
/// credentials for kwire-broker.
#[derive(Debug, Parser)]
#[command(name = "kwire", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Annotate every byte of a request frame, a response frame or a bare body.
    ///
    /// Without --api the input is a request frame (with its 4-byte length prefix or
    /// without it); its header names the API and version. With --api and --version
    /// it is a bare body, or with --frame a frame (a response frame always needs
    /// --response --api --version: its header names neither).
    #[command(after_help = DISSECT_EXAMPLES)]
    Dissect(ReadArgs),
    /// Print a frame or body in Kafka's JSON form.
    ///
    /// A frame prints as {"header": {...}, "body": {...}}, a bare body as the body
    /// object. Inputs as for `dissect`.
    #[command(after_help = DECODE_EXAMPLES)]
    Decode(DecodeArgs),
    /// Write a body (or with --frame a whole frame) from Kafka's JSON form.
    ///
    /// With --frame the JSON is {"header": {...}, "body": {...}}; for a request
    /// frame, --api and --version may then be left out and are taken from the
    /// header.
    #[command(after_help = ENCODE_EXAMPLES)]
    Encode(EncodeArgs),
    /// Negotiate API versions with a live broker and print the table.
    Versions(VersionsArgs),
    /// Print the fields of a message: at one version, or every field's versions;
    /// with --json, as Kafka's JSON schema file.
    #[command(after_help = SCHEMA_EXAMPLES)]
    Schema(SchemaArgs),
    /// Salt a password read from stdin into a SCRAM credential, printed as a
    /// line of kwire-broker's --sasl-users-file.
    ///
    /// The line is `NAME MECHANISM CREDENTIAL`, CREDENTIAL in the text form Kafka
    /// stores SCRAM credentials in:
    /// `salt=<base64>,stored_key=<base64>,server_key=<base64>,iterations=<n>`. The
    /// password is stdin, one line (its line end dropped); the salt is random,
    /// so each run prints another line for the same password.
    #[command(after_help = SCRAM_CREDENTIAL_EXAMPLES)]
    ScramCredential(ScramCredentialArgs),
    /// Check that newer Kafka JSON schemas keep the bytes of older, released ones.
    ///
    /// OLD and NEW are two schema files (compared as one message, whatever their
    /// names) or two folders of them (matched by name, then by API key). Every
    /// version both accept must read and write the same bytes; each change that
    /// alters them is one line, then the messages only NEW has, then a count by
    /// rule. Renames keep the bytes and are listed without failing. Exit status:
    /// 0 when nothing breaks the wire, 1 when something does, 2 when a schema
    /// does not read.
    #[command(after_help = COMPAT_EXAMPLES)]
    Compat(CompatArgs),
}

pub(crate) const COMPAT_EXAMPLES: &str = "\
Rules: message-removed, message-renamed, kind-changed, api-key-changed,
  version-removed, flexibility-changed, field-removed, field-added, field-renamed,
  field-moved, type-changed, nullability-changed, tagging-changed, tag-changed,
  default-changed, field-flexibility-changed

Examples:
  kwire schema --json HoldSeatsRequest > released/HoldSeatsRequest.json
  kwire compat released/HoldSeatsRequest.json HoldSeatsRequest.json
  kwire compat --allow version-removed kafka-3.9/message kafka-4.0/message";

const SCRAM_CREDENTIAL_EXAMPLES: &str = "\
Examples:
  read -rs PASSWORD && printf '%s\\n' \"$PASSWORD\" | kwire scram-credential alice >> users.txt
  kwire scram-credential --mechanism SCRAM-SHA-256 --iterations 8192 alice < password.txt
  kwire-broker --sasl-users-file users.txt";

const SCHEMA_EXAMPLES: &str = "\
Examples:
  kwire schema InitProducerIdRequest
  kwire schema ApiVersionsResponse --version 3
  kwire schema --json InitProducerIdRequest > schemas/InitProducerIdRequest.json";

const DISSECT_EXAMPLES: &str = "\
Examples:
  kwire dissect 000000260016000400000002000b6b702d70726f6475636572000000000000ffffffffffffffffffff00
  kwire dissect --api ApiVersions --version 3 '036b77 0231 00'
  kwire dissect --response --frame --api ApiVersions --version 3 frame.hex
  xxd -p frame.bin | kwire dissect -";

const DECODE_EXAMPLES: &str = "\
Examples:
  kwire decode 000000260016000400000002000b6b702d70726f6475636572000000000000ffffffffffffffffffff00
  kwire decode --compact --api 22 --version 4 0000000000ffffffffffffffffffff00";

const ENCODE_EXAMPLES: &str = "\
Examples:
  kwire encode --api InitProducerId --version 4 \\
    '{\"transactionalId\": null, \"transactionTimeoutMs\": 0, \"producerId\": -1, \"producerEpoch\": -1}'
  kwire decode FRAME | kwire encode --frame -";

/// Which message the input is.
#[derive(Debug, Args)]
pub struct MessageArgs {
    /// The API, by name as the API table spells it (InitProducerId) or by key (22).
    #[arg(long, value_name = "NAME")]
    pub api: Option<String>,
    /// The message version.
    #[arg(long, value_name = "V", allow_negative_numbers = true)]
    pub version: Option<i16>,
    /// The message is a response (a request when left out).
    #[arg(long)]
    pub response: bool,
    /// A whole frame: length prefix, header and body (read with or without the
    /// prefix).
    #[arg(long)]
    pub frame: bool,
}

/// The arguments of `dissect`.
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// Hex (spaces, newlines and 0x allowed), a file of hex or raw bytes, or - for
    /// stdin.
    #[arg(value_name = "HEX|FILE|-")]
    pub input: String,
    /// Which message the input is.
    #[command(flatten)]
    pub message: MessageArgs,
}

/// The arguments of `decode`.
#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The input and which message it is, as for `dissect`.
    #[command(flatten)]
    pub read: ReadArgs,
    /// Print the JSON on one line.
    #[arg(long)]
    pub compact: bool,
}

/// The arguments of `encode`.
#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// JSON text, a file of JSON, or - for stdin.
    #[arg(value_name = "JSON|FILE|-")]
    pub input: String,
    /// Which message the JSON is.
    #[command(flatten)]
    pub message: MessageArgs,
    /// Write the raw bytes instead of hex.
    #[arg(long)]
    pub raw: bool,
}

/// The arguments of `versions`.
#[derive(Debug, Args)]
pub struct VersionsArgs {
    /// The broker's address.
    #[arg(value_name = "HOST:PORT")]
    pub address: String,
    /// Seconds to wait for the connection and for each answer.
    #[arg(long, value_name = "SECONDS", default_value_t = 5)]
    pub timeout: u64,
}

/// The arguments of `schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The message: FetchRequest, InitProducerIdResponse, RequestHeader, ...
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Show the fields at this version only.
    #[arg(long, value_name = "V", allow_negative_numbers = true)]
    pub version: Option<i16>,
    /// Print the message as Kafka's JSON schema file instead of a table, ready to
    /// commit as NAME.json (every version: a schema file has them all).
    #[arg(long, conflicts_with = "version")]
    pub json: bool,
}

/// The arguments of `scram-credential`.
#[derive(Debug, Args)]
pub struct ScramCredentialArgs {
    /// The user name (no spaces, not starting with #: the file splits at
    /// whitespace, and # starts a comment).
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The mechanism the credential is for.
    #[arg(
        long,
        value_name = "MECHANISM",
        default_value = "SCRAM-SHA-512",
        value_parser = ["SCRAM-SHA-256", "SCRAM-SHA-512"]
    )]
    pub mechanism: String,
    /// PBKDF2 iterations, within Kafka's bounds (4096 to 16384).
    #[arg(long, value_name = "N", default_value_t = 4096)]
    pub iterations: u32,
}

/// The arguments of `compat`.
#[derive(Debug, Args)]
pub struct CompatArgs {
    /// The older, released schema: a JSON file or a folder of them.
    #[arg(value_name = "OLD")]
    pub old: std::path::PathBuf,
    /// The newer schema: a JSON file or a folder of them.
    #[arg(value_name = "NEW")]
    pub new: std::path::PathBuf,
    /// Do not fail on findings of this rule (repeatable), e.g. version-removed
    /// when dropping old versions is intended.
    #[arg(long, value_name = "RULE")]
    pub allow: Vec<String>,
}
