//! Our JSON form as Kafka's converter writes the same value, and where two JSON
//! values first differ.
//!
//! Kafka's converter, asked not to serialize records (as its request logging
//! does), writes a records field as its size, `<name>SizeInBytes`, instead of the
//! bytes: so ours is compared with the bytes replaced by their count. (With
//! records serialized it writes an empty string instead, which says less.)
//! Unknown tagged fields have no JSON form on either side.

use kwire::schema::{StructSchema, TypeSchema};
use serde_json::{Map, Value};

/// `ours` (a message's JSON form at `version`) with each non-null records field
/// replaced by its size in bytes, under Kafka's name for it.
pub fn as_kafka_writes(ours: &Value, schema: &StructSchema, version: i16) -> Value {
    let Value::Object(fields) = ours else {
        return ours.clone();
    };
    let mut out = fields.clone();
    for field in schema.fields {
        if !field.versions.contains(version) {
            continue;
        }
        let name = field.json_name();
        let Some(value) = fields.get(&name) else {
            continue;
        };
        match (&field.ty, value) {
            (TypeSchema::Records, Value::String(base64)) => {
                out.remove(&name);
                out.insert(format!("{name}SizeInBytes"), base64_len(base64).into());
            }
            (TypeSchema::Struct(inner), value) => {
                out.insert(name, as_kafka_writes(value, inner, version));
            }
            (TypeSchema::Array(TypeSchema::Struct(inner)), Value::Array(items)) => {
                let items = items
                    .iter()
                    .map(|item| as_kafka_writes(item, inner, version))
                    .collect();
                out.insert(name, Value::Array(items));
            }
            _ => {}
        }
    }
    Value::Object(out)
}

/// How many bytes standard, padded base64 stands for.
fn base64_len(text: &str) -> usize {
    let padding = text.bytes().rev().take_while(|&b| b == b'=').count();
    (text.len() / 4 * 3).saturating_sub(padding)
}

/// The first place where `left` and `right` differ, as a JSON path with both
/// values; `None` when they are equal.
pub fn first_difference(left: &Value, right: &Value) -> Option<String> {
    difference(left, right, &mut String::from("$"))
}

fn difference(left: &Value, right: &Value, path: &mut String) -> Option<String> {
    match (left, right) {
        (Value::Object(l), Value::Object(r)) => objects(l, r, path),
        (Value::Array(l), Value::Array(r)) if l.len() == r.len() => {
            l.iter().zip(r).enumerate().find_map(|(i, (l, r))| {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let found = difference(l, r, path);
                path.truncate(len);
                found
            })
        }
        (l, r) if same_number(l, r) || l == r => None,
        (l, r) => Some(format!("{path}: {} vs {}", short(l), short(r))),
    }
}

fn objects(l: &Map<String, Value>, r: &Map<String, Value>, path: &mut String) -> Option<String> {
    for (key, lv) in l {
        let len = path.len();
        path.push('.');
        path.push_str(key);
        let found = match r.get(key) {
            Some(rv) => difference(lv, rv, path),
            None => Some(format!("{path}: {} vs (absent)", short(lv))),
        };
        path.truncate(len);
        if found.is_some() {
            return found;
        }
    }
    r.keys()
        .find(|key| !l.contains_key(*key))
        .map(|key| format!("{path}.{key}: (absent) vs {}", short(&r[key])))
}

/// serde_json keeps integers and floats apart (`1` is not `1.0`); a float64
/// field that holds a whole number may be written either way.
fn same_number(l: &Value, r: &Value) -> bool {
    match (l, r) {
        (Value::Number(a), Value::Number(b)) => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => (a.is_f64() || b.is_f64()) && x.to_bits() == y.to_bits(),
            _ => false,
        },
        _ => false,
    }
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 120 {
        format!(
            "{}… ({} chars)",
            &text[..text.floor_char_boundary(100)],
            text.len()
        )
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kwire::Message;
    use kwire_messages::api::ProduceRequest;
    use serde_json::json;

    #[test]
    fn records_become_their_size_at_any_depth_and_null_stays_null() {
        let ours = json!({"transactionalId": null, "acks": 1, "timeoutMs": 0, "topicData": [
            {"name": "t", "partitionData": [{"index": 0, "records": "AQID"},
                                            {"index": 1, "records": null}]}]});
        let kafka = as_kafka_writes(&ours, &ProduceRequest::SCHEMA.body, 9);
        assert_eq!(
            kafka["topicData"][0]["partitionData"],
            json!([{"index": 0, "recordsSizeInBytes": 3}, {"index": 1, "records": null}])
        );
        assert_eq!(kafka["acks"], json!(1));
    }

    #[test]
    fn base64_lengths_count_the_padding() {
        assert_eq!(
            [
                base64_len(""),
                base64_len("AQ=="),
                base64_len("AQI="),
                base64_len("AQID")
            ],
            [0, 1, 2, 3]
        );
    }

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let left = json!({"a": [{"b": 1}, {"b": 2}], "c": 1.0});
        assert_eq!(first_difference(&left, &left.clone()), None);
        assert_eq!(
            first_difference(&left, &json!({"a": [{"b": 1}, {"b": 2}], "c": 1})),
            None
        );
        assert_eq!(
            first_difference(&left, &json!({"a": [{"b": 1}, {"b": 3}], "c": 1.0})).unwrap(),
            "$.a[1].b: 2 vs 3"
        );
        assert_eq!(
            first_difference(&left, &json!({"a": [{"b": 1}, {"b": 2}]})).unwrap(),
            "$.c: 1.0 vs (absent)"
        );
        assert_eq!(
            first_difference(&json!({}), &json!({"d": null})).unwrap(),
            "$.d: (absent) vs null"
        );
    }
}
