//! Judging one answer: the bytes the broker sent must be one whole frame, whose
//! body the schema walk reads to its last byte with every byte in exactly one
//! span (so nothing is skipped and nothing trails), unknown tagged fields
//! counted; and every error code the answer holds, read through its JSON form,
//! so that INVALID_REQUEST, CORRUPT_MESSAGE or UNSUPPORTED_VERSION anywhere in
//! it shows.

use std::collections::BTreeSet;

use bytes::Bytes;
use kwire::walk::{self, Item, Span};
use kwire::{MessageEnum, Reader};
use kwire_messages::frame;
use kwire_messages::{ApiKey, Response};
use serde_json::Value;

/// What an answer showed.
#[derive(Debug, Default)]
pub struct Judged {
    /// Tagged fields the schema does not know, in the header and the body.
    pub unknown_tags: usize,
    /// Every non-zero error code in the answer.
    pub errors: BTreeSet<i16>,
    /// Every error message in the answer.
    pub messages: BTreeSet<String>,
}

/// Error codes that say Kafka's parser refused the request.
pub const REFUSALS: [i16; 3] = [
    2,  // CORRUPT_MESSAGE
    35, // UNSUPPORTED_VERSION
    42, // INVALID_REQUEST
];

/// Judges `received` (what the tap kept) as the answer at `version` to a request
/// of `api` that our client decoded as `decoded`.
pub fn judge(
    api: ApiKey,
    version: i16,
    received: &Bytes,
    decoded: &Response,
) -> Result<Judged, String> {
    let length = received
        .get(..4)
        .map(|prefix| i32::from_be_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]))
        .ok_or("fewer than 4 bytes received")?;
    if usize::try_from(length).ok().map(|length| length + 4) != Some(received.len()) {
        return Err(format!(
            "received {} bytes for a frame of {length}: not exactly one frame",
            received.len()
        ));
    }
    let (header, body) = frame::split_response(received, api.response_header_version(version))
        .map_err(|error| format!("the header did not read: {error}"))?;
    let schema = Response::schema_of(api.key()).ok_or("no response schema")?;
    let mut next = 0;
    let mut gap = None;
    let mut unknown_tags = header.unknown_tagged_fields.len();
    let mut reader = Reader::new(&body);
    walk::walk(schema, version, &mut reader, &mut |span: Span<'_>| {
        if span.bytes.start != next && gap.is_none() {
            gap = Some((next, span.bytes.start));
        }
        next = span.bytes.end;
        if matches!(span.item, Item::UnknownTag { .. }) {
            unknown_tags += 1;
        }
    })
    .map_err(|error| format!("the walk stopped: {error}"))?;
    if let Some((expected, found)) = gap {
        return Err(format!("the walk skipped bytes {expected}..{found}"));
    }
    if next != body.len() || reader.remaining() != 0 {
        return Err(format!(
            "the walk ended at byte {next} of {} ({} left)",
            body.len(),
            reader.remaining()
        ));
    }
    let json = decoded
        .to_json(version)
        .map_err(|error| format!("no JSON form: {error}"))?;
    let mut errors = BTreeSet::new();
    let mut messages = BTreeSet::new();
    error_codes(&json, &mut errors, &mut messages);
    Ok(Judged {
        unknown_tags,
        errors,
        messages,
    })
}

/// Every non-zero value of a key ending in `ErrorCode` (Kafka's JSON form
/// writes `errorCode`, `partitionErrorCode`, ...), and every text of a key
/// ending in `ErrorMessage`, at any depth.
fn error_codes(value: &Value, codes: &mut BTreeSet<i16>, messages: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                let key = key.to_ascii_lowercase();
                if key.ends_with("errorcode") {
                    if let Some(code) = value.as_i64().and_then(|c| i16::try_from(c).ok()) {
                        if code != 0 {
                            codes.insert(code);
                        }
                    }
                }
                if key.ends_with("errormessage") {
                    if let Some(text) = value.as_str() {
                        messages.insert(text.to_owned());
                    }
                }
                error_codes(value, codes, messages);
            }
        }
        Value::Array(values) => values
            .iter()
            .for_each(|value| error_codes(value, codes, messages)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kwire_net::session::read_response;

    /// A Heartbeat v4 answer, as bytes: header v1 (correlation id 1, no tags),
    /// throttle 0, `error`, and `tags` tagged fields the schema does not know.
    fn heartbeat(error: i16, tags: u8) -> Bytes {
        let mut body = vec![0, 0, 0, 1, 0, 0, 0, 0, 0];
        body.extend_from_slice(&error.to_be_bytes());
        body.push(tags);
        for tag in 0..tags {
            body.extend_from_slice(&[10 + tag, 1, 0x7f]);
        }
        let mut frame = (body.len() as i32).to_be_bytes().to_vec();
        frame.extend_from_slice(&body);
        Bytes::from(frame)
    }

    fn judged(frame: &Bytes) -> Result<Judged, String> {
        let decoded = read_response(frame, ApiKey::Heartbeat, 4).map_err(|e| e.to_string())?;
        judge(ApiKey::Heartbeat, 4, frame, &decoded.body)
    }

    #[test]
    fn a_whole_frame_is_walked_its_errors_found_and_unknown_tags_counted() {
        let judged = judged(&heartbeat(42, 2)).unwrap();
        assert_eq!(judged.errors, BTreeSet::from([42]));
        assert_eq!(judged.unknown_tags, 2);
    }

    #[test]
    fn a_byte_past_the_frame_is_refused() {
        let mut bytes = heartbeat(0, 0).to_vec();
        bytes.push(0);
        let decoded = read_response(&heartbeat(0, 0), ApiKey::Heartbeat, 4).unwrap();
        let error = judge(ApiKey::Heartbeat, 4, &Bytes::from(bytes), &decoded.body).unwrap_err();
        assert!(error.contains("not exactly one frame"), "{error}");
    }
}
