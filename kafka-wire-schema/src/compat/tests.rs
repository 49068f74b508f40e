//! One test (at least) per rule, each on two small inline schemas: the released one
//! and a changed one. Findings are compared as printed, so a test reads like the
//! command line's output.

use std::path::Path;

use super::{compare, compare_sets, compare_struct, Rule, Types};
use crate::read::{load_text, SchemaMessage};

/// A request named `M` (API key 1000) with these versions and fields.
fn request(valid: &str, flexible: &str, fields: &str) -> String {
    message("M", "request", valid, flexible, fields)
}

/// A message of any kind; requests and responses get API key 1000.
fn message(name: &str, kind: &str, valid: &str, flexible: &str, fields: &str) -> String {
    let key = if kind == "request" || kind == "response" {
        r#""apiKey": 1000,"#
    } else {
        ""
    };
    format!(
        r#"{{ {key} "type": "{kind}", "name": "{name}",
             "validVersions": "{valid}", "flexibleVersions": "{flexible}",
             "fields": [ {fields} ] }}"#
    )
}

fn load(text: &str, side: &str) -> SchemaMessage {
    match load_text(text, Path::new(side)) {
        Ok(message) => message,
        Err(error) => panic!("the test's {side} schema does not read: {error}\n{text}"),
    }
}

/// The findings between `old` and `new`, as printed.
fn findings(old: &str, new: &str) -> Vec<String> {
    let (old, new) = (load(old, "old"), load(new, "new"));
    match compare(&old, &new) {
        Ok(found) => found.iter().map(ToString::to_string).collect(),
        Err(error) => panic!("the schemas do not compare: {error}"),
    }
}

/// The same fields before and after, with only the versions changed.
fn versions(old: &str, new: &str, fields: &str) -> Vec<String> {
    findings(&request(old, "none", fields), &request(new, "none", fields))
}

const SECONDS: &str = r#"{ "name": "Seconds", "type": "int32", "versions": "0+" }"#;

// ---------------------------------------------------------------------------
// Versions and flexibility

#[test]
fn a_removed_version_is_reported() {
    assert_eq!(
        versions("0-3", "1-3", SECONDS),
        ["M, version 0: version removed"]
    );
}

#[test]
fn added_versions_are_fine() {
    assert!(versions("0-2", "0-5", SECONDS).is_empty());
}

#[test]
fn versions_merge_into_ranges_of_consecutive_versions() {
    // Versions 0, 1 and 3 are gone: two runs, two findings.
    assert_eq!(
        versions("0-3", "2", SECONDS),
        [
            "M, versions 0-1: version removed",
            "M, version 3: version removed"
        ]
    );
}

#[test]
fn a_changed_flexibility_is_reported_once_per_version() {
    let fields = r#"{ "name": "Note", "type": "string", "versions": "0+" }"#;
    assert_eq!(
        findings(&request("0-3", "2+", fields), &request("0-3", "3+", fields)),
        ["M, version 2: flexibility changed (flexible -> not flexible)"]
    );
    assert_eq!(
        findings(&request("0-3", "3+", fields), &request("0-3", "1+", fields)),
        ["M, versions 1-2: flexibility changed (not flexible -> flexible)"]
    );
}

#[test]
fn an_unstable_latest_version_is_not_compared() {
    let old = r#"{ "apiKey": 1000, "type": "request", "name": "M",
        "validVersions": "0-2", "flexibleVersions": "none", "latestVersionUnstable": true,
        "fields": [ { "name": "Seconds", "type": "int32", "versions": "0+" } ] }"#;
    // Version 2 was never released: changing it, or dropping it, is fine.
    let changed = request(
        "0-1",
        "none",
        r#"{ "name": "Seconds", "type": "int32", "versions": "0+" }"#,
    );
    assert!(findings(old, &changed).is_empty());
    let retyped = request(
        "0-2",
        "none",
        r#"{ "name": "Seconds", "type": "int32", "versions": "0-1" },
           { "name": "Millis", "type": "int64", "versions": "2+" }"#,
    );
    assert!(findings(old, &retyped).is_empty());
    // Version 1 was released.
    assert_eq!(
        findings(old, &request("0", "none", SECONDS)),
        ["M, version 1: version removed"]
    );
}

#[test]
fn message_level_changes_are_reported() {
    let old = request("0-1", "none", SECONDS);
    let new = message("N", "response", "0-1", "none", SECONDS).replace("1000", "1001");
    assert_eq!(
        findings(&old, &new),
        [
            "M, versions 0-1: message renamed (M -> N)",
            "M, versions 0-1: kind changed (request -> response)",
            "M, versions 0-1: API key changed (1000 -> 1001)",
        ]
    );
}

// ---------------------------------------------------------------------------
// Fields in the body

#[test]
fn a_field_gone_from_the_schema_is_removed() {
    let old = request(
        "0-2",
        "none",
        r#"{ "name": "Seconds", "type": "int32", "versions": "0+" },
           { "name": "Note", "type": "string", "versions": "1+" }"#,
    );
    let new = request("0-2", "none", SECONDS);
    assert_eq!(
        findings(&old, &new),
        ["M.Note, versions 1-2: field removed"]
    );
}

#[test]
fn a_field_whose_versions_narrow_is_removed_from_the_versions_it_left() {
    let old = request("0-2", "none", SECONDS);
    let new = request(
        "0-2",
        "none",
        r#"{ "name": "Seconds", "type": "int32", "versions": "0-1" }"#,
    );
    assert_eq!(
        findings(&old, &new),
        ["M.Seconds, version 2: field removed (versions 0+ -> 0-1)"]
    );
}

#[test]
fn a_field_added_to_a_released_versions_body_breaks_it() {
    let old = request("0-2", "none", SECONDS);
    let new = request(
        "0-2",
        "none",
        r#"{ "name": "Seconds", "type": "int32", "versions": "0+" },
           { "name": "Note", "type": "string", "versions": "1+" }"#,
    );
    assert_eq!(
        findings(&old, &new),
        ["M.Note, versions 1-2: field added to a released version"]
    );
}

#[test]
fn a_field_whose_versions_widen_is_added_to_the_versions_it_joined() {
    let old = request(
        "0-2",
        "none",
        r#"{ "name": "Note", "type": "string", "versions": "2+" }"#,
    );
    let new = request(
        "0-2",
        "none",
        r#"{ "name": "Note", "type": "string", "versions": "1+" }"#,
    );
    assert_eq!(
        findings(&old, &new),
        ["M.Note, version 1: field added to a released version (versions 2+ -> 1+)"]
    );
}

#[test]
fn a_field_added_at_a_new_version_or_as_a_tagged_field_is_fine() {
    let old = request("0-2", "1+", SECONDS);
    let new = request(
        "0-3",
        "1+",
        r#"{ "name": "Seconds", "type": "int32", "versions": "0+" },
           { "name": "Note", "type": "string", "versions": "3+" },
           { "name": "Hint", "type": "string", "versions": "1+", "taggedVersions": "1+",
             "tag": 0, "nullableVersions": "1+", "default": "null" }"#,
    );
    assert!(findings(&old, &new).is_empty());
}

#[test]
fn a_field_with_a_new_name_at_the_same_place_is_renamed() {
    let new = request(
        "0-2",
        "none",
        r#"{ "name": "HoldSeconds", "type": "int32", "versions": "0+" }"#,
    );
    let found = findings(&request("0-2", "none", SECONDS), &new);
    assert_eq!(
        found,
        ["M.Seconds, versions 0-2: field renamed (Seconds -> HoldSeconds)"]
    );
}

#[test]
fn a_renamed_field_is_still_compared() {
    let new = request(
        "0-2",
        "none",
        r#"{ "name": "HoldSeconds", "type": "int64", "versions": "0+" }"#,
    );
    assert_eq!(
        findings(&request("0-2", "none", SECONDS), &new),
        [
            "M.Seconds, versions 0-2: field renamed (Seconds -> HoldSeconds)",
            "M.Seconds, versions 0-2: type changed (int32 -> int64)",
        ]
    );
}

#[test]
fn a_tagged_field_with_a_new_name_and_the_same_tag_is_renamed() {
    let tagged = |name: &str| {
        request(
            "0-2",
            "0+",
            &format!(
                r#"{{ "name": "{name}", "type": "int32", "versions": "1+",
                     "taggedVersions": "1+", "tag": 3 }}"#
            ),
        )
    };
    assert_eq!(
        findings(&tagged("Hint"), &tagged("Advice")),
        ["M.Hint, versions 1-2: field renamed (Hint -> Advice)"]
    );
}

#[test]
fn fields_in_another_order_are_moved() {
    let a = r#"{ "name": "A", "type": "int32", "versions": "0+" }"#;
    let b = r#"{ "name": "B", "type": "int32", "versions": "0+" }"#;
    assert_eq!(
        findings(
            &request("0-1", "none", &format!("{a}, {b}")),
            &request("0-1", "none", &format!("{b}, {a}"))
        ),
        ["M.B, versions 0-1: field moved (position 1 -> 0)"]
    );
}

// ---------------------------------------------------------------------------
// Types and nullability

fn one_field(ty: &str, extra: &str) -> String {
    request(
        "0-1",
        "none",
        &format!(r#"{{ "name": "F", "type": "{ty}", "versions": "0+"{extra} }}"#),
    )
}

#[test]
fn a_primitive_type_changed_is_reported() {
    assert_eq!(
        findings(&one_field("int32", ""), &one_field("int64", "")),
        ["M.F, versions 0-1: type changed (int32 -> int64)"]
    );
}

#[test]
fn an_array_that_becomes_a_scalar_is_a_type_change() {
    assert_eq!(
        findings(&one_field("[]int32", ""), &one_field("int32", "")),
        ["M.F, versions 0-1: type changed ([]int32 -> int32)"]
    );
}

#[test]
fn a_struct_that_becomes_a_primitive_is_a_type_change() {
    let inline = r#", "fields": [ { "name": "Row", "type": "int32", "versions": "0+" } ]"#;
    assert_eq!(
        findings(&one_field("Seat", inline), &one_field("int32", "")),
        ["M.F, versions 0-1: type changed (Seat -> int32)"]
    );
}

#[test]
fn a_struct_renamed_with_the_same_fields_is_the_same_type() {
    let inline = r#", "fields": [ { "name": "Row", "type": "int32", "versions": "0+" } ]"#;
    assert!(findings(&one_field("[]Seat", inline), &one_field("[]Place", inline)).is_empty());
}

#[test]
fn a_nested_field_is_reported_at_its_path() {
    let seats = |row: &str| {
        request(
            "0-1",
            "none",
            &format!(
                r#"{{ "name": "Seats", "type": "[]Seat", "versions": "0+", "fields": [
                     {{ "name": "Row", "type": "{row}", "versions": "0+" }} ] }}"#
            ),
        )
    };
    assert_eq!(
        findings(&seats("int16"), &seats("int32")),
        ["M.Seats.Row, versions 0-1: type changed (int16 -> int32)"]
    );
}

#[test]
fn a_common_struct_is_compared_field_by_field() {
    let with = |row: &str| {
        format!(
            r#"{{ "apiKey": 1000, "type": "request", "name": "M",
                 "validVersions": "0-1", "flexibleVersions": "none",
                 "fields": [ {{ "name": "Seats", "type": "[]Seat", "versions": "0+" }} ],
                 "commonStructs": [ {{ "name": "Seat", "versions": "0+", "fields": [
                   {{ "name": "Row", "type": "{row}", "versions": "0+" }} ] }} ] }}"#
        )
    };
    assert_eq!(
        findings(&with("int16"), &with("string")),
        ["M.Seats.Row, versions 0-1: type changed (int16 -> string)"]
    );
}

#[test]
fn nullability_narrowed_and_widened_are_reported() {
    let null =
        |versions: &str| one_field("string", &format!(r#", "nullableVersions": "{versions}""#));
    assert_eq!(
        findings(&null("0+"), &null("1+")),
        ["M.F, version 0: nullability changed (nullable -> not nullable)"]
    );
    assert_eq!(
        findings(&one_field("string", ""), &null("0+")),
        ["M.F, versions 0-1: nullability changed (not nullable -> nullable)"]
    );
}

#[test]
fn a_string_whose_own_compact_encoding_changes_is_reported() {
    let flexible = |extra: &str| {
        request(
            "0-1",
            "0+",
            &format!(r#"{{ "name": "F", "type": "string", "versions": "0+"{extra} }}"#),
        )
    };
    assert_eq!(
        findings(&flexible(r#", "flexibleVersions": "none""#), &flexible("")),
        ["M.F, versions 0-1: field's compact encoding changed \
             (flexibleVersions none -> (the message's))"]
    );
    // Where it matches the message's flexibility, saying so is no change.
    assert!(findings(&flexible(""), &flexible(r#", "flexibleVersions": "0+""#)).is_empty());
}

// ---------------------------------------------------------------------------
// Tagged fields

fn tagged_request(field: &str) -> String {
    request("0-2", "1+", &format!("{SECONDS}, {field}"))
}

#[test]
fn a_field_moved_into_the_tagged_section_changes_tagging() {
    let body = r#"{ "name": "Note", "type": "int32", "versions": "1+" }"#;
    let tagged = r#"{ "name": "Note", "type": "int32", "versions": "1+",
                      "taggedVersions": "1+", "tag": 0 }"#;
    assert_eq!(
        findings(&tagged_request(body), &tagged_request(tagged)),
        ["M.Note, versions 1-2: tagging changed (untagged -> tagged)"]
    );
    assert_eq!(
        findings(&tagged_request(tagged), &tagged_request(body)),
        ["M.Note, versions 1-2: tagging changed (tagged -> untagged)"]
    );
}

#[test]
fn a_renumbered_tag_is_reported() {
    let tag = |n: u8| {
        tagged_request(&format!(
            r#"{{ "name": "Note", "type": "int32", "versions": "1+",
                 "taggedVersions": "1+", "tag": {n} }}"#
        ))
    };
    assert_eq!(
        findings(&tag(0), &tag(4)),
        ["M.Note, versions 1-2: tag changed (0 -> 4)"]
    );
}

#[test]
fn a_tagged_field_removed_is_reported() {
    let tagged = r#"{ "name": "Note", "type": "int32", "versions": "1+",
                      "taggedVersions": "1+", "tag": 0 }"#;
    assert_eq!(
        findings(&tagged_request(tagged), &request("0-2", "1+", SECONDS)),
        ["M.Note, versions 1-2: field removed (tagged)"]
    );
}

#[test]
fn a_tagged_fields_default_is_what_a_reader_gets_when_it_is_left_out() {
    let default = |d: i32| {
        tagged_request(&format!(
            r#"{{ "name": "Note", "type": "int32", "versions": "1+",
                 "taggedVersions": "1+", "tag": 0, "default": {d} }}"#
        ))
    };
    // Version 0 lacks the field altogether: its readers get the default too.
    assert_eq!(
        findings(&default(-1), &default(0)),
        ["M.Note, versions 0-2: default changed (-1 -> 0)"]
    );
}

// ---------------------------------------------------------------------------
// Defaults

#[test]
fn a_default_changed_for_a_version_that_lacks_the_field_is_reported() {
    let with = |d: &str| {
        request(
            "0-2",
            "none",
            &format!(r#"{{ "name": "Note", "type": "int32", "versions": "2+", "default": {d} }}"#),
        )
    };
    // Versions 0 and 1 read no Note: their readers get the default.
    assert_eq!(
        findings(&with("-1"), &with("\"7\"")),
        ["M.Note, versions 0-1: default changed (-1 -> 7)"]
    );
}

#[test]
fn a_default_changed_where_every_released_version_has_the_field_is_fine() {
    let with = |d: &str| {
        request(
            "0-2",
            "none",
            &format!(r#"{{ "name": "Note", "type": "int32", "versions": "0+", "default": {d} }}"#),
        )
    };
    // Every version's bytes carry the value: the default is only where a writer starts.
    assert!(findings(&with("-1"), &with("7")).is_empty());
}

#[test]
fn a_renamed_fields_default_is_compared_where_a_version_lacks_it() {
    let with = |name: &str, d: i32| {
        request(
            "0-4",
            "none",
            &format!(
                r#"{{ "name": "{name}", "type": "int32", "versions": "3+", "default": {d} }}"#
            ),
        )
    };
    // Kafka's TxnOffsetCommitRequest renamed GenerationId (3+, default -1) to
    // GenerationIdOrMemberEpoch, keeping the default versions 0-2 read.
    assert_eq!(
        findings(&with("GenerationId", -1), &with("GenerationIdOrEpoch", -1)),
        ["M.GenerationId, versions 3-4: field renamed (GenerationId -> GenerationIdOrEpoch)"]
    );
    assert_eq!(
        findings(&with("GenerationId", -1), &with("GenerationIdOrEpoch", 0)),
        [
            "M.GenerationId, versions 0-2: default changed (-1 -> 0)",
            "M.GenerationId, versions 3-4: field renamed (GenerationId -> GenerationIdOrEpoch)",
        ]
    );
}

#[test]
fn a_field_removed_and_another_added_at_its_place_are_not_a_rename_of_defaults() {
    let old = request(
        "0-4",
        "none",
        r#"{ "name": "Old", "type": "int32", "versions": "0-1", "default": -1 }"#,
    );
    let new = request(
        "0-4",
        "none",
        r#"{ "name": "New", "type": "int32", "versions": "5+", "default": 0 }"#,
    );
    assert_eq!(findings(&old, &new), ["M.Old, versions 0-1: field removed"]);
}

#[test]
fn the_same_default_written_another_way_is_no_change() {
    let with = |d: &str| {
        request(
            "0-2",
            "none",
            &format!(r#"{{ "name": "Note", "type": "int32", "versions": "2+", "default": {d} }}"#),
        )
    };
    assert!(findings(&with("-1"), &with("\"-1\"")).is_empty());
    assert!(findings(&with("0"), &with("\"0\"")).is_empty());
}

#[test]
fn a_defaulted_struct_holds_its_fields_defaults() {
    // A tagged struct left out (or a version lacking it) reads as the struct with
    // each field at its default, as Kafka's FetchResponse `CurrentLeader` does.
    let leader = |epoch: &str, null: &str| {
        request(
            "0-2",
            "1+",
            &format!(
                r#"{{ "name": "Leader", "type": "LeaderAndEpoch", "versions": "1+",
                     "taggedVersions": "1+", "tag": 0{null}, "fields": [
                   {{ "name": "LeaderId", "type": "int32", "versions": "0+", "default": -1 }},
                   {{ "name": "LeaderEpoch", "type": "int32", "versions": "0+",
                     "default": {epoch} }} ] }}"#
            ),
        )
    };
    assert_eq!(
        findings(&leader("-1", ""), &leader("0", "")),
        ["M.Leader.LeaderEpoch, versions 0-2: default changed (-1 -> 0)"]
    );
    // A struct that defaults to null holds nothing.
    let null = r#", "nullableVersions": "1+", "default": "null""#;
    assert!(findings(&leader("-1", null), &leader("0", null)).is_empty());
}

#[test]
fn an_arrays_element_defaults_are_not_what_a_reader_gets() {
    // A missing array is empty: its elements' defaults are never read.
    let seats = |row: &str| {
        request(
            "0-1",
            "none",
            &format!(
                r#"{{ "name": "Seats", "type": "[]Seat", "versions": "1+", "fields": [
                     {{ "name": "Row", "type": "int32", "versions": "1+", "default": {row} }} ] }}"#
            ),
        )
    };
    assert!(findings(&seats("1"), &seats("2")).is_empty());
}

#[test]
fn a_struct_within_itself_is_an_error_not_a_crash() {
    let tree = r#"{ "type": "data", "name": "Tree", "validVersions": "0",
        "flexibleVersions": "none",
        "fields": [ { "name": "Root", "type": "Node", "versions": "0+" } ],
        "commonStructs": [ { "name": "Node", "versions": "0+", "fields": [
          { "name": "Children", "type": "[]Node", "versions": "0+" } ] } ] }"#;
    let tree = load(tree, "old");
    let error = compare(&tree, &tree).expect_err("no end to the nesting");
    assert!(error.reason.contains("nest deeper"), "{error}");
}

// ---------------------------------------------------------------------------
// Errors

#[test]
fn a_range_that_does_not_read_is_an_error_not_a_finding() {
    let old = load(&request("0-2", "none", SECONDS), "old");
    let new = load(
        &request(
            "0-2",
            "none",
            r#"{ "name": "Seconds", "type": "int32", "versions": "zero+" }"#,
        ),
        "new",
    );
    let error = compare(&old, &new).expect_err("a bad range fails");
    assert_eq!(error.path, "M.Seconds");
    assert!(error.reason.starts_with("`versions`"), "{error}");
    let bad_message = load(&request("2-0x", "none", SECONDS), "new");
    let error = compare(&old, &bad_message).expect_err("a bad range fails");
    assert_eq!(error.path, "M");
    assert!(error.reason.starts_with("`validVersions`"), "{error}");
}

#[test]
fn an_unknown_struct_type_is_an_error() {
    let old = load(&one_field("Seat", ""), "old");
    let new = load(&one_field("Seat", ""), "new");
    let error = compare(&old, &new).expect_err("an unknown type fails");
    assert_eq!(error.path, "M.F");
}

// ---------------------------------------------------------------------------
// Types skipped, and structs on their own

#[test]
fn with_types_skipped_only_the_attributes_are_compared() {
    let old = load(&one_field("int32", ""), "old");
    let new = load(&one_field("int64", r#", "nullableVersions": "1+""#), "new");
    let found = super::compare_with(&old, &new, Types::Skipped).expect("they compare");
    let rules: Vec<Rule> = found.iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::NullabilityChanged]);
}

#[test]
fn a_struct_is_compared_with_its_released_definition() {
    let released = load(
        &request(
            "0-1",
            "none",
            r#"{ "name": "Seats", "type": "[]Seat", "versions": "0+", "fields": [
                 { "name": "Row", "type": "int16", "versions": "0+" } ] }"#,
        ),
        "old",
    );
    let changed = load(
        &request(
            "0-1",
            "none",
            r#"{ "name": "Row", "type": "int16", "versions": "1+" }"#,
        ),
        "new",
    );
    let found = compare_struct(&released, "Seat", &changed.fields, Types::Compared)
        .expect("the struct is there");
    let printed: Vec<String> = found.iter().map(ToString::to_string).collect();
    assert_eq!(
        printed,
        ["Seat.Row, version 0: field removed (versions 0+ -> 1+)"]
    );
    assert!(compare_struct(&released, "Nowhere", &changed.fields, Types::Compared).is_err());
}

// ---------------------------------------------------------------------------
// Sets

fn set(texts: &[String], side: &str) -> Vec<SchemaMessage> {
    texts.iter().map(|text| load(text, side)).collect()
}

#[test]
fn a_set_matches_a_renamed_message_by_its_api_key() {
    let old = set(
        &[message("ListThingsRequest", "request", "0", "0+", SECONDS)],
        "old",
    );
    let new = set(
        &[message(
            "ListStuffRequest",
            "request",
            "0-1",
            "0+",
            r#"{ "name": "Secs", "type": "int32", "versions": "0+" }"#,
        )],
        "new",
    );
    let compared = compare_sets(&old, &new);
    let printed: Vec<String> = compared.findings.iter().map(ToString::to_string).collect();
    assert_eq!(
        printed,
        [
            "ListThingsRequest, version 0: message renamed (ListThingsRequest -> ListStuffRequest)",
            "ListThingsRequest.Seconds, version 0: field renamed (Seconds -> Secs)",
        ]
    );
    assert!(compared.errors.is_empty());
    assert!(compared.added.is_empty());
}

#[test]
fn a_set_reports_removed_messages_skips_retired_ones_and_lists_added_ones() {
    let old = set(
        &[
            message("Gone", "data", "0-1", "none", SECONDS),
            message("Retired", "data", "none", "none", ""),
            message("Kept", "data", "0", "none", SECONDS),
        ],
        "old",
    );
    let new = set(
        &[
            message("Kept", "data", "0", "none", SECONDS),
            message("Fresh", "data", "0", "none", SECONDS),
            message("AlsoRetired", "data", "none", "none", ""),
        ],
        "new",
    );
    let compared = compare_sets(&old, &new);
    let printed: Vec<String> = compared.findings.iter().map(ToString::to_string).collect();
    assert_eq!(printed, ["Gone, versions 0-1: message removed"]);
    assert_eq!(compared.added, ["Fresh"]);
}

#[test]
fn a_set_takes_a_responses_unstable_latest_version_from_its_request() {
    let request = r#"{ "apiKey": 1000, "type": "request", "name": "MRequest",
        "validVersions": "0-1", "flexibleVersions": "none", "latestVersionUnstable": true,
        "fields": [] }"#;
    let old = set(
        &[
            request.to_owned(),
            message("MResponse", "response", "0-1", "none", SECONDS),
        ],
        "old",
    );
    let new = set(
        &[
            request.replace("0-1", "0"),
            message("MResponse", "response", "0", "none", SECONDS),
        ],
        "new",
    );
    let compared = compare_sets(&old, &new);
    assert!(compared.findings.is_empty(), "{:?}", compared.findings);
}

#[test]
fn a_set_keeps_errors_apart_from_findings() {
    let old = set(&[request("0-1", "none", SECONDS)], "old");
    let new = set(
        &[request(
            "0-1",
            "none",
            r#"{ "name": "Seconds", "type": "int32", "versions": "x" }"#,
        )],
        "new",
    );
    let compared = compare_sets(&old, &new);
    assert!(compared.findings.is_empty());
    assert_eq!(compared.errors.len(), 1);
    assert_eq!(compared.errors[0].path, "M.Seconds");
}

// ---------------------------------------------------------------------------
// Rules

#[test]
fn every_rule_has_a_name_that_reads_back() {
    for rule in Rule::ALL {
        assert_eq!(Rule::from_name(rule.name()), Some(rule));
        assert_eq!(rule.to_string(), rule.describe());
    }
    let breaking: Vec<Rule> = Rule::ALL.into_iter().filter(|r| !r.breaks_wire()).collect();
    assert_eq!(breaking, [Rule::MessageRenamed, Rule::FieldRenamed]);
}
