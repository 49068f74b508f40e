//! The scaffold's drafts follow the message-file conventions.

use std::path::Path;

use kwire_tests::checker::load::{load_file, load_text};
use kwire_tests::scaffold::render;

fn draft(names: &[&str]) -> String {
    let dir = kwire_tests::schema_dir();
    let messages: Vec<_> = names
        .iter()
        .map(|n| load_file(&dir.join(format!("{n}.json"))).expect("schema loads"))
        .collect();
    render(&messages)
}

/// Asserts that `text` holds `lines` consecutively.
fn assert_has(text: &str, lines: &[&str]) {
    let wanted = lines.join("\n");
    assert!(
        text.contains(&wanted),
        "missing:\n{wanted}\n--- in ---\n{text}"
    );
}

#[test]
fn api_versions_fields_get_their_attributes() {
    let text = draft(&["ApiVersionsRequest", "ApiVersionsResponse"]);
    assert_has(
        &text,
        &[
            "#[derive(Debug, Clone, PartialEq, kwire::Message)]",
            "#[non_exhaustive]",
            "#[kafka(api_key = 18, kind = request, response = ApiVersionsResponse, versions = \"0-5\",",
            "        flexible = \"3+\", listeners = \"broker, controller\")]",
            "pub struct ApiVersionsRequest {",
        ],
    );
    assert_has(
        &text,
        &[
            "    #[kafka(versions = \"5+\", nullable = \"5+\", default = null, ignorable)]",
            "    pub cluster_id: Option<KafkaString>,",
        ],
    );
    assert_has(
        &text,
        &[
            "    #[kafka(versions = \"3+\", tag = 1, tagged = \"3+\", default = -1, ignorable)]",
            "    pub finalized_features_epoch: i64,",
        ],
    );
    assert_has(
        &text,
        &[
            "    /// The APIs supported by the broker.",
            "    #[kafka(versions = \"0+\")]",
            "    pub api_keys: Vec<ApiVersion>,",
        ],
    );
    assert_has(
        &text,
        &[
            "#[derive(Debug, Clone, PartialEq, kwire::Struct)]",
            "#[non_exhaustive]",
            "pub struct ApiVersion {",
            "    /// The API index.",
            "    #[kafka(versions = \"0+\", map_key)]",
            "    pub api_key: i16,",
        ],
    );
    assert_eq!(
        text.matches("pub unknown_tagged_fields: UnknownTaggedFields,")
            .count(),
        5
    );
}

#[test]
fn request_header_keeps_its_flexible_override() {
    let text = draft(&["RequestHeader"]);
    assert_has(
        &text,
        &[
            "    /// The client ID string.",
            "    #[kafka(versions = \"1+\", nullable = \"1+\", flexible = \"none\")]",
            "    pub client_id: Option<KafkaString>,",
        ],
    );
    assert_has(
        &text,
        &["#[kafka(kind = header, versions = \"1-2\", flexible = \"2+\")]"],
    );
}

/// Every attribute and field line of the exemplar message file appears in
/// the draft, in the same order (docs aside: the exemplar's are hand-written).
#[test]
fn draft_matches_the_exemplar_apart_from_docs() {
    let exemplar = kwire_tests::workspace_root().join("messages/src/api/api_versions.rs");
    let exemplar = std::fs::read_to_string(&exemplar).expect("exemplar readable");
    let text = draft(&["ApiVersionsRequest", "ApiVersionsResponse"]);
    assert_eq!(code_lines(&text), code_lines(&exemplar));
}

/// The non-comment lines, with wrapped attributes joined and spacing collapsed.
fn code_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut open = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("//") || line.is_empty() {
            continue;
        }
        let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
        match lines.last_mut() {
            Some(last) if open => {
                last.push(' ');
                last.push_str(&line);
            }
            _ => lines.push(line),
        }
        let last = lines.last().map(String::as_str).unwrap_or_default();
        open = last.starts_with("#[") && !last.ends_with(']');
    }
    lines
}

const SYNTHETIC: &str = r#"
// A made-up, non-flexible API exercising the naming rules.
{
  "apiKey": 7, "type": "request", "name": "WidgetRequest",
  "validVersions": "0-2", "flexibleVersions": "none", "latestVersionUnstable": true,
  "fields": [
    { "name": "TopicID", "type": "uuid", "versions": "0+", "about": "The topic." },
    { "name": "Type", "type": "int8", "versions": "1+", "default": "0x7f", "about": "" },
    { "name": "Label", "type": "string", "versions": "0+", "default": "none yet",
      "entityType": "topicName", "about": "A label." },
    { "name": "Payload", "type": "bytes", "versions": "2+", "zeroCopy": true,
      "nullableVersions": "2+", "about": "Bytes." },
    { "name": "Parts", "type": "[]Part", "versions": "0+", "about": "The parts." },
    { "name": "Extra", "type": "Part", "versions": "2+", "about": "One more." }
  ],
  "commonStructs": [
    { "name": "Part", "versions": "0+", "fields": [
      { "name": "Id", "type": "int32", "versions": "0+", "mapKey": true, "about": "Its id." }
    ]}
  ]
}
"#;

const SYNTHETIC_RESPONSE: &str = r#"{
  "apiKey": 7, "type": "response", "name": "WidgetResponse",
  "validVersions": "0-2", "flexibleVersions": "2+",
  "fields": [
    { "name": "Parts", "type": "[]Part", "versions": "0+", "about": "Other parts.", "fields": [
      { "name": "Weight", "type": "float64", "versions": "0+", "about": "How heavy." }
    ]}
  ]
}"#;

#[test]
fn naming_rules_common_structs_and_clashes() {
    let request = load_text(SYNTHETIC, Path::new("WidgetRequest.json")).expect("loads");
    let response = load_text(SYNTHETIC_RESPONSE, Path::new("WidgetResponse.json")).expect("loads");
    let text = render(&[request, response]);
    assert_has(
        &text,
        &["use kwire::{KafkaString, UnknownTaggedFields, Uuid};"],
    );
    assert_has(&text, &["use bytes::Bytes;"]);
    assert_has(
        &text,
        &[
            "#[kafka(api_key = 7, kind = request, response = WidgetResponse, versions = \"0-2\",",
            "        latest_version_unstable)]",
            "pub struct WidgetRequest {",
        ],
    );
    assert_has(
        &text,
        &[
            "    #[kafka(name = \"TopicID\", versions = \"0+\")]",
            "    pub topic_id: Uuid,",
        ],
    );
    assert_has(
        &text,
        &[
            "    ///",
            "    #[kafka(versions = \"1+\", default = 0x7f)]",
            "    pub r#type: i8,",
        ],
    );
    assert_has(
        &text,
        &[
            "    #[kafka(versions = \"0+\", default = \"none yet\", entity_type = \"topicName\")]",
            "    pub label: KafkaString,",
        ],
    );
    assert_has(
        &text,
        &[
            "    #[kafka(versions = \"2+\", nullable = \"2+\", zero_copy)]",
            "    pub payload: Option<Bytes>,",
        ],
    );
    assert_has(&text, &["    pub parts: Vec<Part>,"]);
    assert_has(&text, &["    pub extra: Part,"]);
    // One Part struct for both request fields; the response's different Part is renamed.
    assert_eq!(text.matches("pub struct Part {").count(), 1, "{text}");
    assert_has(
        &text,
        &["#[kafka(name = \"Part\")]", "pub struct ResponsePart {"],
    );
    assert_has(&text, &["    pub parts: Vec<ResponsePart>,"]);
    // Only the flexible response and its struct hold unknown tags.
    assert_eq!(
        text.matches("#[kafka(unknown_tagged)]").count(),
        2,
        "{text}"
    );
}

/// Broker-ID lists become `BrokerIds` (held in place when short) and are imported;
/// the draft of the Metadata API is the committed file, docs aside.
#[test]
fn broker_id_lists_are_broker_ids() {
    let text = draft(&["MetadataRequest", "MetadataResponse"]);
    assert_has(&text, &["use crate::BrokerIds;", "use kwire::"]);
    assert_has(
        &text,
        &[
            "    #[kafka(versions = \"0+\", entity_type = \"brokerId\")]",
            "    pub replica_nodes: BrokerIds,",
        ],
    );
    let committed = kwire_tests::workspace_root().join("messages/src/api/metadata.rs");
    let committed = std::fs::read_to_string(&committed).expect("metadata.rs readable");
    assert_eq!(code_lines(&text), code_lines(&committed));
}
