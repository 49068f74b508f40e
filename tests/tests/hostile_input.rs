//! Hostile input fails fast, typed, and costs memory only in proportion to what is
//! there. A counting global allocator measures every claim.
//!
//! - Counts and lengths beyond the input are refused at the claim, with the right
//!   [`DecodeErrorKind`], allocating nothing but the error itself.
//! - The probes that once aborted the process (a count of 100 MiB of tokens before
//!   100 MiB of zeros) and the inputs that cost up to 248 times their size are
//!   refused costing at most [`MOST_TIMES_THE_INPUT`] times their size.
//! - A sweep puts a count equal to the bytes that follow at every offset of every
//!   message's encoding, at every version, and reports the worst cost.
//!
//! kafka-protocol aborts the process on the same array inputs (it reserves the
//! claimed capacity); that is why it is not run here.

use bytes::Bytes;
use kwire::{Cx, DecodeErrorKind, KafkaString, Message, Reader, Records, Wire};
use kwire_messages::{api::ApiVersionsRequest, api::ApiVersionsResponse, BrokerIds};
use kwire_tests::codecs::{codec, codecs, Codec};
use kwire_tests::probes::{count_at, probes};
use kwire_tests::schema_writer::{write, Nulls, Populated};

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use counting_allocator::{allocated_during, Allocated};

/// What an error's own allocation may cost: its box and its field path.
const ERROR_BUDGET: usize = 512;

/// The most a refused input may cost, as a multiple of its size.
const MOST_TIMES_THE_INPUT: usize = 16;

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

fn assert_cheap(allocated: Allocated, input: &Bytes) {
    assert!(
        allocated.bytes <= input.len() + ERROR_BUDGET,
        "{} bytes allocated for a {}-byte input",
        allocated.bytes,
        input.len()
    );
}

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
    let (result, allocated) = allocated_during(|| {
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
    assert_cheap(allocated, input);
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
    let (result, allocated) = allocated_during(|| M::decode(input, version));
    let err = result.expect_err("a hostile length must not decode");
    assert_eq!(err.kind(), &expected, "{err}");
    assert_eq!(err.offset(), offset, "{err}");
    assert_eq!(err.path().to_string(), path);
    assert_cheap(allocated, input);
}

#[test]
fn int32_array_count_of_i32_max() {
    let hostile = input(&INT32_MAX_COUNT);
    let refused = |element_min_size| DecodeErrorKind::ArrayTooLong {
        count: 0x7fff_ffff,
        element_min_size,
        remaining: 10,
    };
    assert_codec_refuses::<Vec<i32>>(&hostile, false, refused(4));
    assert_codec_refuses::<BrokerIds>(&hostile, false, refused(4));
    assert_codec_refuses::<Vec<KafkaString>>(&hostile, false, refused(2));
}

#[test]
fn compact_array_count_of_u32_max() {
    let hostile = input(&VARINT_MAX);
    let refused = |element_min_size| DecodeErrorKind::ArrayTooLong {
        count: u64::from(u32::MAX - 1),
        element_min_size,
        remaining: 10,
    };
    assert_codec_refuses::<Vec<i64>>(&hostile, true, refused(8));
    assert_codec_refuses::<BrokerIds>(&hostile, true, refused(4));
    assert_codec_refuses::<Vec<Bytes>>(&hostile, true, refused(1));
}

#[test]
fn counts_are_refused_at_the_elements_smallest_size() {
    // Three int64s cannot fit in the ten bytes left, though Kafka's count-against-
    // bytes rule would let three through: nothing is read or reserved for them.
    let hostile = input(&[0, 0, 0, 3]);
    assert_codec_refuses::<Vec<i64>>(
        &hostile,
        false,
        DecodeErrorKind::ArrayTooLong {
            count: 3,
            element_min_size: 8,
            remaining: 10,
        },
    );
}

#[test]
fn api_keys_count_in_api_versions_response_v0() {
    // ErrorCode, then the ApiKeys count; each ApiVersion takes at least 6 bytes.
    let hostile = input(&[&[0, 0][..], &INT32_MAX_COUNT].concat());
    assert_message_refuses::<ApiVersionsResponse>(
        &hostile,
        0,
        DecodeErrorKind::ArrayTooLong {
            count: 0x7fff_ffff,
            element_min_size: 6,
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
            // Three int16s and an empty tagged section.
            element_min_size: 7,
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
    let (result, allocated) = allocated_during(|| ApiVersionsResponse::decode(&hostile, 3));
    assert!(result.is_err());
    assert_cheap(allocated, &hostile);
}

#[test]
fn an_error_costs_no_more_than_its_budget() {
    // The deepest path in Kafka's messages, and a few segments more.
    let (err, allocated) = allocated_during(|| {
        let mut err = kwire::DecodeError::new(DecodeErrorKind::InvalidUtf8, 0);
        for depth in 0..6 {
            err = err.within("Field").at_index(depth);
        }
        err.within("Message")
    });
    assert_eq!(err.path().segments().count(), 13);
    assert!(allocated.bytes <= ERROR_BUDGET, "{allocated:?}");
}

/// Decodes `input` as `name` at `version` and returns the allocation, checking the
/// decode failed and cost at most [`MOST_TIMES_THE_INPUT`] times the input.
fn refused_within_bound(name: &str, version: i16, input: &Bytes) -> Allocated {
    let codec = codec(name).expect("registered");
    let (result, allocated) = allocated_during(|| (codec.recode)(input, version));
    assert!(result.is_err(), "{name} v{version} decoded a lying input");
    assert!(
        allocated.peak <= MOST_TIMES_THE_INPUT * input.len(),
        "{name} v{version}: peak {} bytes for a {}-byte input",
        allocated.peak,
        input.len()
    );
    allocated
}

/// The probe that aborted the process: 100 MiB of tokens claimed before 100 MiB of
/// zero bytes (a frame size Kafka's brokers accept by default).
#[test]
fn describe_delegation_token_response_v2_claiming_100_mib_of_tokens() {
    let body = [
        &[0x00, 0x00, 0x81, 0x80, 0x80, 0x32][..],
        &vec![0; 100 << 20],
    ]
    .concat();
    let body = Bytes::from(body);
    let allocated = refused_within_bound("DescribeDelegationTokenResponse", 2, &body);
    assert!(allocated.peak <= ERROR_BUDGET, "{allocated:?}");
}

#[test]
fn create_acls_request_v2_claiming_32_mib_of_creations() {
    let body = Bytes::from([&[0x81, 0x80, 0x80, 0x10][..], &vec![0; 32 << 20]].concat());
    let allocated = refused_within_bound("CreateAclsRequest", 2, &body);
    assert!(allocated.peak <= ERROR_BUDGET, "{allocated:?}");
}

/// Every probe of the review (tests/src/probes.rs) at a mebibyte: the inputs that
/// once cost 112 to 248 times their size, descending tags, a tag outside its
/// versions. Each is refused costing next to nothing.
#[test]
fn every_probe_at_a_mebibyte() {
    for probe in probes(1 << 20) {
        let body = Bytes::from(probe.body);
        let allocated = refused_within_bound(probe.message, probe.version, &body);
        println!(
            "{} v{} ({}): peak {} bytes for {}",
            probe.message,
            probe.version,
            probe.why,
            allocated.peak,
            body.len()
        );
        assert!(
            allocated.peak <= ERROR_BUDGET,
            "{}: {allocated:?}",
            probe.why
        );
    }
}

/// Where an input costs most, over every message, version and offset, beyond the
/// error's own allocation ([`ERROR_BUDGET`]).
#[derive(Default)]
struct Worst {
    ratio: f64,
    at: String,
}

/// The worst of each outcome over a sweep.
#[derive(Default)]
struct Sweep {
    refused: Worst,
    refused_count: usize,
    decoded: Worst,
    decoded_count: usize,
}

impl Sweep {
    /// Every message at every version, each input made from the message's populated
    /// encoding by `inputs`.
    fn every_message(inputs: impl Fn(&[u8], bool) -> Vec<(String, Vec<u8>)>) -> Sweep {
        let mut sweep = Sweep::default();
        for codec in codecs() {
            let valid = codec.schema.valid_versions;
            let (Some(min), Some(max)) = (valid.min(), valid.max()) else {
                continue;
            };
            for version in min..=max {
                let compact = codec.schema.is_flexible(version);
                let encoding = write(
                    codec.schema,
                    version,
                    &mut Populated {
                        nulls: Nulls::Filled,
                    },
                );
                for (what, input) in inputs(&encoding, compact) {
                    sweep.measure(codec, version, &what, Bytes::from(input));
                }
            }
        }
        sweep
    }

    fn measure(&mut self, codec: &Codec, version: i16, what: &str, input: Bytes) {
        let (result, allocated) = allocated_during(|| (codec.recode)(&input, version));
        let (worst, count) = match result {
            Ok(_) => (&mut self.decoded, &mut self.decoded_count),
            Err(_) => (&mut self.refused, &mut self.refused_count),
        };
        *count += 1;
        // The error's own allocation is a constant, left out so that the ratio says
        // what the input made the decoder hold.
        let held = allocated.peak.saturating_sub(ERROR_BUDGET);
        let ratio = held as f64 / input.len().max(1) as f64;
        if ratio > worst.ratio {
            *worst = Worst {
                ratio,
                at: format!(
                    "{} v{version}, {what}, {} bytes: peak {} bytes",
                    codec.schema.name,
                    input.len(),
                    allocated.peak
                ),
            };
        }
    }

    fn assert_refused_within(&self, times: usize) {
        assert!(self.refused.ratio <= times as f64, "{}", self.refused.at);
    }

    fn print(&self, name: &str) {
        println!(
            "{name}: {} inputs refused, worst peak {:.2}x the input ({}); {} decoded, worst {:.2}x ({})",
            self.refused_count,
            self.refused.ratio,
            self.refused.at,
            self.decoded_count,
            self.decoded.ratio,
            self.decoded.at
        );
    }
}

/// Zero bytes after each encoding: they decode as empty elements where a version
/// allows, so a count that elements could fill has something to fill it with.
const ZEROS: usize = 4096;

/// Every message at every version: its populated encoding with counts inserted at
/// each offset, each count `counts(bytes after it)`, then [`ZEROS`] zero bytes.
fn counts_at_every_offset(counts: fn(usize) -> Vec<usize>) -> Sweep {
    Sweep::every_message(|encoding, compact| {
        (0..=encoding.len())
            .flat_map(|offset| {
                let after = encoding.len() - offset + ZEROS;
                counts(after).into_iter().map(move |count| {
                    (
                        format!("count {count} at byte {offset}"),
                        count_at(encoding, offset, compact, count, ZEROS),
                    )
                })
            })
            .collect()
    })
}

/// A count equal to the bytes that follow, at every offset of every message: each
/// input must be refused costing at most [`MOST_TIMES_THE_INPUT`] times its size.
#[test]
fn a_count_of_the_bytes_left_at_every_offset_of_every_message() {
    let sweep = counts_at_every_offset(|after| vec![after]);
    sweep.print("count = bytes left");
    sweep.assert_refused_within(MOST_TIMES_THE_INPUT);
    assert!(sweep.refused_count > 10_000);
}

/// Every proper prefix of every message's encoding is refused, costing at most
/// [`MOST_TIMES_THE_INPUT`] times its size.
#[test]
fn every_truncation_of_every_message() {
    let sweep = Sweep::every_message(|encoding, _| {
        (1..encoding.len())
            .map(|len| (format!("first {len} bytes"), encoding[..len].to_vec()))
            .collect()
    });
    sweep.print("truncations");
    sweep.assert_refused_within(MOST_TIMES_THE_INPUT);
    assert_eq!(sweep.decoded_count, 0);
}

/// The most memory a decoded element takes per byte of its smallest encoding: an
/// empty compact string is one byte on the wire and a 32-byte `KafkaString`.
const MOST_PER_DECODED_BYTE: usize = 32;

/// Counts that elements at their smallest could fill (the bytes left halved, down
/// to a 32nd) get past the count check, so the elements there are decoded until
/// the input fails them. Nothing is reserved beyond what could decode, so an input
/// costs what its decoded elements take in memory: at most
/// [`MOST_PER_DECODED_BYTE`] times the bytes they came from, however it ends.
#[test]
fn counts_that_could_fit_cost_what_their_elements_take() {
    let sweep = counts_at_every_offset(|after| (1..6).map(|shift| after >> shift).collect());
    sweep.print("counts that could fit");
    sweep.assert_refused_within(MOST_PER_DECODED_BYTE);
}

#[test]
fn the_allocator_counts() {
    // Guards the guard: a decode that does allocate must show up.
    let mut unknown = kwire::UnknownTaggedFields::default();
    unknown.insert(9, Bytes::from_static(b"kept"));
    let response = ApiVersionsResponse::default().with_unknown_tagged_fields(unknown);
    let bytes = response.encode(3).expect("encodes");
    let (decoded, allocated) = allocated_during(|| ApiVersionsResponse::decode(&bytes, 3));
    assert_eq!(decoded.expect("decodes"), response);
    assert!(
        allocated.bytes > 0,
        "keeping an unknown tag allocates its list"
    );
    assert!(allocated.peak > 0 && allocated.peak <= allocated.bytes);
}
