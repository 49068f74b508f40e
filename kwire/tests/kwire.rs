//! `kwire` run as a user runs it: the built binary spawned with arguments and
//! stdin, and its exit status, stdout and stderr compared with golden transcripts
//! in `tests/kwire/` (one `.txt` per test, each run shown as `$ kwire ...`, then
//! its status and output).
//!
//! ```text
//! cargo test -p kwire-cli --test kwire
//! ```
//!
//! After a deliberate change of output, rewrite the transcripts and review the diff
//! before committing it:
//!
//! ```text
//! KWIRE_BLESS=1 cargo test -p kwire-cli --test kwire
//! ```
//!
//! The `versions` tests answer kwire from small TCP servers inside the test (std
//! only), which stop when kwire closes its connection. The vector test reads
//! Kafka's byte vectors from `KAFKA_VECTORS_DIR` (default `../shared/kafka/vectors`
//! beside the workspace), as the workspace's other tests do.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use bytes::Bytes;
use kwire::schema::MessageSchema;
use kwire::Message;
use kwire_messages::api::api_versions::ApiVersion;
use kwire_messages::frame::RequestFrame;
use kwire_messages::Listener;
use kwire_messages::{
    api::ApiVersionsResponse, api::InitProducerIdRequest, frame, RequestHeader, ResponseHeader,
};
use kwire_net::blocking::FrameReader;
use kwire_net::negotiation::answer_api_versions;
use kwire_net::sasl::{ScramCredential, ScramHash};

/// kafka-python 3.0.12's InitProducerId v4 request frame (issue 12's acceptance).
const INIT_PRODUCER_ID: &str =
    "000000260016000400000002000b6b702d70726f6475636572000000000000ffffffffffffffffffff00";

/// An ApiVersionsRequest v3 body with an unknown tag 7 (`hi`) and two bytes after it.
const UNKNOWN_TAG_AND_TRAILING: &str = "036b77 0231 01 07 02 6869 abcd";

/// librdkafka 2.16.0's MetadataRequest v12, three bytes longer than its body, as
/// captured (the file holds hex), relative to this package.
const CAPTURED_TRAILING: &str =
    "../tests/fixtures/captured/librdkafka-2.16.0-metadata_request_v12_trailing.hex";

// ---------------------------------------------------------------------------
// Running kwire

/// One run of kwire: what was asked and what came back.
struct Run {
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    status: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
}

fn kwire(args: &[&str]) -> Run {
    spawn(args, None)
}

fn kwire_stdin(args: &[&str], stdin: &[u8]) -> Run {
    spawn(args, Some(stdin))
}

fn spawn(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kwire"))
        .args(args)
        // Relative paths in the transcripts are relative to this package.
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kwire binary runs");
    // Written from a thread, so that a large input cannot block on a full stdout.
    let writer = match (stdin, child.stdin.take()) {
        (Some(input), Some(mut pipe)) => {
            let input = input.to_vec();
            Some(thread::spawn(move || {
                let _ = pipe.write_all(&input);
            }))
        }
        _ => None,
    };
    let output = child.wait_with_output().expect("kwire finishes");
    if let Some(writer) = writer {
        writer.join().expect("the stdin writer finishes");
    }
    Run {
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        stdin: stdin.map(<[u8]>::to_vec),
        status: output.status.code(),
        stdout: output.stdout,
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

impl Run {
    fn stdout(&self) -> &str {
        std::str::from_utf8(&self.stdout).expect("stdout is UTF-8")
    }

    fn command(&self) -> String {
        let mut line = String::from("$ ");
        if let Some(stdin) = &self.stdin {
            let shown = String::from_utf8_lossy(stdin);
            line.push_str(&format!("printf %s {} | ", quote(shown.trim_end())));
        }
        line.push_str("kwire");
        for arg in &self.args {
            line.push(' ');
            line.push_str(&quote(arg));
        }
        line
    }

    /// The run as it reads in a golden file.
    fn transcript(&self) -> String {
        let status = self
            .status
            .map_or("killed by a signal".to_owned(), |s| s.to_string());
        let mut text = format!("{}\nstatus: {status}\n", self.command());
        for (name, output) in [("stdout", self.stdout()), ("stderr", &self.stderr)] {
            if !output.is_empty() {
                text.push_str(&format!("--- {name}\n{output}"));
                if !output.ends_with('\n') {
                    text.push_str("\n(no newline at the end)\n");
                }
            }
        }
        text
    }

    /// Exit status 0, and nothing on stderr but notes (`kwire: note: ...`).
    fn succeeds(&self) -> &Self {
        assert_eq!(self.status, Some(0), "{}", self.transcript());
        assert!(
            self.stderr
                .lines()
                .all(|line| line.starts_with("kwire: note: ")),
            "{}",
            self.transcript()
        );
        self
    }

    /// Failed as every failure must: a non-zero status (not a crash) and one line on
    /// stderr, `kwire: ...`.
    fn fails(&self) -> &Self {
        assert!(
            matches!(self.status, Some(1 | 2)),
            "expected status 1 or 2:\n{}",
            self.transcript()
        );
        assert_eq!(
            self.stderr.lines().count(),
            1,
            "expected one line on stderr:\n{}",
            self.transcript()
        );
        assert!(self.stderr.starts_with("kwire: "), "{}", self.transcript());
        assert!(!self.stderr.contains("panicked"), "{}", self.transcript());
        self
    }
}

/// An argument as a shell would need it.
fn quote(arg: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=+,".contains(c);
    if !arg.is_empty() && arg.chars().all(plain) {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

// ---------------------------------------------------------------------------
// Golden transcripts

/// Compares the runs' transcripts with `tests/kwire/<name>.txt`, or writes it
/// under `KWIRE_BLESS=1`.
fn golden(name: &str, runs: &[&Run]) {
    let transcript: Vec<String> = runs.iter().map(|run| run.transcript()).collect();
    golden_text(name, &transcript.join("\n"));
}

fn golden_text(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/kwire")
        .join(format!("{name}.txt"));
    if std::env::var_os("KWIRE_BLESS").is_some() {
        std::fs::write(&path, actual).expect("the golden file is written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; run with KWIRE_BLESS=1 to write it",
            path.display()
        )
    });
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from this run at line {}:\n  expected: {:?}\n  actual:   {:?}\n\
             the whole run:\n{actual}\n(rerun with KWIRE_BLESS=1 if the change is intended)",
            path.display(),
            first + 1,
            expected.lines().nth(first).unwrap_or("(end)"),
            actual.lines().nth(first).unwrap_or("(end)"),
        );
    }
}

// ---------------------------------------------------------------------------
// Reading dissect's table back

/// The rows of a dissection: each row's offset, its bytes and its text. Reads the
/// columns where the heading row puts them.
fn rows(stdout: &str) -> Vec<(usize, Vec<u8>, String)> {
    let mut lines = stdout
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("offset"));
    let heading = lines.next().expect("a heading row");
    let hex_at = heading.find("bytes").expect("a bytes column");
    let text_at = heading.find("field").expect("a field column");
    lines
        .map(|line| {
            let offset = line[..hex_at].trim().parse().expect("an offset");
            let hex_end = text_at.min(line.len());
            let bytes = line[hex_at..hex_end]
                .split_whitespace()
                .map(|pair| u8::from_str_radix(pair, 16).expect("a hex pair"))
                .collect();
            let text = line.get(text_at..).unwrap_or_default().to_owned();
            (offset, bytes, text)
        })
        .collect()
}

/// Checks that the rows show every byte of `input` once, in order.
fn assert_every_byte_shown(stdout: &str, input: &[u8]) {
    let mut next = 0;
    for (offset, bytes, text) in rows(stdout) {
        assert_eq!(offset, next, "row {text:?} starts out of place:\n{stdout}");
        next += bytes.len();
        assert_eq!(
            input.get(offset..next),
            Some(&bytes[..]),
            "row {text:?} shows other bytes than the input's:\n{stdout}"
        );
    }
    assert_eq!(next, input.len(), "bytes left unshown:\n{stdout}");
}

fn unhex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> = text
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| (b as char).to_digit(16).expect("hex") as u8)
        .collect();
    digits.chunks(2).map(|p| (p[0] << 4) | p[1]).collect()
}

/// The JSON paths of every field `schema` has at `version`, outside the tagged
/// section, under `prefix`; nested structs are not entered.
fn top_level_paths(schema: &MessageSchema, version: i16, prefix: &str) -> Vec<String> {
    schema
        .body
        .fields
        .iter()
        .filter(|f| f.versions.contains(version) && !f.is_tagged_at(version))
        .map(|f| {
            let mut name = f.name.to_owned();
            name[..1].make_ascii_lowercase();
            format!("{prefix}{name}")
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The acceptance frame

#[test]
fn acceptance_dissect_names_every_field_and_shows_every_byte() {
    let run = kwire(&["dissect", INIT_PRODUCER_ID]);
    run.succeeds();
    assert_every_byte_shown(run.stdout(), &unhex(INIT_PRODUCER_ID));
    let texts: Vec<String> = rows(run.stdout()).into_iter().map(|r| r.2).collect();
    let header = top_level_paths(&RequestHeader::SCHEMA, 2, "header.");
    let body = top_level_paths(&InitProducerIdRequest::SCHEMA, 4, "body.");
    assert_eq!(header.len() + body.len(), 8);
    for path in header.iter().chain(&body) {
        assert!(
            texts.iter().any(|t| t.starts_with(&format!("{path} = "))),
            "{path} is not named:\n{}",
            run.stdout()
        );
    }
    golden("acceptance_dissect", &[&run]);
}

#[test]
fn acceptance_decode_prints_kafkas_json_form() {
    let run = kwire(&["decode", INIT_PRODUCER_ID]);
    run.succeeds();
    let json: serde_json::Value = serde_json::from_str(run.stdout()).expect("JSON");
    assert_eq!(json["header"]["clientId"], "kp-producer");
    assert_eq!(json["body"]["producerId"], -1);
    assert_eq!(json["body"]["transactionTimeoutMs"], 0);
    let compact = kwire(&["decode", "--compact", INIT_PRODUCER_ID]);
    compact.succeeds();
    assert_eq!(compact.stdout().lines().count(), 1);
    golden("acceptance_decode", &[&run, &compact]);
}

#[test]
fn acceptance_encode_gives_the_frame_back() {
    let decoded = kwire(&["decode", INIT_PRODUCER_ID]);
    decoded.succeeds();
    // The header names the API and version, so a request frame needs no options.
    let from_stdin = kwire_stdin(&["encode", "--frame", "-"], &decoded.stdout);
    from_stdin.succeeds();
    assert_eq!(from_stdin.stdout(), format!("{INIT_PRODUCER_ID}\n"));
    let json = serde_json::from_slice::<serde_json::Value>(&decoded.stdout)
        .expect("JSON")
        .to_string();
    let named = kwire(&[
        "encode",
        "--frame",
        "--api",
        "InitProducerId",
        "--version",
        "4",
        &json,
    ]);
    named.succeeds();
    assert_eq!(named.stdout(), from_stdin.stdout());
    let raw = kwire(&["encode", "--frame", "--raw", &json]);
    raw.succeeds();
    assert_eq!(raw.stdout, unhex(INIT_PRODUCER_ID));
    golden("acceptance_encode", &[&from_stdin, &named]);
}

// ---------------------------------------------------------------------------
// dissect

#[test]
fn dissect_reads_a_frame_without_its_length_prefix_and_says_so() {
    let contents = &INIT_PRODUCER_ID[8..];
    let run = kwire(&["dissect", contents]);
    run.succeeds();
    assert!(
        run.stdout().contains("no length prefix"),
        "{}",
        run.stdout()
    );
    assert_every_byte_shown(run.stdout(), &unhex(contents));
    golden("dissect_no_prefix", &[&run]);
}

#[test]
fn dissect_shows_unknown_tags_and_trailing_bytes() {
    let run = kwire(&[
        "dissect",
        "--api",
        "ApiVersions",
        "--version",
        "3",
        UNKNOWN_TAG_AND_TRAILING,
    ]);
    // Shown, then refused: a message must end where its bytes end.
    run.fails();
    assert_every_byte_shown(run.stdout(), &unhex(UNKNOWN_TAG_AND_TRAILING));
    assert!(run.stdout().contains("tag 7 (unknown), 2 bytes"));
    assert!(run.stdout().contains("trailing: 2 bytes after the message"));
    assert!(run
        .stderr
        .contains("2 bytes left over after the message at byte 10"));
    // Without the trailing bytes the unknown tag is kept, and the body decodes.
    let tag_only = &UNKNOWN_TAG_AND_TRAILING[..UNKNOWN_TAG_AND_TRAILING.len() - 5];
    let kept = kwire(&["dissect", "--api", "18", "--version", "3", tag_only]);
    kept.succeeds();
    golden("dissect_unknown_tag_and_trailing", &[&run, &kept]);
}

#[test]
fn dissect_reads_a_captured_file_with_trailing_bytes() {
    let run = kwire(&["dissect", CAPTURED_TRAILING]);
    run.fails();
    assert!(run.stdout().contains("trailing: 3 bytes after the message"));
    let hex =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(CAPTURED_TRAILING))
            .expect("the captured frame");
    assert_every_byte_shown(run.stdout(), &unhex(&hex));
    golden("dissect_captured_trailing", &[&run]);
}

#[test]
fn dissect_shows_record_batches_in_a_captured_produce_request() {
    // kafka-python's idempotent ProduceRequest v8: one batch of five records.
    let path =
        "../tests/fixtures/records/frames/kafka-python-3.0.12-none-idempotent-produce_request_v8.hex";
    let run = kwire(&["dissect", path]);
    run.succeeds();
    assert!(run.stdout().contains(
        "records batch 0 = base offset 0, 5 records, none, producer 1000 epoch 0 sequence 0, CRC ok"
    ));
    let hex = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("the captured frame");
    assert_every_byte_shown(run.stdout(), &unhex(&hex));
    golden("dissect_produce_records", &[&run]);
}

#[test]
fn dissect_walks_nested_structs_and_known_tagged_fields() {
    // An ApiVersionsResponse v3 with supported features (tag 0), a finalized
    // features epoch (tag 1) and zkMigrationReady (tag 3), framed with header v0.
    let json = r#"{"header": {"correlationId": 7}, "body": {"errorCode": 0,
        "apiKeys": [{"apiKey": 18, "minVersion": 0, "maxVersion": 4}],
        "throttleTimeMs": 0,
        "supportedFeatures": [{"name": "metadata.version", "minVersion": 1, "maxVersion": 20}],
        "finalizedFeaturesEpoch": 5, "finalizedFeatures": [], "zkMigrationReady": true}}"#;
    let options = [
        "--response",
        "--frame",
        "--api",
        "ApiVersions",
        "--version",
        "3",
    ];
    let encoded = kwire(&[&["encode"][..], &options, &[json]].concat());
    encoded.succeeds();
    let hex = encoded.stdout().trim();
    let run = kwire(&[&["dissect"][..], &options, &[hex]].concat());
    run.succeeds();
    assert_every_byte_shown(run.stdout(), &unhex(hex));
    assert!(run.stdout().contains("response header v0"));
    let decoded = kwire(&[&["decode"][..], &options, &[hex]].concat());
    decoded.succeeds();
    let mut expected: serde_json::Value = serde_json::from_str(json).expect("JSON");
    // finalizedFeatures (tag 2) holds its default, empty: written back without
    // it, as Kafka's converter writes it.
    expected["body"]
        .as_object_mut()
        .expect("body")
        .remove("finalizedFeatures");
    let actual: serde_json::Value = serde_json::from_str(decoded.stdout()).expect("JSON");
    assert_eq!(actual, expected);
    golden("dissect_response_frame", &[&encoded, &run, &decoded]);
}

#[test]
fn dissect_points_at_the_byte_where_decoding_stops() {
    // InitProducerId v4 cut inside producerId.
    let cut = "0016000400000002000b6b702d70726f6475636572000000000000ffffff";
    let run = kwire(&["dissect", cut]);
    run.fails();
    assert!(run
        .stdout()
        .contains("^ decoding stops here, 3 bytes unread"));
    assert!(run.stderr.contains("at byte 27"), "{}", run.stderr);
    // A string claiming more bytes than there are, in a body.
    let short = kwire(&[
        "dissect",
        "--api",
        "ApiVersions",
        "--version",
        "3",
        "09 6b77",
    ]);
    short.fails();
    golden("dissect_decode_errors", &[&run, &short]);
}

#[test]
fn dissect_reads_stdin_as_hex_or_raw_bytes() {
    let hex = kwire_stdin(
        &["dissect", "-"],
        format!("0x{INIT_PRODUCER_ID}\n").as_bytes(),
    );
    hex.succeeds();
    let raw = kwire_stdin(&["dissect", "-"], &unhex(INIT_PRODUCER_ID));
    raw.succeeds();
    let argument = kwire(&["dissect", INIT_PRODUCER_ID]);
    assert_eq!(hex.stdout, argument.stdout);
    assert_eq!(raw.stdout, argument.stdout);
    // A file of raw bytes reads as the same frame.
    let path = std::env::temp_dir().join(format!("kwire-test-{}.bin", std::process::id()));
    std::fs::write(&path, unhex(INIT_PRODUCER_ID)).expect("a temporary file");
    let file = kwire(&["dissect", path.to_str().expect("a UTF-8 path")]);
    std::fs::remove_file(&path).expect("the temporary file is removed");
    file.succeeds();
    assert_eq!(file.stdout, argument.stdout);
}

/// Kafka's own vectors, every feature of the schema language among them: each
/// body dissects with every byte shown, exactly where the library decodes it.
#[test]
fn dissect_shows_every_byte_of_kafkas_vectors() {
    let dir = vectors_dir();
    let mut checked = 0;
    for folder in sorted_entries(&dir) {
        for file in sorted_entries(&folder) {
            let text = std::fs::read_to_string(&file).expect("a vector file");
            let json: serde_json::Value = serde_json::from_str(&text).expect("vector JSON");
            for vector in json["vectors"].as_array().into_iter().flatten() {
                let side = vector["direction"].as_str().unwrap_or_default();
                if side != "request" && side != "response" {
                    continue;
                }
                let key = vector["api_key"].to_string();
                let version = vector["version"].to_string();
                let hex = vector["hex"].as_str().expect("hex");
                let mut args = vec!["dissect", "--api", &key, "--version", &version, hex];
                if side == "response" {
                    args.push("--response");
                }
                let run = kwire(&args);
                assert_eq!(
                    run.status,
                    Some(0),
                    "{} {}: {}",
                    file.display(),
                    vector["name"],
                    run.transcript()
                );
                assert_every_byte_shown(run.stdout(), &unhex(hex));
                checked += 1;
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} vectors found in {}",
        dir.display()
    );
}

fn vectors_dir() -> PathBuf {
    let dir = std::env::var_os("KAFKA_VECTORS_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/kafka/vectors"),
        PathBuf::from,
    );
    assert!(
        dir.is_dir(),
        "Kafka's vectors are missing: looked in {} (set KAFKA_VECTORS_DIR to their folder)",
        dir.display()
    );
    dir
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a readable folder")
        .map(|entry| entry.expect("a folder entry").path())
        .collect();
    entries.sort();
    entries
}

/// Mutated inputs (a byte changed, cut short, a byte inserted) never crash kwire,
/// and `dissect` fails exactly where `decode` does, with the same one line: the
/// walk over the schema stops where the library's decoder stops.
#[test]
fn decode_says_when_unknown_tags_have_no_json_form() {
    // ApiVersionsRequest v3: "kw", "1", then an unknown tag 7 holding "hi".
    let run = kwire(&[
        "decode",
        "--api",
        "18",
        "--version",
        "3",
        "036b7702310107026869",
    ]);
    run.succeeds();
    assert!(
        run.stderr
            .starts_with("kwire: note: unknown tagged fields are not shown"),
        "{}",
        run.transcript()
    );
    let plain = kwire(&["decode", "--api", "18", "--version", "3", "036b77023100"]);
    assert!(plain.succeeds().stderr.is_empty(), "{}", plain.transcript());
}

#[test]
fn dissect_and_decode_agree_on_mutated_input() {
    // An ApiVersionsResponse v3 with nested structs and three tagged fields.
    const TAGGED: &str = "0023010000000003001702116d657461646174612e76657273696f6e000100140001080000000000000005030101";
    let seeds: [(&[&str], &str); 3] = [
        (&[], INIT_PRODUCER_ID),
        (&["--response", "--api", "18", "--version", "3"], TAGGED),
        (&["--api", "18", "--version", "3"], "036b7702310107026869"),
    ];
    // xorshift: the same mutations on every run, so a failure can be replayed.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    for round in 0..150 {
        let (options, hex) = seeds[round % seeds.len()];
        let mut bytes = unhex(hex);
        match next(3) {
            0 if !bytes.is_empty() => {
                let at = next(bytes.len());
                bytes[at] = next(256) as u8;
            }
            1 => bytes.truncate(next(bytes.len())),
            _ => {
                let at = next(bytes.len() + 1);
                bytes.insert(at, next(256) as u8);
            }
        }
        let mutated: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let dissect = kwire(&[&["dissect"][..], options, &[&mutated]].concat());
        let decode = kwire(&[&["decode"][..], options, &[&mutated]].concat());
        match dissect.status {
            Some(0) => {
                decode.succeeds();
                assert_every_byte_shown(dissect.stdout(), &bytes);
            }
            _ => {
                dissect.fails();
                decode.fails();
                assert_eq!(dissect.stderr, decode.stderr, "{}", dissect.transcript());
                assert!(
                    !dissect.stderr.contains("dissection stopped"),
                    "{}",
                    dissect.transcript()
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// encode and decode

#[test]
fn encode_writes_bodies_and_refuses_what_a_version_lacks() {
    let body = r#"{"transactionalId": null, "transactionTimeoutMs": 0, "producerId": -1, "producerEpoch": -1}"#;
    let encoded = kwire(&["encode", "--api", "InitProducerId", "--version", "4", body]);
    encoded.succeeds();
    assert_eq!(encoded.stdout(), format!("{}\n", &INIT_PRODUCER_ID[52..]));
    let decoded = kwire(&[
        "decode",
        "--api",
        "22",
        "--version",
        "4",
        encoded.stdout().trim(),
    ]);
    decoded.succeeds();
    let missing = kwire(&[
        "encode",
        "--api",
        "InitProducerId",
        "--version",
        "4",
        r#"{"transactionalId": null}"#,
    ]);
    missing.fails();
    let unknown_field = kwire(&[
        "encode",
        "--api",
        "InitProducerId",
        "--version",
        "4",
        r#"{"nope": 1}"#,
    ]);
    unknown_field.fails();
    let mismatch = kwire(&[
        "encode",
        "--frame",
        "--api",
        "Metadata",
        "--version",
        "4",
        &frame_json(),
    ]);
    mismatch.fails();
    golden(
        "encode",
        &[&encoded, &decoded, &missing, &unknown_field, &mismatch],
    );
}

fn frame_json() -> String {
    let decoded = kwire(&["decode", "--compact", INIT_PRODUCER_ID]);
    decoded.stdout().trim().to_owned()
}

// ---------------------------------------------------------------------------
// Errors: one line, non-zero, never a panic

#[test]
fn bad_input_is_one_line_and_a_non_zero_status() {
    let runs = [
        kwire(&["dissect", "00zz"]),
        kwire(&["decode", "001"]),
        // The prefix says 38 bytes; 26 follow.
        kwire(&["dissect", &INIT_PRODUCER_ID[..60]]),
        kwire(&["decode", &INIT_PRODUCER_ID[..60]]),
        kwire(&["dissect", "0016"]),
        // A header naming no API, with and without a matching length prefix.
        kwire(&["dissect", "000000080399000400000002"]),
        kwire(&["dissect", "000000260399000400000002"]),
        kwire(&["dissect", "--api", "Nope", "--version", "1", "00"]),
        kwire(&[
            "dissect",
            "--api",
            "InitProducerIdRequest",
            "--version",
            "1",
            "00",
        ]),
        kwire(&["dissect", "--api", "5", "--version", "1", "00"]),
        kwire(&[
            "dissect",
            "--api",
            "InitProducerId",
            "--version",
            "99",
            "00",
        ]),
        kwire(&["decode", "--response", "00"]),
        kwire(&["dissect", "--version", "3", "00"]),
        kwire(&["dissect", "--api", "Fetch", "00"]),
        kwire(&["encode", "--api", "22", "--version", "4", "{bad"]),
        kwire(&[
            "encode",
            "--api",
            "22",
            "--version",
            "4",
            "no-such-file.json",
        ]),
        kwire(&["encode", "--frame", r#"{"body": {}}"#]),
        kwire(&["encode", "--frame", r#"{"header": {}, "body": {}}"#]),
        kwire(&["schema", "InitProducerId"]),
        kwire(&["schema", "FetchRequest", "--version", "99"]),
        kwire(&["dissect"]),
        kwire(&["dissect", "--frob", "00"]),
        kwire(&["dissect", "--api", "22", "--version", "x", "00"]),
    ];
    for run in &runs {
        run.fails();
    }
    golden("errors", &runs.iter().collect::<Vec<_>>());
}

#[test]
fn every_command_has_help() {
    for command in [
        "dissect",
        "decode",
        "encode",
        "versions",
        "schema",
        "scram-credential",
        "compat",
    ] {
        let run = kwire(&[command, "--help"]);
        run.succeeds();
        assert!(
            run.stdout().contains("Usage: kwire"),
            "{}",
            run.transcript()
        );
    }
    kwire(&["--help"]).succeeds();
}

// ---------------------------------------------------------------------------
// schema

#[test]
fn schema_prints_fields_with_versions_or_at_one_version() {
    let runs = [
        kwire(&["schema", "InitProducerIdRequest"]),
        kwire(&["schema", "ApiVersionsResponse", "--version", "3"]),
        kwire(&["schema", "RequestHeader", "--version", "2"]),
        kwire(&["schema", "ApiVersionsRequest", "--version", "0"]),
    ];
    for run in &runs {
        run.succeeds();
    }
    golden("schema", &runs.iter().collect::<Vec<_>>());
}

/// `--json` prints the runtime's export as Kafka's schema file, byte for byte the
/// library's `to_kafka_json`; it is every version's, so `--version` is refused.
#[test]
fn schema_json_prints_kafkas_schema_file() {
    let runs = [
        kwire(&["schema", "--json", "InitProducerIdRequest"]),
        kwire(&["schema", "AddPartitionsToTxnRequest", "--json"]),
    ];
    for run in &runs {
        run.succeeds();
    }
    assert_eq!(
        runs[0].stdout(),
        InitProducerIdRequest::SCHEMA.to_kafka_json().unwrap()
    );
    assert!(runs[1].stdout().contains("\"commonStructs\""));
    let refused = kwire(&["schema", "--json", "--version", "3", "FetchRequest"]);
    refused.fails();
    golden("schema_json", &[&runs[0], &runs[1], &refused]);
}

// ---------------------------------------------------------------------------
// compat

/// Our own small schemas, released and changed, relative to this package.
const COMPAT: &str = "tests/compat";

#[test]
fn compat_passes_compatible_changes_and_fails_breaking_ones() {
    let file = |set: &str| format!("{COMPAT}/{set}/HoldSeatsRequest.json");
    let folder = |set: &str| format!("{COMPAT}/{set}");
    let same = kwire(&["compat", &file("released"), &file("released")]);
    same.succeeds();
    let compatible = kwire(&["compat", &file("released"), &file("compatible")]);
    compatible.succeeds();
    let compatible_sets = kwire(&["compat", &folder("released"), &folder("compatible")]);
    compatible_sets.succeeds();
    let breaking = kwire(&["compat", &folder("released"), &folder("breaking")]);
    breaking.fails();
    assert_eq!(breaking.status, Some(1), "{}", breaking.transcript());
    let allowed = kwire(&[
        "compat",
        "--allow",
        "version-removed",
        &file("released"),
        &file("breaking"),
    ]);
    allowed.fails();
    assert_eq!(allowed.status, Some(1), "{}", allowed.transcript());
    golden(
        "compat",
        &[&same, &compatible, &compatible_sets, &breaking, &allowed],
    );
}

#[test]
fn compat_cannot_tell_when_a_schema_does_not_read() {
    let released = format!("{COMPAT}/released/HoldSeatsRequest.json");
    let runs = [
        kwire(&["compat", &released, &format!("{COMPAT}/not-json.json")]),
        kwire(&["compat", &released, &format!("{COMPAT}/missing.json")]),
        kwire(&["compat", &released, &format!("{COMPAT}/released")]),
        kwire(&["compat", "--allow", "everything", &released, &released]),
    ];
    for run in &runs {
        run.fails();
        assert_eq!(run.status, Some(2), "{}", run.transcript());
    }
    golden("compat_errors", &runs.iter().collect::<Vec<_>>());
}

/// Kafka's own history through the binary: its version removals break the wire,
/// and allowed with the renames (which never fail) nothing else does. The findings
/// themselves are pinned by the tests crate's `schema_history`.
#[test]
fn compat_over_kafkas_history() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/kafka");
    let older = std::env::var_os("KAFKA_HISTORY_DIR")
        .map_or_else(|| shared.join("history"), PathBuf::from)
        .join("4.0.0-SNAPSHOT-1eb7644");
    let newer =
        std::env::var_os("KAFKA_SCHEMA_DIR").map_or_else(|| shared.join("schemas"), PathBuf::from);
    assert!(
        older.is_dir() && newer.is_dir(),
        "Kafka's schemas are missing: looked in {} and {} (set KAFKA_HISTORY_DIR and \
         KAFKA_SCHEMA_DIR to their folders)",
        older.display(),
        newer.display()
    );
    let (older, newer) = (older.to_string_lossy(), newer.to_string_lossy());
    let run = kwire(&["compat", &older, &newer]);
    run.fails();
    assert_eq!(run.status, Some(1), "{}", run.transcript());
    let summary = run.stdout().lines().last().unwrap_or_default().to_owned();
    assert_eq!(
        summary,
        "57 findings (2 message-renamed, 49 version-removed, 6 field-renamed); \
         49 break the wire; 15 added"
    );
    let allowed = kwire(&[
        "compat",
        "--allow",
        "version-removed",
        "--allow",
        "message-renamed",
        "--allow",
        "field-renamed",
        &older,
        &newer,
    ]);
    allowed.succeeds();
    assert_eq!(
        allowed.stdout(),
        run.stdout()
            .replace(
                "49 version-removed, 6 field-renamed); 49 break",
                "49 version-removed, allowed, 6 field-renamed, allowed); 0 break",
            )
            .replace("2 message-renamed,", "2 message-renamed, allowed,")
    );
}

// ---------------------------------------------------------------------------
// scram-credential

/// The credential of a `kwire scram-credential` line, read back as the broker's
/// users file reads it: `NAME MECHANISM CREDENTIAL`, split at whitespace.
fn users_file_line(run: &Run) -> (String, ScramHash, ScramCredential) {
    let stdout = run.stdout();
    assert_eq!(stdout.lines().count(), 1, "{}", run.transcript());
    let fields: Vec<&str> = stdout.split_whitespace().collect();
    let [name, mechanism, credential] = fields[..] else {
        panic!("not NAME MECHANISM CREDENTIAL:\n{}", run.transcript());
    };
    let hash = ScramHash::from_mechanism_name(mechanism).expect("a SCRAM mechanism");
    let credential = ScramCredential::parse(hash, credential).expect("Kafka's text form");
    // Written as Kafka's credentialToString writes it, key for key.
    assert_eq!(fields[2], credential.to_string());
    let keys: Vec<&str> = fields[2]
        .split(',')
        .map(|part| part.split_once('=').expect("key=value").0)
        .collect();
    assert_eq!(keys, ["salt", "stored_key", "server_key", "iterations"]);
    (name.to_owned(), hash, credential)
}

#[test]
fn scram_credential_salts_the_password_from_stdin() {
    let run = kwire_stdin(&["scram-credential", "alice"], b"alice-secret\n");
    run.succeeds();
    let (name, hash, credential) = users_file_line(&run);
    assert_eq!(name, "alice");
    assert_eq!(hash, ScramHash::Sha512, "the default mechanism");
    assert_eq!(credential.iterations(), 4096, "Kafka's default");
    assert!(credential.matches_password("alice-secret"));
    assert!(!credential.matches_password("alice-secret\n"));
    assert!(!run.stdout().contains("alice-secret"));

    // Another run, another salt: the same password, another line.
    let again = kwire_stdin(&["scram-credential", "alice"], b"alice-secret\n");
    again.succeeds();
    let (_, _, other) = users_file_line(&again);
    assert_ne!(other.salt(), credential.salt());
    assert!(other.matches_password("alice-secret"));

    let run = kwire_stdin(
        &[
            "scram-credential",
            "--mechanism",
            "SCRAM-SHA-256",
            "--iterations",
            "16384",
            "bob",
        ],
        "pässwörd with spaces\r\n".as_bytes(),
    );
    run.succeeds();
    let (name, hash, credential) = users_file_line(&run);
    assert_eq!((name.as_str(), hash), ("bob", ScramHash::Sha256));
    assert_eq!(credential.iterations(), 16384);
    assert!(credential.matches_password("pässwörd with spaces"));

    // No line end at all: the password is what there is.
    let run = kwire_stdin(&["scram-credential", "carol"], b"carol-secret");
    run.succeeds();
    assert!(users_file_line(&run).2.matches_password("carol-secret"));
}

#[test]
fn scram_credential_refuses_what_the_users_file_cannot_hold() {
    let runs = [
        kwire_stdin(
            &["scram-credential", "--iterations", "4095", "alice"],
            b"pw\n",
        ),
        kwire_stdin(
            &["scram-credential", "--iterations", "16385", "alice"],
            b"pw\n",
        ),
        kwire_stdin(
            &["scram-credential", "--mechanism", "PLAIN", "alice"],
            b"pw\n",
        ),
        kwire_stdin(&["scram-credential", "two words"], b"pw\n"),
        kwire_stdin(&["scram-credential", "#alice"], b"pw\n"),
        kwire_stdin(&["scram-credential", "alice"], b""),
        kwire_stdin(&["scram-credential", "alice"], b"\n"),
        kwire_stdin(&["scram-credential", "alice"], b"one\ntwo\n"),
        kwire(&["scram-credential"]),
    ];
    for run in &runs {
        run.fails();
        assert!(run.stdout.is_empty(), "{}", run.transcript());
    }
    golden("scram_credential_errors", &runs.iter().collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------
// versions, against brokers inside the test

/// A broker on 127.0.0.1 that answers each request frame of one connection with
/// `answer`, and stops when the connection closes; joining it gives the number of
/// requests it answered.
fn broker(
    mut answer: impl FnMut(RequestFrame) -> Option<Bytes> + Send + 'static,
) -> (String, JoinHandle<usize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let address = listener.local_addr().expect("an address").to_string();
    let handle = thread::spawn(move || {
        let (stream, _) = listener.accept().expect("kwire connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("a timeout");
        let mut writer = stream.try_clone().expect("a second handle");
        let mut reader = FrameReader::new(stream);
        let mut answered = 0;
        while let Ok(Some(frame)) = reader.read_frame() {
            let request = RequestFrame::parse(&frame).expect("a request frame");
            match answer(request) {
                Some(response) => writer.write_all(&response).expect("the answer is sent"),
                // Say nothing, and wait for kwire to give up.
                None => {
                    let _ = reader.get_mut().read(&mut [0; 1]);
                    break;
                }
            }
            answered += 1;
        }
        answered
    });
    (address, handle)
}

fn versions_transcript(name: &str, run: &Run, address: &str) {
    let transcript = run.transcript().replace(address, "BROKER");
    golden_text(name, &transcript);
}

#[test]
fn versions_negotiates_with_a_broker() {
    let (address, broker) = broker(|request| answer_api_versions(&request, Listener::Broker).ok());
    let run = kwire(&["versions", &address]);
    run.succeeds();
    assert_eq!(broker.join().expect("the broker thread"), 1);
    assert!(run.stdout().contains("InitProducerId"));
    versions_transcript("versions", &run, &address);
}

#[test]
fn versions_falls_back_when_the_broker_lacks_our_api_versions_version() {
    // An old broker: ApiVersions up to v2 only, and a few APIs.
    let (address, broker) = broker(|request| {
        let header = ResponseHeader::default().with_correlation_id(request.correlation_id());
        let entry = |key: i16, min: i16, max: i16| {
            ApiVersion::default()
                .with_api_key(key)
                .with_min_version(min)
                .with_max_version(max)
        };
        let (body, version) = if request.api_version() > 2 {
            // Kafka's answer to a version it does not know: a v0 body, error 35.
            let body = ApiVersionsResponse::default()
                .with_error_code(35)
                .with_api_keys(vec![entry(18, 0, 2)]);
            (body, 0)
        } else {
            let keys = vec![
                entry(0, 3, 9),
                entry(1, 0, 3),
                entry(3, 0, 8),
                entry(18, 0, 2),
            ];
            (
                ApiVersionsResponse::default().with_api_keys(keys),
                request.api_version(),
            )
        };
        frame::encode_response(&header, &body, version).ok()
    });
    let run = kwire(&["versions", &address]);
    run.succeeds();
    assert_eq!(broker.join().expect("the broker thread"), 2);
    assert!(run.stdout().contains("asking at v2"), "{}", run.stdout());
    versions_transcript("versions_fallback", &run, &address);
}

#[test]
fn versions_fails_in_one_line_when_no_broker_answers() {
    // A port that was free a moment ago: nothing listens there.
    let closed = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let address = closed.local_addr().expect("an address").to_string();
    drop(closed);
    let refused = kwire(&["versions", &address, "--timeout", "2"]);
    refused.fails();
    assert!(
        refused.stderr.contains("cannot connect"),
        "{}",
        refused.stderr
    );

    // A broker that accepts and never answers: kwire gives up after its timeout.
    let (address, silent) = broker(|_| None);
    let timed_out = kwire(&["versions", &address, "--timeout", "1"]);
    timed_out.fails();
    assert!(
        timed_out.stderr.contains("no answer"),
        "{}",
        timed_out.stderr
    );
    assert_eq!(silent.join().expect("the broker thread"), 0);

    let unresolvable = kwire(&["versions", "no-such-host.invalid:9092", "--timeout", "2"]);
    unresolvable.fails();
    // Keep the connection check quick to reach again: nothing is left listening.
    assert!(TcpStream::connect(&address).is_err());
}
