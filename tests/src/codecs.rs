//! Every registered message's codec as plain functions, so that tests, benches and
//! the fuzz target can run any message known only by name or position.
//!
//! Built once through [`registry::visit_all`], the messages crate's one list: a
//! message added there is covered here without touching this file.

use std::sync::OnceLock;

use bytes::Bytes;
use kwire::schema::MessageSchema;
use kwire::wire::ChunkedBytes;
use kwire::{DecodeError, EncodeError, Message};
use kwire_messages::registry::{self, MessageVisitor};

/// Why a decode-then-encode round trip failed. Each variant's message includes its
/// cause, so it is not returned again as a `source`.
#[derive(Debug, thiserror::Error)]
pub enum RecodeError {
    /// The input did not decode.
    #[error("decode: {0}")]
    Decode(DecodeError),
    /// The decoded value did not encode again.
    #[error("encode: {0}")]
    Encode(EncodeError),
}

/// One message type's codec.
#[derive(Debug, Clone, Copy)]
pub struct Codec {
    /// The message's schema.
    pub schema: &'static MessageSchema,
    /// Decodes a body at a version and encodes the result again at that version.
    pub recode: fn(&Bytes, i16) -> Result<Bytes, RecodeError>,
    /// Decodes a body at a version and encodes the result again as chunks
    /// ([`Message::encode_vectored`]).
    pub recode_vectored: fn(&Bytes, i16) -> Result<ChunkedBytes, RecodeError>,
    /// Encodes the message's `Default` value (its schema defaults) at a version.
    pub encode_default: fn(i16) -> Result<Bytes, EncodeError>,
    /// Decodes a body and, if it decodes, checks Kafka's promise about it: the value
    /// encodes at the same version, and that encoding decodes to a value that
    /// encodes to the same bytes again (bytes, so that a NaN counts as itself);
    /// and the JSON form's: the value has one, which reads back to it (unknown
    /// tagged fields aside). `Err` describes the broken promise; an input that does
    /// not decode is `Ok`.
    pub check_decoded: fn(&Bytes, i16) -> Result<(), String>,
    /// Decodes a body at a version into Kafka's JSON form.
    pub decode_to_json: fn(&Bytes, i16) -> Result<serde_json::Value, String>,
    /// Reads Kafka's JSON form at a version and encodes the message.
    pub json_to_bytes: fn(&serde_json::Value, i16) -> Result<Bytes, String>,
    /// Decodes a body, drops its unknown tagged fields (which the JSON form cannot
    /// hold) and encodes it again: what the body's JSON form encodes to.
    pub recode_without_unknown_tags: fn(&Bytes, i16) -> Result<Bytes, String>,
    /// Reads Kafka's JSON form at a version and writes it again: what is left of a
    /// JSON value once fields the version lacks (and may drop) are gone.
    pub rewrite_json: fn(&serde_json::Value, i16) -> Result<serde_json::Value, String>,
    /// Decodes a body at one version and encodes the value at another: the rules
    /// for fields one version has and the other lacks (dropped, or refused with the
    /// field's path).
    pub transcode: fn(&Bytes, i16, i16) -> Result<Bytes, RecodeError>,
    /// Whether two bodies decode at a version to the same value, or to values
    /// that differ only in a NaN's payload, which JSON does not keep. `Err` says
    /// which one does not decode.
    pub same_value: fn(&Bytes, &Bytes, i16) -> Result<bool, String>,
}

fn transcode<M: Message>(input: &Bytes, from: i16, to: i16) -> Result<Bytes, RecodeError> {
    let message = M::decode(input, from).map_err(RecodeError::Decode)?;
    message.encode(to).map_err(RecodeError::Encode)
}

fn same_value<M: Message + PartialEq + std::fmt::Debug>(
    left: &Bytes,
    right: &Bytes,
    version: i16,
) -> Result<bool, String> {
    let left = M::decode(left, version).map_err(|e| format!("the first does not decode: {e}"))?;
    let right =
        M::decode(right, version).map_err(|e| format!("the second does not decode: {e}"))?;
    Ok(same_through_json(&left, &right))
}

fn rewrite_json<M: Message>(
    json: &serde_json::Value,
    version: i16,
) -> Result<serde_json::Value, String> {
    let message = M::from_json(json, version).map_err(|e| format!("from JSON: {e}"))?;
    message
        .to_json(version)
        .map_err(|e| format!("to JSON: {e}"))
}

fn recode_without_unknown_tags<M: Message>(input: &Bytes, version: i16) -> Result<Bytes, String> {
    let mut message = M::decode(input, version).map_err(|e| format!("decode: {e}"))?;
    kwire::json::JsonWire::drop_unknown_tags(&mut message);
    message.encode(version).map_err(|e| format!("encode: {e}"))
}

fn decode_to_json<M: Message>(input: &Bytes, version: i16) -> Result<serde_json::Value, String> {
    let message = M::decode(input, version).map_err(|e| format!("decode: {e}"))?;
    message
        .to_json(version)
        .map_err(|e| format!("to JSON: {e}"))
}

fn json_to_bytes<M: Message>(json: &serde_json::Value, version: i16) -> Result<Bytes, String> {
    let message = M::from_json(json, version).map_err(|e| format!("from JSON: {e}"))?;
    message.encode(version).map_err(|e| format!("encode: {e}"))
}

fn recode<M: Message>(input: &Bytes, version: i16) -> Result<Bytes, RecodeError> {
    let message = M::decode(input, version).map_err(RecodeError::Decode)?;
    message.encode(version).map_err(RecodeError::Encode)
}

fn recode_vectored<M: Message>(input: &Bytes, version: i16) -> Result<ChunkedBytes, RecodeError> {
    let message = M::decode(input, version).map_err(RecodeError::Decode)?;
    message
        .encode_vectored(version)
        .map_err(RecodeError::Encode)
}

fn encode_default<M: Message>(version: i16) -> Result<Bytes, EncodeError> {
    M::default().encode(version)
}

fn check_decoded<M: Message + Clone + PartialEq + std::fmt::Debug>(
    input: &Bytes,
    version: i16,
) -> Result<(), String> {
    let Ok(decoded) = M::decode(input, version) else {
        return Ok(());
    };
    let name = M::SCHEMA.name;
    let encoded = decoded
        .encode(version)
        .map_err(|e| format!("{name} v{version} decoded but does not encode: {e}"))?;
    let again = M::decode(&encoded, version).map_err(|e| {
        format!("{name} v{version} encoded {encoded:02x?} but it does not decode: {e}")
    })?;
    // Compared as bytes, not with `==`: a float field may hold NaN, which is not
    // equal to itself, and the binary form must keep its exact bits anyway.
    let encoded_again = again
        .encode(version)
        .map_err(|e| format!("{name} v{version} decoded again but does not encode: {e}"))?;
    if encoded_again != encoded {
        return Err(format!(
            "{name} v{version}: decoded {decoded:?}, re-encoded and decoded {again:?}"
        ));
    }
    // The JSON form's promise: whatever decodes has one, and it reads back to the
    // same value, unknown tagged fields aside (the JSON form has no place for them).
    let json = decoded
        .to_json(version)
        .map_err(|e| format!("{name} v{version} decoded but has no JSON form: {e}"))?;
    let through_json = M::from_json(&json, version)
        .map_err(|e| format!("{name} v{version}: its JSON {json} does not read back: {e}"))?;
    let mut expected = decoded;
    kwire::json::JsonWire::drop_unknown_tags(&mut expected);
    if !same_through_json(&through_json, &expected) {
        return Err(format!(
            "{name} v{version}: {expected:?} went through JSON as {json} and came back {through_json:?}"
        ));
    }
    Ok(())
}

/// Whether a value read back from JSON is the one written. JSON keeps a NaN but not
/// its payload bits (Kafka's converter writes the string "NaN"), so where `==` says
/// no only because of a NaN, the derived `Debug` forms, which print every NaN as
/// `NaN` and every other float exactly, decide.
fn same_through_json<M: PartialEq + std::fmt::Debug>(read: &M, written: &M) -> bool {
    read == written || format!("{read:?}") == format!("{written:?}")
}

struct Collect(Vec<Codec>);

impl MessageVisitor for Collect {
    fn visit<M: Message + Clone + PartialEq + std::fmt::Debug>(&mut self) {
        self.0.push(Codec {
            schema: &M::SCHEMA,
            recode: recode::<M>,
            recode_vectored: recode_vectored::<M>,
            encode_default: encode_default::<M>,
            check_decoded: check_decoded::<M>,
            decode_to_json: decode_to_json::<M>,
            json_to_bytes: json_to_bytes::<M>,
            recode_without_unknown_tags: recode_without_unknown_tags::<M>,
            rewrite_json: rewrite_json::<M>,
            transcode: transcode::<M>,
            same_value: same_value::<M>,
        });
    }
}

/// Every registered message's codec, in the registry's order.
pub fn codecs() -> &'static [Codec] {
    static CODECS: OnceLock<Vec<Codec>> = OnceLock::new();
    CODECS.get_or_init(|| {
        let mut collect = Collect(Vec::new());
        registry::visit_all(&mut collect);
        collect.0
    })
}

/// The codec of the message called `name`.
pub fn codec(name: &str) -> Option<Codec> {
    codecs().iter().find(|c| c.schema.name == name).copied()
}

/// A message at one of its versions.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    /// The message's codec.
    pub message: Codec,
    /// One of its valid versions.
    pub version: i16,
}

/// Every registered message at every valid version, built once.
pub fn every_version() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut cases = Vec::new();
        for &message in codecs() {
            let range = message.schema.valid_versions;
            if let (Some(min), Some(max)) = (range.min(), range.max()) {
                cases.extend((min..=max).map(|version| Case { message, version }));
            }
        }
        cases
    })
}
