//! The schema checker can fail: altered copies of real schemas must produce exactly
//! the expected difference lines, with the right path, and nothing else.
//!
//! Each case copies the schemas that have structs today into a fresh temp folder,
//! alters one of them, and compares the report with the report on the unaltered copy.

use std::collections::BTreeSet;
use std::path::Path;

use kwire_tests::checker::{self, Runtime};
use kwire_tests::temp::TempDir;

/// The schemas whose structs exist today; the baseline must check them clean.
const SCHEMAS: &[&str] = &[
    "RequestHeader",
    "ResponseHeader",
    "ApiVersionsRequest",
    "ApiVersionsResponse",
];

/// The real schema text of `name`.
fn real(name: &str) -> String {
    let file = kwire_tests::schema_dir().join(format!("{name}.json"));
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// Writes the schemas, with `edit` applied to the one called `name` (extra files
/// come from `add`), and returns the report's difference lines.
fn report_with(name: &str, edit: impl FnOnce(String) -> String, add: &[(&str, &str)]) -> Lines {
    let dir = TempDir::new("checker").expect("temp folder");
    let mut edit = Some(edit);
    for schema in SCHEMAS {
        let text = real(schema);
        let text = match edit.take_if(|_| *schema == name) {
            Some(edit) => edit(text),
            None => text,
        };
        write(dir.path(), schema, &text);
    }
    for (file, text) in add {
        write(dir.path(), file, text);
    }
    let report = checker::check(dir.path(), &Runtime::registry());
    Lines {
        differences: report.difference_lines().into_iter().collect(),
    }
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(format!("{name}.json")), text).expect("write schema copy");
}

#[derive(Debug, PartialEq)]
struct Lines {
    differences: BTreeSet<String>,
}

fn baseline() -> Lines {
    report_with("", |t| t, &[])
}

/// The difference lines an edit adds to and removes from the baseline.
fn changes(name: &str, edit: impl FnOnce(String) -> String) -> (Vec<String>, Vec<String>) {
    changes_adding(name, edit, &[])
}

fn changes_adding(
    name: &str,
    edit: impl FnOnce(String) -> String,
    add: &[(&str, &str)],
) -> (Vec<String>, Vec<String>) {
    let before = baseline();
    let after = report_with(name, edit, add);
    let added = after
        .differences
        .difference(&before.differences)
        .cloned()
        .collect();
    let removed = before
        .differences
        .difference(&after.differences)
        .cloned()
        .collect();
    (added, removed)
}

/// Asserts that the edit adds exactly `expected` and removes nothing.
fn assert_adds(name: &str, edit: impl FnOnce(String) -> String, expected: &[&str]) {
    let (added, removed) = changes(name, edit);
    assert_eq!(added, expected, "lines added by the edit of {name}");
    assert!(
        removed.is_empty(),
        "lines removed by the edit of {name}: {removed:?}"
    );
}

/// Replaces the one occurrence of `from`.
fn replace(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "`{from}` must occur once");
    text.replacen(from, to, 1)
}

/// The byte range of the balanced `{...}` or `[...]` starting at `start`, skipping
/// string literals.
fn balanced(text: &str, start: usize) -> std::ops::Range<usize> {
    let bytes = text.as_bytes();
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate().skip(start) {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return start..i + 1;
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced text from byte {start}");
}

/// The range of the field object `{ "name": "<field>", ... }`.
fn field_object(text: &str, field: &str) -> std::ops::Range<usize> {
    let pattern = format!("{{ \"name\": \"{field}\"");
    assert_eq!(
        text.matches(&pattern).count(),
        1,
        "field {field} must occur once"
    );
    balanced(text, text.find(&pattern).unwrap_or_default())
}

fn remove_field(text: String, field: &str) -> String {
    let range = field_object(&text, field);
    let rest = text[range.end..].trim_start();
    let rest = rest.strip_prefix(',').unwrap_or(rest);
    format!("{}{}", &text[..range.start], rest)
}

fn swap_fields(text: String, first: &str, second: &str) -> String {
    let (a, b) = (field_object(&text, first), field_object(&text, second));
    assert!(a.end <= b.start, "{first} must come before {second}");
    format!(
        "{}{}{}{}{}",
        &text[..a.start],
        &text[b.clone()],
        &text[a.end..b.start],
        &text[a.clone()],
        &text[b.end..]
    )
}

/// Moves the inline struct of `ApiKeys` into `commonStructs`, optionally leaving it out.
fn api_keys_as_common_struct(text: String, keep_common: bool) -> String {
    let anchor = "\"about\": \"The APIs supported by the broker.\", ";
    let at = text.find(anchor).expect("ApiKeys about") + anchor.len();
    let fields_at = at + text[at..].find('[').expect("ApiKeys fields");
    let fields = balanced(&text, fields_at);
    let inline = format!(
        "{}\"fields\": {}",
        &text[at..fields.start - "\"fields\": ".len()],
        &text[fields.clone()]
    );
    let without = format!(
        "{}{}",
        text[..at].trim_end().trim_end_matches(','),
        &text[fields.end..]
    );
    assert!(inline.contains("MinVersion"));
    if !keep_common {
        return without;
    }
    let common = format!(
        "\"commonStructs\": [ {{ \"name\": \"ApiVersion\", \"versions\": \"0+\", \"fields\": {} }} ],",
        &text[fields]
    );
    let top = "\"flexibleVersions\": \"3+\",\n";
    replace(&without, top, &format!("{top}  {common}\n"))
}

#[test]
fn baseline_checks_the_schemas_with_structs_clean() {
    let lines = baseline();
    let about_ours: Vec<&String> = lines
        .differences
        .iter()
        .filter(|line| {
            SCHEMAS
                .iter()
                .any(|s| line.starts_with(&format!("{s}:")) || line.starts_with(&format!("{s}.")))
        })
        .collect();
    assert!(about_ours.is_empty(), "{about_ours:?}");
    // The copy holds no retired schema, so every retired key is reported.
    assert!(lines
        .differences
        .contains("RETIRED_API_KEYS: 4 (LeaderAndIsr) has no retired schema"));
}

#[test]
fn missing_field_in_nested_struct() {
    assert_adds(
        "ApiVersionsResponse",
        |t| {
            replace(
                &t,
                "\"about\": \"The maximum supported version, inclusive.\" }",
                "\"about\": \"The maximum supported version, inclusive.\" },\n      \
                 { \"name\": \"Weight\", \"type\": \"int32\", \"versions\": \"3+\", \
                 \"taggedVersions\": \"3+\", \"tag\": 0, \"about\": \"How heavy.\" }",
            )
        },
        &["ApiVersionsResponse.ApiKeys[].Weight: missing field (versions 3+, tag 0)"],
    );
}

#[test]
fn missing_field_at_top_level() {
    assert_adds(
        "ResponseHeader",
        |t| {
            replace(
                &t,
                "\"about\": \"The correlation ID of this response.\" }",
                "\"about\": \"The correlation ID of this response.\" },\n    \
                 { \"name\": \"Extra\", \"type\": \"string\", \"versions\": \"1+\", \"about\": \"\" }",
            )
        },
        &["ResponseHeader.Extra: missing field (versions 1+)"],
    );
}

#[test]
fn extra_field_in_struct() {
    assert_adds(
        "ApiVersionsRequest",
        |t| remove_field(t, "ClientSoftwareVersion"),
        &["ApiVersionsRequest.ClientSoftwareVersion: extra field in struct (versions 3+)"],
    );
}

#[test]
fn swapped_fields() {
    assert_adds(
        "RequestHeader",
        |t| swap_fields(t, "RequestApiKey", "RequestApiVersion"),
        &[
            "RequestHeader.RequestApiKey: out of order: field 2 in schema, 1 in struct",
            "RequestHeader.RequestApiVersion: out of order: field 1 in schema, 2 in struct",
        ],
    );
}

#[test]
fn wrong_version_range() {
    assert_adds(
        "ApiVersionsResponse",
        |t| {
            replace(
                &t,
                "\"ThrottleTimeMs\", \"type\": \"int32\", \"versions\": \"1+\"",
                "\"ThrottleTimeMs\", \"type\": \"int32\", \"versions\": \"2+\"",
            )
        },
        &["ApiVersionsResponse.ThrottleTimeMs: versions 2+ in schema, 1+ in struct"],
    );
}

#[test]
fn wrong_nullable_range() {
    assert_adds(
        "ApiVersionsRequest",
        |t| {
            replace(
                &t,
                "\"nullableVersions\": \"5+\"",
                "\"nullableVersions\": \"5\"",
            )
        },
        &["ApiVersionsRequest.ClusterId: nullableVersions 5 in schema, 5+ in struct"],
    );
}

#[test]
fn wrong_tag() {
    assert_adds(
        "ApiVersionsResponse",
        |t| replace(&t, "\"tag\": 1,", "\"tag\": 4,"),
        &["ApiVersionsResponse.FinalizedFeaturesEpoch: tag 4 in schema, 1 in struct"],
    );
}

#[test]
fn wrong_default() {
    assert_adds(
        "ApiVersionsRequest",
        |t| replace(&t, "\"default\": -1", "\"default\": \"0x7fffffff\""),
        &["ApiVersionsRequest.NodeId: default 2147483647 in schema, -1 in struct"],
    );
    assert_adds(
        "ApiVersionsRequest",
        |t| replace(&t, "\"default\": \"null\"", "\"default\": \"\""),
        &["ApiVersionsRequest.ClusterId: default \"\" in schema, null in struct"],
    );
}

#[test]
fn defaults_compare_by_meaning() {
    assert_adds(
        "ApiVersionsRequest",
        |t| replace(&t, "\"default\": -1", "\"default\": \"-0x1\""),
        &[],
    );
    assert_adds(
        "ApiVersionsResponse",
        |t| {
            replace(
                &t,
                "\"ignorable\": true, \"default\": \"false\"",
                "\"ignorable\": true",
            )
        },
        &[],
    );
}

#[test]
fn int32_versus_int64() {
    assert_adds(
        "ApiVersionsRequest",
        |t| {
            replace(
                &t,
                "\"NodeId\", \"type\": \"int32\"",
                "\"NodeId\", \"type\": \"int64\"",
            )
        },
        &["ApiVersionsRequest.NodeId: type int64 in schema, int32 in struct"],
    );
}

#[test]
fn changed_about() {
    assert_adds(
        "RequestHeader",
        |t| replace(&t, "The correlation ID of this request.", "The correlation ID of that request."),
        &["RequestHeader.CorrelationId: about \"The correlation ID of that request.\" in schema, \
           \"The correlation ID of this request.\" in struct"],
    );
    assert_adds(
        "RequestHeader",
        |t| {
            replace(
                &t,
                "The correlation ID of this request.",
                "  The correlation   ID of\\nthis request. ",
            )
        },
        &[],
    );
}

#[test]
fn wrong_flexible_override() {
    assert_adds(
        "RequestHeader",
        |t| {
            replace(
                &t,
                "\"flexibleVersions\": \"none\"",
                "\"flexibleVersions\": \"2+\"",
            )
        },
        &["RequestHeader.ClientId: flexibleVersions 2+ in schema, none in struct"],
    );
    assert_adds(
        "RequestHeader",
        |t| replace(&t, ", \"flexibleVersions\": \"none\"", ""),
        &["RequestHeader.ClientId: flexibleVersions absent in schema, none in struct"],
    );
}

#[test]
fn nested_struct_field_change() {
    assert_adds(
        "ApiVersionsResponse",
        |t| {
            replace(
                &t,
                "{ \"name\": \"MinVersion\", \"type\": \"int16\", \"versions\": \"0+\"",
                "{ \"name\": \"MinVersion\", \"type\": \"int16\", \"versions\": \"1+\"",
            )
        },
        &["ApiVersionsResponse.ApiKeys[].MinVersion: versions 1+ in schema, 0+ in struct"],
    );
}

#[test]
fn common_structs_are_resolved() {
    assert_adds(
        "ApiVersionsResponse",
        |t| api_keys_as_common_struct(t, true),
        &[],
    );
    assert_adds(
        "ApiVersionsResponse",
        |t| {
            let t = api_keys_as_common_struct(t, true);
            replace(
                &t,
                "The maximum supported version, inclusive.",
                "The maximum.",
            )
        },
        &[
            "ApiVersionsResponse.ApiKeys[].MaxVersion: about \"The maximum.\" in schema, \
           \"The maximum supported version, inclusive.\" in struct",
        ],
    );
    assert_adds(
        "ApiVersionsResponse",
        |t| api_keys_as_common_struct(t, false),
        &[
            "ApiVersionsResponse.ApiKeys: type ApiVersion is not a primitive, an inline struct \
           or a commonStruct",
        ],
    );
}

#[test]
fn message_level_keys() {
    assert_adds(
        "ApiVersionsRequest",
        |t| replace(&t, "\"apiKey\": 18", "\"apiKey\": 19"),
        &["ApiVersionsRequest: apiKey 19 in schema, 18 in struct"],
    );
    assert_adds(
        "ApiVersionsResponse",
        |t| {
            replace(
                &t,
                "\"validVersions\": \"0-5\"",
                "\"validVersions\": \"0-6\"",
            )
        },
        &["ApiVersionsResponse: validVersions 0-6 in schema, 0-5 in struct"],
    );
    assert_adds(
        "ResponseHeader",
        |t| replace(&t, "\"flexibleVersions\": \"1+\",", ""),
        &["ResponseHeader: flexibleVersions none in schema, 1+ in struct"],
    );
    assert_adds(
        "ApiVersionsRequest",
        |t| replace(&t, "[\"broker\", \"controller\"]", "[\"controller\", \"broker\"]"),
        &["ApiVersionsRequest: listeners [controller, broker] in schema, [broker, controller] in struct"],
    );
    assert_adds(
        "ApiVersionsRequest",
        |t| {
            replace(
                &t,
                "\"type\": \"request\"",
                "\"type\": \"request\", \"latestVersionUnstable\": true",
            )
        },
        &["ApiVersionsRequest: latestVersionUnstable true in schema, false in struct"],
    );
    assert_adds(
        "RequestHeader",
        |t| replace(&t, "\"type\": \"header\"", "\"type\": \"data\""),
        &["RequestHeader: type data in schema, header in struct"],
    );
}

#[test]
fn inline_fields_on_a_primitive_are_reported() {
    assert_adds(
        "ResponseHeader",
        |t| {
            replace(
                &t,
                "\"about\": \"The correlation ID of this response.\" }",
                "\"about\": \"The correlation ID of this response.\", \"fields\": [] }",
            )
        },
        &[],
    );
    assert_adds(
        "ResponseHeader",
        |t| {
            replace(
                &t,
                "\"about\": \"The correlation ID of this response.\" }",
                "\"about\": \"The correlation ID of this response.\", \"fields\": [\
                 { \"name\": \"X\", \"type\": \"int8\", \"versions\": \"0+\" } ] }",
            )
        },
        &["ResponseHeader.CorrelationId: inline fields on type int32 in schema"],
    );
}

#[test]
fn unknown_keys_are_reported() {
    assert_adds(
        "ApiVersionsRequest",
        |t| replace(&t, "\"default\": -1,", "\"default\": -1, \"fancy\": true,"),
        &["ApiVersionsRequest.NodeId: schema key `fancy` is unknown to the checker"],
    );
}

#[test]
fn schema_without_struct_is_a_difference_whatever_its_key_or_kind() {
    let request = |key: u32| {
        format!(
            "// comment\n{{ \"apiKey\": {key}, \"type\": \"request\", \"name\": \"ZzzRequest\",\n\
             \"validVersions\": \"0\", \"flexibleVersions\": \"none\", \"fields\": [] }}"
        )
    };
    for key in [49, 50, 94] {
        let (added, removed) = changes_adding("", |t| t, &[("ZzzRequest", &request(key))]);
        assert_eq!(added, ["ZzzRequest: schema without struct"], "apiKey {key}");
        assert!(removed.is_empty());
    }
    let data = "{ \"type\": \"data\", \"name\": \"ZzzRecord\", \"validVersions\": \"0\",\n\
                \"flexibleVersions\": \"none\", \"fields\": [] }";
    let (added, _) = changes_adding("", |t| t, &[("ZzzRecord", data)]);
    assert_eq!(added, ["ZzzRecord: schema without struct"]);
}

#[test]
fn struct_without_schema() {
    let (added, removed) = changes("ResponseHeader", |_| String::new());
    assert!(removed.is_empty(), "{removed:?}");
    assert_eq!(added.len(), 2, "{added:?}");
    assert!(
        added[0].starts_with("ResponseHeader.json: cannot read schema: "),
        "{added:?}"
    );
    assert_eq!(added[1], "ResponseHeader: struct without schema");
}

#[test]
fn retired_schemas_match_the_retired_list() {
    let retired = |name: &str, key: u32| {
        format!(
            "{{ \"apiKey\": {key}, \"type\": \"request\", \"name\": \"{name}\", \
             \"validVersions\": \"none\", \"fields\": [] }}"
        )
    };
    let (added, removed) = changes_adding(
        "",
        |t| t,
        &[("LeaderAndIsrRequest", &retired("LeaderAndIsrRequest", 4))],
    );
    assert!(added.is_empty(), "{added:?}");
    assert_eq!(
        removed,
        ["RETIRED_API_KEYS: 4 (LeaderAndIsr) has no retired schema"]
    );
    let (added, _) = changes_adding(
        "",
        |t| t,
        &[("LeaderIsrRequest", &retired("LeaderIsrRequest", 4))],
    );
    assert_eq!(
        added,
        ["LeaderIsrRequest: retired apiKey 4 is LeaderIsr in schema, LeaderAndIsr in RETIRED_API_KEYS"]
    );
    let (added, _) = changes_adding("", |t| t, &[("OldRequest", &retired("OldRequest", 3))]);
    assert_eq!(
        added,
        ["OldRequest: retired apiKey 3 missing from RETIRED_API_KEYS"]
    );
    assert_adds(
        "ApiVersionsRequest",
        |t| {
            replace(
                &t,
                "\"validVersions\": \"0-5\"",
                "\"validVersions\": \"none\"",
            )
        },
        &[
            "ApiVersionsRequest: retired API (validVersions none) has a struct",
            "ApiVersionsRequest: retired apiKey 18 missing from RETIRED_API_KEYS",
        ],
    );
}

#[test]
fn a_message_registered_twice_is_a_difference() {
    let dir = TempDir::new("checker").expect("temp folder");
    for schema in SCHEMAS {
        write(dir.path(), schema, &real(schema));
    }
    let mut runtime = Runtime::registry();
    let header = *runtime
        .messages
        .iter()
        .find(|m| m.name == "ResponseHeader")
        .expect("ResponseHeader registered");
    runtime.messages.push(header);
    let report = checker::check(dir.path(), &runtime);
    let lines = report.difference_lines();
    assert!(
        lines.contains(&"ResponseHeader: registered twice".to_owned()),
        "{lines:?}"
    );
}

/// `ResponseHeader`'s schema as if its struct had no field for unknown tags (which
/// the derive refuses to compile, so the schema is altered by hand).
static DROPS_UNKNOWN_TAGS: kwire::schema::MessageSchema = {
    let mut schema = <kwire_messages::ResponseHeader as kwire::Message>::SCHEMA;
    schema.body.keeps_unknown_tags = false;
    schema
};

#[test]
fn a_flexible_struct_that_drops_unknown_tags_is_reported() {
    let dir = TempDir::new("checker").expect("temp folder");
    for schema in SCHEMAS {
        write(dir.path(), schema, &real(schema));
    }
    let mut runtime = Runtime::registry();
    runtime.messages.retain(|m| SCHEMAS.contains(&m.name));
    runtime.retired = &[];
    for message in &mut runtime.messages {
        if message.name == "ResponseHeader" {
            *message = &DROPS_UNKNOWN_TAGS;
        }
    }
    let report = checker::check(dir.path(), &runtime);
    let lines: Vec<String> = report.difference_lines().into_iter().collect();
    assert_eq!(
        lines,
        ["ResponseHeader: struct has no `unknown_tagged` field to keep unknown tags"]
    );
}
