//! Kafka-authored byte vectors survive a decode-then-encode round trip unchanged.
//!
//! Walks `KAFKA_VECTORS_DIR` (`<Message>/v<N>.json`); messages without a struct yet
//! are printed as pending and do not fail.

use kwire_tests::codecs::codec;
use kwire_tests::temp::TempDir;
use kwire_tests::vectors::{self, VectorReport};

#[test]
fn kafka_vectors_round_trip() {
    let dir = kwire_tests::vectors_dir();
    let report = vectors::run(&dir, codec);
    println!("vectors from {}", dir.display());
    print!("{report}");
    assert!(
        report.passed(),
        "{} vectors checked in {}, {} failed (listed above)",
        report.checked,
        dir.display(),
        report.failures.len()
    );
}

/// Writes `files` (`(relative path, text)`) to a fresh folder and runs it.
fn run_folder(files: &[(&str, &str)]) -> VectorReport {
    let dir = TempDir::new("vectors").expect("temp folder");
    for (path, text) in files {
        let file = dir.path().join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("create folder");
        std::fs::write(file, text).expect("write vector file");
    }
    vectors::run(dir.path(), codec)
}

/// A vector file of `(name, hex)` vectors, each with `json` as its `json_value`
/// (`None`: no `json_value`).
fn file_with_json(
    message: &str,
    version: i16,
    vectors: &[(&str, &str)],
    json: Option<&str>,
) -> String {
    let json = json.map_or(String::new(), |json| format!(", \"json_value\": {json}"));
    let items: Vec<String> = vectors
        .iter()
        .map(|(name, hex)| {
            format!(
                "{{ \"name\": \"{name}\", \"message\": \"{message}\", \"version\": {version}, \"hex\": \"{hex}\"{json} }}"
            )
        })
        .collect();
    format!("{{ \"schema\": 1, \"vectors\": [ {} ] }}", items.join(", "))
}

/// The JSON form of `0561636d6504312e3000`, an ApiVersionsRequest v3.
const ACME: &str = r#"{"clientSoftwareName": "acme", "clientSoftwareVersion": "1.0"}"#;

fn file(message: &str, version: i16, vectors: &[(&str, &str)]) -> String {
    file_with_json(message, version, vectors, Some(ACME))
}

#[test]
fn runner_checks_any_folder_of_the_same_shape() {
    let good = file(
        "ApiVersionsRequest",
        3,
        &[("named", "0561636d6504312e3000")],
    );
    let pending = file("NoSuchMessage", 0, &[("a", "00"), ("b", "01")]);
    let report = run_folder(&[
        ("ApiVersionsRequest/v3.json", &good),
        ("NoSuchMessage/v0.json", &pending),
        (
            "NoSuchMessage/v1.json",
            &file("NoSuchMessage", 1, &[("c", "")]),
        ),
        ("README.md", "not a folder"),
        ("ApiVersionsRequest/notes.txt", "ignored"),
    ]);
    assert_eq!(report.failures, Vec::<String>::new());
    assert_eq!((report.checked, report.pending), (1, 3));
    assert_eq!(
        report.pending_lines,
        ["NoSuchMessage: 3 vectors (no struct yet)"]
    );
    assert_eq!(
        report.summary(),
        "1 vectors checked (bytes and JSON), 3 pending, 0 failed"
    );
    assert!(report.passed());
}

#[test]
fn a_run_that_checks_nothing_does_not_pass() {
    let pending = file("NoSuchMessage", 0, &[("a", "00")]);
    let report = run_folder(&[("NoSuchMessage/v0.json", &pending)]);
    assert_eq!((report.checked, report.pending), (0, 1));
    assert!(report.failures.is_empty());
    assert!(!report.passed(), "all pending is not a pass");
    let empty = run_folder(&[]);
    assert!(!empty.passed(), "an empty folder is not a pass");
}

#[test]
fn runner_reports_bytes_that_do_not_come_back() {
    // A 2-byte varint length for a 4-byte string: decodes, but re-encodes shorter.
    let overlong = file(
        "ApiVersionsRequest",
        3,
        &[("overlong", "850061636d6504312e3000")],
    );
    let report = run_folder(&[("ApiVersionsRequest/v3.json", &overlong)]);
    assert_eq!(report.checked, 1);
    assert_eq!(report.failures.len(), 1, "{report}");
    let line = &report.failures[0];
    assert!(
        line.starts_with("ApiVersionsRequest v3 overlong: "),
        "{line}"
    );
}

#[test]
fn runner_reports_undecodable_and_malformed_vectors() {
    let truncated = file("ApiVersionsRequest", 3, &[("truncated", "0561636d")]);
    let bad_hex = file("ApiVersionsRequest", 4, &[("bad", "0g")]);
    let wrong_version = file("ApiVersionsRequest", 4, &[("x", "00")]);
    let report = run_folder(&[
        ("ApiVersionsRequest/v3.json", &truncated),
        ("ApiVersionsRequest/v4.json", &bad_hex),
        ("ApiVersionsRequest/v5.json", &wrong_version),
        ("ApiVersionsResponse/v0.json", "{ not json"),
    ]);
    assert_eq!(report.failures.len(), 4, "{report}");
    assert!(
        report.failures[0].starts_with("ApiVersionsRequest v3 truncated: decode"),
        "{report}"
    );
    assert!(
        report.failures[1].contains("bad: `0g` is not hex"),
        "{report}"
    );
    assert!(
        report.failures[2].contains("x: version 4 in the v5 file"),
        "{report}"
    );
    assert!(
        report.failures[3].contains("ApiVersionsResponse/v0.json"),
        "{report}"
    );
}

#[test]
fn runner_checks_the_json_half_both_ways() {
    let acme = ("acme", "0561636d6504312e3000");
    let check = |json: Option<&str>| {
        let file = file_with_json("ApiVersionsRequest", 3, &[acme], json);
        run_folder(&[("ApiVersionsRequest/v3.json", &file)])
    };
    assert!(check(Some(ACME)).passed());

    let none = check(None);
    assert_eq!(
        none.failures,
        ["ApiVersionsRequest v3 acme: no `json_value`"]
    );

    // Another name: JSON -> bytes differs.
    let other = check(Some(
        r#"{"clientSoftwareName": "acmf", "clientSoftwareVersion": "1.0"}"#,
    ));
    assert_eq!(other.failures.len(), 1, "{other}");
    assert!(
        other.failures[0].contains("json_value encodes differently"),
        "{other}"
    );

    // A key no field has: reading it is refused.
    let extra = check(Some(
        r#"{"clientSoftwareName": "acme", "clientSoftwareVersion": "1.0", "colour": 1}"#,
    ));
    assert!(extra.failures[0].contains("no field \"colour\""), "{extra}");

    // A field the version has, missing: refused, naming it.
    let missing = check(Some(r#"{"clientSoftwareName": "acme"}"#));
    assert!(
        missing.failures[0].contains("clientSoftwareVersion: missing"),
        "{missing}"
    );

    // A field version 3 lacks, at its default: passes, with a note naming it.
    let old = check(Some(
        r#"{"clientSoftwareName": "acme", "clientSoftwareVersion": "1.0", "nodeId": -1}"#,
    ));
    assert!(old.passed(), "{old}");
    assert_eq!(old.notes.len(), 1, "{old}");
    assert!(old.notes[0].contains("(.nodeId)"), "{old}");
}
