//! Semantic verification of one frame: decode it, re-encode the value, decode the
//! re-encoded bytes, and require the same value back.
//!
//! Reading and checking are separate steps: the forwarding path needs only the
//! decoded value (to match responses, find addresses), and the check can then run
//! after the frame is on its way ([`crate::verify_queue`]).
//!
//! Why values and not bytes: real brokers write non-canonical bytes that mean the
//! same thing (tansu writes tagged fields that hold their defaults, which Kafka
//! leaves out), so the re-encoded bytes may differ from the original while the
//! message is the same. What must hold is that this crate reads what it writes.

use std::fmt::{self, Write as _};

use bytes::Bytes;
use kwire::wire::ChunkedBytes;
use kwire_messages::frame::{RequestFrame, TrailingBytes};
use kwire_messages::{frame, ApiKey, FrameError, Request, RequestHeader, Response, ResponseHeader};
use kwire_net::negotiation::read_api_versions_response;

use crate::error::chain;

/// A request as read.
#[derive(Debug)]
pub struct DecodedRequest {
    /// Its header.
    pub header: RequestHeader,
    /// Its body.
    pub body: Request,
    /// Bytes after the body, skipped as Kafka's broker skips them (librdkafka 2.16
    /// sends three after a MetadataRequest v12).
    pub ignored: usize,
}

/// A response as read.
#[derive(Debug)]
pub struct DecodedResponse {
    /// Its header.
    pub header: ResponseHeader,
    /// Its body.
    pub body: Response,
    /// The version the body was read at: the request's, except for an ApiVersions
    /// response a broker wrote at v0 because it lacks the version asked.
    pub version: i16,
}

/// The outcome of checking a decoded frame against its re-encoding.
#[derive(Debug)]
pub enum Verdict {
    /// The re-encoding decodes to the same value.
    Verified {
        /// Whether the re-encoding is also the same bytes. Not required (real
        /// brokers write non-canonical bytes), but worth a log field: it shows
        /// where byte comparison would have cried wolf.
        canonical: bool,
    },
    /// The re-encoding does not give the same value back.
    Mismatch {
        /// What went wrong.
        why: String,
        /// The re-encoded frame, when encoding worked.
        reencoded: Option<Bytes>,
    },
}

/// Decodes a request's body, `parsed` being its header.
///
/// The body is read tolerantly ([`TrailingBytes::Ignore`]), as a broker reads it: a
/// proxy that refused what brokers accept would fail real clients. The re-encoded
/// frame is then read strictly ([`check_request`]), since it is ours.
pub fn read_request(parsed: &RequestFrame) -> Result<DecodedRequest, String> {
    let read = parsed
        .decode::<Request>(TrailingBytes::Ignore)
        .map_err(|error| chain(&error))?;
    Ok(DecodedRequest {
        header: parsed.header().clone(),
        body: read.body,
        ignored: read.ignored,
    })
}

/// Re-encodes a decoded request, `frame` as received, and reads the re-encoding
/// back.
pub fn check_request(frame: &Bytes, decoded: &DecodedRequest) -> Verdict {
    check(
        frame,
        (&decoded.header, &decoded.body),
        || frame::encode_any_request_vectored(&decoded.header, &decoded.body),
        frame::decode_any_request,
    )
}

/// Decodes a response to a request with `api_key` made at `version`.
pub fn read_response(frame: &Bytes, api_key: i16, version: i16) -> Result<DecodedResponse, String> {
    let api = ApiKey::from_i16(api_key).map_err(|error| chain(&error))?;
    read_response_frame(frame, api, version).map_err(|error| chain(&error))
}

/// Re-encodes a decoded response, `frame` as received, and reads the re-encoding
/// back.
pub fn check_response(frame: &Bytes, decoded: &DecodedResponse) -> Verdict {
    check(
        frame,
        (&decoded.header, &decoded.body),
        || frame::encode_any_response_vectored(&decoded.header, &decoded.body, decoded.version),
        |bytes| frame::decode_any_response(bytes, decoded.body.api(), decoded.version),
    )
}

/// Re-encodes `decoded` with `encode`, and unless that gives `frame`'s own bytes,
/// reads the re-encoding back with `decode` and compares.
fn check<H: PartialEq + fmt::Debug, B: PartialEq + fmt::Debug>(
    frame: &Bytes,
    (header, body): (&H, &B),
    encode: impl FnOnce() -> Result<ChunkedBytes, FrameError>,
    decode: impl FnOnce(&Bytes) -> Result<(H, B), FrameError>,
) -> Verdict {
    let reencoded = match encode() {
        // Vectored: the records of a Produce or Fetch are attached from the
        // decoded value, which holds slices of `frame`, so they are neither copied
        // nor read again to compare (the same memory is the same bytes).
        Ok(chunks) if chunks == frame[..] => return Verdict::Verified { canonical: true },
        // Other bytes, which may still mean the same: real brokers write
        // non-canonical forms. One buffer, to decode.
        Ok(chunks) => chunks.to_bytes(),
        Err(error) => {
            return Verdict::Mismatch {
                why: format!("the decoded value does not re-encode: {}", chain(&error)),
                reencoded: None,
            }
        }
    };
    match reread_difference(header, body, decode(&reencoded)) {
        None => Verdict::Verified { canonical: false },
        Some(why) => Verdict::Mismatch {
            why,
            reencoded: Some(reencoded),
        },
    }
}

/// How the re-encoded frame reads back differently from what was decoded, if it
/// does.
fn reread_difference<H: PartialEq + fmt::Debug, B: PartialEq + fmt::Debug>(
    header: &H,
    body: &B,
    reread: Result<(H, B), FrameError>,
) -> Option<String> {
    match reread {
        Err(error) => Some(format!(
            "the re-encoded frame does not decode: {}",
            chain(&error)
        )),
        Ok((h, _)) if h != *header => Some(format!("the re-encoded header reads back as {h:?}")),
        Ok((_, b)) if b != *body => Some(format!(
            "the re-encoded body reads back differently: {}",
            difference(body, &b)
        )),
        Ok(_) => None,
    }
}

/// Reads a response frame strictly (every byte must belong to the body).
fn read_response_frame(
    frame: &Bytes,
    api: ApiKey,
    version: i16,
) -> Result<DecodedResponse, FrameError> {
    if api != ApiKey::ApiVersions {
        let (header, body) = frame::decode_any_response(frame, api, version)?;
        return Ok(DecodedResponse {
            header,
            body,
            version,
        });
    }
    // ApiVersions: header v0 whatever the version (KIP-511), and a broker that lacks
    // the version asked answers with a v0 body carrying error 35, which the client
    // reads and retries from. That is the protocol working, not a mismatch.
    let (header, body) = frame::split_response(frame, api.response_header_version(version))?;
    let (body, read_at) = read_api_versions_response(&body, version)?;
    Ok(DecodedResponse {
        header,
        body: Response::ApiVersions(body),
        version: read_at,
    })
}

/// Where two values' `Debug` forms first differ, with some context: enough to name
/// the field of a mismatch without printing a whole Fetch response.
fn difference(original: &impl fmt::Debug, reread: &impl fmt::Debug) -> String {
    const CONTEXT: usize = 60;
    let original: Vec<char> = format!("{original:?}").chars().collect();
    let reread: Vec<char> = format!("{reread:?}").chars().collect();
    let at = original
        .iter()
        .zip(&reread)
        .position(|(a, b)| a != b)
        .unwrap_or(original.len().min(reread.len()));
    let start = at.saturating_sub(CONTEXT);
    let window = |text: &[char]| -> String {
        text.iter()
            .skip(start)
            .take(2 * CONTEXT)
            .collect::<String>()
    };
    format!(
        "at character {at}, decoded …{}… but re-read …{}…",
        window(&original),
        window(&reread)
    )
}

/// Up to `max` bytes of `bytes` as hex, for logs that let a mismatch be replayed.
pub fn hex(bytes: &[u8], max: usize) -> String {
    let mut out = String::with_capacity(2 * bytes.len().min(max) + 16);
    for byte in bytes.iter().take(max) {
        let _ = write!(out, "{byte:02x}");
    }
    if bytes.len() > max {
        let _ = write!(out, "… ({} bytes)", bytes.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unhex(hex: &str) -> Bytes {
        (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect::<Vec<u8>>()
            .into()
    }

    /// tansu 0.6.0's answer to librdkafka 2.16's FetchRequest v16 (correlation id 8),
    /// read off the socket with strace on 2026-11-30: it ends with tag 0
    /// (NodeEndpoints) holding an empty array, its default, which Kafka leaves out.
    const TANSU_FETCH_V16: &str = "000000700000000800000000000000000000000201a22e82cdde7732\
        a7cae2b604bef5550300000002000000000000000000000000000000000000000000000000000001ffff\
        ffff010000000003000000000000000000010000000000000001000000000000000001ffffffff010000\
        01000101";

    #[test]
    fn non_canonical_bytes_with_the_same_meaning_verify() {
        let frame = unhex(TANSU_FETCH_V16);
        let decoded = read_response(&frame, 1, 16).unwrap();
        assert_eq!(decoded.header.correlation_id, 8);
        assert!(matches!(decoded.body, Response::Fetch(_)));
        match check_response(&frame, &decoded) {
            Verdict::Verified { canonical } => assert!(!canonical),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_api_versions_v0_fallback_is_not_a_mismatch() {
        // noida-db 0.2.3's answer to ApiVersions v9: a v0 body with error 35.
        let frame = unhex("0000001000000007002300000001001200000003");
        let decoded = read_response(&frame, 18, 9).unwrap();
        assert_eq!(decoded.version, 0);
        match check_response(&frame, &decoded) {
            Verdict::Verified { canonical } => assert!(canonical),
            other => panic!("{other:?}"),
        }
    }

    /// A Produce is verified against its own records: the re-encoding attaches the
    /// decoded records, slices of the frame, so the comparison finds the same
    /// memory there and neither copies nor reads the megabyte again.
    #[test]
    fn a_produce_verifies_with_its_records_attached_from_the_frame() {
        use kwire::Records;
        use kwire_messages::api::produce::{
            PartitionProduceData, ProduceRequest, TopicProduceData,
        };
        let request = ProduceRequest::default().with_topic_data(vec![TopicProduceData::default()
            .with_name("orders".into())
            .with_partition_data(vec![PartitionProduceData::default()
                .with_records(Some(Records(Bytes::from(vec![7u8; 1 << 20]))))])]);
        let header = RequestHeader::default()
            .with_request_api_key(ApiKey::Produce.key())
            .with_request_api_version(9)
            .with_correlation_id(4);
        let frame = frame::encode_request(&header, &request).unwrap();
        let decoded = read_request(&RequestFrame::parse(&frame).unwrap()).unwrap();

        let reencoded = frame::encode_any_request_vectored(&decoded.header, &decoded.body).unwrap();
        let inside = frame.as_ptr_range();
        let attached = reencoded
            .chunks()
            .filter(|c| inside.contains(&c.as_ptr()))
            .count();
        assert_eq!(attached, 1, "the records are the frame's own bytes");
        match check_request(&frame, &decoded) {
            Verdict::Verified { canonical } => assert!(canonical),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn garbage_is_undecodable_not_a_panic() {
        let frame = unhex("00000007000000010000ff");
        assert!(read_response(&frame, 3, 12).is_err());
        assert!(read_response(&frame, 999, 0).is_err());
    }

    #[test]
    fn difference_points_at_the_first_change() {
        let text = difference(&"port: 9092, host", &"port: 9093, host");
        assert!(text.starts_with("at character 10,"), "{text}");
    }
}
