//! Hostile lengths fail fast, with a typed error, and cost no memory.
//!
//! Every input here claims a count or length far beyond the bytes that follow it
//! (ten). Decoding must refuse it with the right [`DecodeErrorKind`] at the claim's
//! own offset (so nothing was read element by element) and allocate no more bytes
//! than the input holds. A counting global allocator measures that.
//!
//! kafka-protocol aborts the process on the same array inputs (it reserves the
//! claimed capacity); that is why it is not run here.

use bytes::Bytes;
use kafka_wire::{Cx, DecodeErrorKind, KafkaString, Message, Reader, Records, Wire};
use kafka_wire_messages::{ApiVersionsRequest, ApiVersionsResponse, BrokerIds};

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use counting_allocator::allocated_during;

/// Runs `f` and returns its result with the bytes this thread allocated meanwhile.
fn bytes_allocated_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let (result, allocated) = allocated_during(f);
    (result, allocated.bytes)
}

/// Ten bytes of what would be element data.
const TAIL: [u8; 10] = [0x5a; 10];

/// `prefix` followed by [`TAIL`].
fn input(prefix: &[u8]) -> Bytes {
    let mut bytes = prefix.to_vec();
    bytes.extend_from_slice(&TAIL);
    Bytes::from(bytes)
}

/// An int32 count of 0x7fffffff.
const INT32_MAX_COUNT: [u8; 4] = [0x7f, 0xff, 0xff, 0xff];
/// An unsigned varint of 2^32 - 1: the compact form of a count of 2^32 - 2.
const VARINT_MAX: [u8; 5] = [0xff, 0xff, 0xff, 0xff, 0x0f];

/// Decodes `T` from `input` at the bare codec level and checks the error: a refused
/// count is reported at the count, missing bytes where they should have started.
fn assert_codec_refuses<T: Wire + std::fmt::Debug>(
    input: &Bytes,
    flexible: bool,
    expected: DecodeErrorKind,
) {
    let offset = match expected {
        DecodeErrorKind::UnexpectedEof { .. } => input.len() - TAIL.len(),
        _ => 0,
    };
    let (result, allocated) = bytes_allocated_during(|| {
        let mut reader = Reader::new(input);
        T::read(&mut reader, Cx::new(0, flexible))
    });
    let err = result.expect_err("a hostile length must not decode");
    assert_eq!(err.kind(), &expected, "{err}");
    assert_eq!(
        err.offset(),
        offset,
        "refused before reading any element: {err}"
    );
    assert!(
        allocated <= input.len(),
        "{allocated} bytes allocated for a {}-byte input",
        input.len()
    );
}

/// Decodes message `M` from `input` at `version` and checks the error, its offset
/// and its path.
fn assert_message_refuses<M: Message + std::fmt::Debug>(
    input: &Bytes,
    version: i16,
    expected: DecodeErrorKind,
    offset: usize,
    path: &str,
) {
    let (result, allocated) = bytes_allocated_during(|| M::decode(input, version));
    let err = result.expect_err("a hostile length must not decode");
    assert_eq!(err.kind(), &expected, "{err}");
    assert_eq!(err.offset(), offset, "{err}");
    assert_eq!(err.path().to_string(), path);
    assert!(
        allocated <= input.len(),
        "{allocated} bytes allocated for a {}-byte input",
        input.len()
    );
}

#[test]
fn int32_array_count_of_i32_max() {
    let hostile = input(&INT32_MAX_COUNT);
    let expected = DecodeErrorKind::ArrayTooLong {
        count: 0x7fff_ffff,
        remaining: 10,
    };
    assert_codec_refuses::<Vec<i32>>(&hostile, false, expected.clone());
    assert_codec_refuses::<BrokerIds>(&hostile, false, expected.clone());
    assert_codec_refuses::<Vec<KafkaString>>(&hostile, false, expected);
}

#[test]
fn compact_array_count_of_u32_max() {
    let hostile = input(&VARINT_MAX);
    let expected = DecodeErrorKind::ArrayTooLong {
        count: u64::from(u32::MAX - 1),
        remaining: 10,
    };
    assert_codec_refuses::<Vec<i64>>(&hostile, true, expected.clone());
    assert_codec_refuses::<BrokerIds>(&hostile, true, expected.clone());
    assert_codec_refuses::<Vec<Bytes>>(&hostile, true, expected);
}

#[test]
fn api_keys_count_in_api_versions_response_v0() {
    // ErrorCode, then the ApiKeys count.
    let hostile = input(&[&[0, 0][..], &INT32_MAX_COUNT].concat());
    assert_message_refuses::<ApiVersionsResponse>(
        &hostile,
        0,
        DecodeErrorKind::ArrayTooLong {
            count: 0x7fff_ffff,
            remaining: 10,
        },
        2,
        "ApiVersionsResponse.ApiKeys",
    );
}

#[test]
fn api_keys_count_in_api_versions_response_v3() {
    let hostile = input(&[&[0, 0][..], &VARINT_MAX].concat());
    assert_message_refuses::<ApiVersionsResponse>(
        &hostile,
        3,
        DecodeErrorKind::ArrayTooLong {
            count: u64::from(u32::MAX - 1),
            remaining: 10,
        },
        2,
        "ApiVersionsResponse.ApiKeys",
    );
}

#[test]
fn string_lengths_beyond_the_input() {
    // Classic: the int16 maximum is a legal length that the input cannot hold.
    assert_codec_refuses::<KafkaString>(
        &input(&[0x7f, 0xff]),
        false,
        DecodeErrorKind::UnexpectedEof {
            needed: 0x7fff,
            remaining: 10,
        },
    );
    // Compact: a varint length past Kafka's string limit is refused as such.
    assert_codec_refuses::<KafkaString>(
        &input(&VARINT_MAX),
        true,
        DecodeErrorKind::StringTooLong(u64::from(u32::MAX - 1)),
    );
    // The same through a message: ApiVersionsRequest v3 starts with a compact string.
    assert_message_refuses::<ApiVersionsRequest>(
        &input(&VARINT_MAX),
        3,
        DecodeErrorKind::StringTooLong(u64::from(u32::MAX - 1)),
        0,
        "ApiVersionsRequest.ClientSoftwareName",
    );
    // A compact length within the limit but beyond the input.
    assert_message_refuses::<ApiVersionsRequest>(
        &input(&[0xff, 0x7f]),
        3,
        DecodeErrorKind::UnexpectedEof {
            needed: 0x3ffe,
            remaining: 10,
        },
        2,
        "ApiVersionsRequest.ClientSoftwareName",
    );
}

#[test]
fn bytes_and_records_lengths_beyond_the_input() {
    let classic = input(&INT32_MAX_COUNT);
    let expected = DecodeErrorKind::UnexpectedEof {
        needed: 0x7fff_ffff,
        remaining: 10,
    };
    assert_codec_refuses::<Bytes>(&classic, false, expected.clone());
    assert_codec_refuses::<Records>(&classic, false, expected);
    let compact = input(&VARINT_MAX);
    let expected = DecodeErrorKind::UnexpectedEof {
        needed: (u32::MAX - 1) as usize,
        remaining: 10,
    };
    assert_codec_refuses::<Bytes>(&compact, true, expected.clone());
    assert_codec_refuses::<Option<Records>>(&compact, true, expected);
}

/// ApiVersionsResponse v3 with no API keys, up to its tagged section.
const EMPTY_RESPONSE_V3: [u8; 7] = [0, 0, 1, 0, 0, 0, 0];

#[test]
fn tagged_field_size_beyond_the_input() {
    for (tag, path) in [
        // SupportedFeatures, a known tag: its reader is limited to the claimed size.
        (0u8, "ApiVersionsResponse"),
        // An unknown tag, kept as raw bytes of the claimed size.
        (9, "ApiVersionsResponse"),
    ] {
        let prefix = [&EMPTY_RESPONSE_V3[..], &[1, tag], &VARINT_MAX].concat();
        assert_message_refuses::<ApiVersionsResponse>(
            &input(&prefix),
            3,
            DecodeErrorKind::UnexpectedEof {
                needed: u32::MAX as usize,
                remaining: 10,
            },
            EMPTY_RESPONSE_V3.len() + 2 + VARINT_MAX.len(),
            path,
        );
    }
}

#[test]
fn tagged_field_count_beyond_the_input() {
    // A tagged section claiming 2^32 - 1 fields, each needing at least two bytes.
    let prefix = [&EMPTY_RESPONSE_V3[..], &VARINT_MAX].concat();
    let hostile = input(&prefix);
    let (result, allocated) = bytes_allocated_during(|| ApiVersionsResponse::decode(&hostile, 3));
    assert!(result.is_err());
    assert!(allocated <= hostile.len(), "{allocated} bytes allocated");
}

#[test]
fn the_allocator_counts() {
    // Guards the guard: a decode that does allocate must show up.
    let response = ApiVersionsResponse {
        unknown_tagged_fields: {
            let mut unknown = kafka_wire::UnknownTaggedFields::default();
            unknown.insert(9, Bytes::from_static(b"kept"));
            unknown
        },
        ..Default::default()
    };
    let bytes = response.encode(3).expect("encodes");
    let (decoded, allocated) = bytes_allocated_during(|| ApiVersionsResponse::decode(&bytes, 3));
    assert_eq!(decoded.expect("decodes"), response);
    assert!(allocated > 0, "keeping an unknown tag allocates its list");
}
