//! Tagged sections decode only what encodes again, in linear time: tags strictly
//! ascend, a known tag is refused where its field is not tagged, a value must fill
//! its declared size, and unknown tags are kept only where there is room for them.

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use bytes::Bytes;
use counting_allocator::allocated_during;
use kwire::wire::varint::put_unsigned_varint;
use kwire::{
    Cx, DecodeErrorKind, EncodeErrorKind, Message, RawTaggedField, Reader, UnknownTaggedFields,
    Wire,
};
use kwire_messages::{api::ApiVersionsResponse, api::FetchRequest, RequestHeader};
use kwire_tests::probes;

fn header_with_tags(tags: impl ExactSizeIterator<Item = u32>) -> Bytes {
    Bytes::from(probes::header_with_tags(tags))
}

const MANY: u32 = 65_536;

#[test]
fn many_ascending_unknown_tags_decode_in_linear_time_and_come_back() {
    let input = header_with_tags(0..MANY);
    assert!(input.len() < 256 * 1024);
    let (decoded, allocated) = allocated_during(|| RequestHeader::decode(&input, 2));
    let decoded = decoded.expect("ascending tags decode");
    assert_eq!(decoded.unknown_tagged_fields.len(), MANY as usize);
    assert_eq!(decoded.encode(2).expect("encodes"), input);
    // Appending one at a time into a list that doubles: about log2(65536) growths,
    // and the bytes ever requested stay within twice the final list (each element
    // is moved a bounded number of times), where inserting each in front of the
    // others would move 2^31 elements.
    let list = MANY as usize * std::mem::size_of::<RawTaggedField>();
    assert!(allocated.calls <= 32, "{allocated:?}");
    assert!(allocated.bytes <= 2 * list + 1024, "{allocated:?}");
}

#[test]
fn descending_tags_are_refused_at_the_second_one() {
    let input = header_with_tags((0..MANY).rev());
    let (result, allocated) = allocated_during(|| RequestHeader::decode(&input, 2));
    let err = result.expect_err("descending tags are refused");
    assert_eq!(
        err.kind(),
        &DecodeErrorKind::TagsOutOfOrder {
            tag: MANY - 2,
            previous: MANY - 1
        }
    );
    // The section's count (3 bytes) and the first entry (3 + 1 bytes) were read.
    assert_eq!(err.offset(), 10 + 3 + 4);
    assert_eq!(err.path().to_string(), "RequestHeader");
    assert!(allocated.bytes < 1024, "{allocated:?}");
}

#[test]
fn a_mebibyte_of_descending_tags_in_api_versions_is_refused_at_once() {
    // ErrorCode, no API keys, ThrottleTimeMs, then 262,144 tags from the top down.
    let mut bytes = vec![0, 0, 1, 0, 0, 0, 0];
    let count = 262_144u32;
    put_unsigned_varint(&mut bytes, count);
    for tag in (1 << 14..(1 << 14) + count).rev() {
        put_unsigned_varint(&mut bytes, tag);
        bytes.push(0);
    }
    let input = Bytes::from(bytes);
    assert!(input.len() >= 1 << 20);
    let (result, allocated) = allocated_during(|| ApiVersionsResponse::decode(&input, 3));
    assert!(matches!(
        result.expect_err("refused").kind(),
        DecodeErrorKind::TagsOutOfOrder { .. }
    ));
    assert!(allocated.bytes < 1024, "{allocated:?}");
}

#[test]
fn a_repeated_tag_is_refused() {
    let input = header_with_tags([4, 4].into_iter());
    let err = RequestHeader::decode(&input, 2).unwrap_err();
    assert_eq!(
        err.kind(),
        &DecodeErrorKind::TagsOutOfOrder {
            tag: 4,
            previous: 4
        }
    );
}

/// FetchRequest v12 carrying tag 1, ReplicaState, which is tagged only from v15: Kafka
/// refuses it ("Tag 1 is not valid for version 12"), and so does this crate, rather
/// than keep it as unknown and then fail to encode it back.
#[test]
fn a_known_tag_outside_its_tagged_versions_is_refused() {
    let mut bytes = FetchRequest::default().encode(12).unwrap().to_vec();
    assert_eq!(
        bytes.pop(),
        Some(0),
        "the default ends in an empty tagged section"
    );
    // One field: tag 1, 13 bytes (ReplicaId, ReplicaEpoch, no tags).
    bytes.extend_from_slice(&[1, 1, 13, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0]);
    let err = FetchRequest::decode(&Bytes::from(bytes), 12).unwrap_err();
    assert_eq!(
        err.kind(),
        &DecodeErrorKind::TagNotInVersion {
            tag: 1,
            version: 12
        }
    );
    assert_eq!(err.path().to_string(), "FetchRequest.ReplicaState");
}

#[test]
fn a_known_tag_must_fill_its_declared_size() {
    // ApiVersionsResponse v3, FinalizedFeaturesEpoch (tag 1, an int64) declared as
    // nine bytes.
    let mut bytes = vec![0, 0, 1, 0, 0, 0, 0, 1, 1, 9];
    bytes.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 5, 0xaa]);
    let err = ApiVersionsResponse::decode(&Bytes::from(bytes), 3).unwrap_err();
    assert_eq!(
        err.kind(),
        &DecodeErrorKind::TaggedFieldSize {
            tag: 1,
            declared: 9,
            used: 8
        }
    );
}

/// A struct without a field for unknown tags, used only where nothing is flexible.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
struct Point {
    /// Across.
    #[kafka(versions = "0+")]
    x: i32,
}

#[test]
fn an_unknown_tag_with_nowhere_to_go_is_refused() {
    // Read as flexible anyway (as a hand-written caller could): a tag it cannot keep
    // is an error, not a silent loss.
    let input = Bytes::from_static(&[0, 0, 0, 1, 1, 5, 0]);
    let err = Point::read(&mut Reader::new(&input), Cx::new(0, true)).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::UnknownTagNotKept(5));
}

#[test]
fn an_unknown_tag_reusing_a_known_one_is_refused_when_encoding() {
    let mut unknown = UnknownTaggedFields::default();
    // Tag 0 is SupportedFeatures.
    unknown.insert(0, Bytes::from_static(b"x"));
    let response = ApiVersionsResponse::default().with_unknown_tagged_fields(unknown);
    let err = response.encode(3).unwrap_err();
    assert_eq!(err.kind(), &EncodeErrorKind::TagClash(0));
    assert_eq!(err.path().to_string(), "ApiVersionsResponse");
}

#[test]
fn bytes_after_a_message_are_counted() {
    let mut bytes = ApiVersionsResponse::default().encode(3).unwrap().to_vec();
    let len = bytes.len();
    bytes.extend_from_slice(&[1, 2]);
    let err = ApiVersionsResponse::decode(&Bytes::from(bytes), 3).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::TrailingBytes(2));
    assert_eq!(err.offset(), len);
    assert_eq!(err.path().to_string(), "ApiVersionsResponse");
}
