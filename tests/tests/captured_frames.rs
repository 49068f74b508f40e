//! Request frames captured from real clients (`tests/fixtures/captured/`, with a
//! README saying where each came from) read as a server reads them, and written
//! back byte for byte; and the answers real brokers gave to an ApiVersions version
//! they do not know, read as a client reads them.

#[path = "common/hex_fixtures.rs"]
mod hex_fixtures;

use bytes::Bytes;
use hex_fixtures::unhex;
use kwire_messages::frame::{self, FrameError};
use kwire_messages::frame::{RequestFrame, TrailingBytes};
use kwire_messages::Listener;
use kwire_messages::{ApiKey, Request};
use kwire_net::negotiation::{
    answer_api_versions, next_step, read_api_versions_response, NextStep,
};

fn captured() -> Vec<(String, Bytes)> {
    hex_fixtures::load("captured")
}

const TRAILING: &str = "librdkafka-2.16.0-metadata_request_v12_trailing.hex";

#[test]
fn every_captured_request_reads_and_writes_back_byte_for_byte() {
    let frames = captured();
    assert!(frames.len() >= 12, "{} frames", frames.len());
    let clients_api_versions = frames
        .iter()
        .filter(|(name, _)| name.contains("api_versions_request"))
        .count();
    assert_eq!(
        clients_api_versions, 5,
        "one ApiVersions request per client"
    );
    for (name, bytes) in &frames {
        let frame = RequestFrame::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(frame.api().is_ok(), "{name}");
        let read = frame
            .decode::<Request>(TrailingBytes::Ignore)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(read.body.api(), frame.api().unwrap(), "{name}");
        if name == TRAILING {
            assert_eq!(read.ignored, 3);
            continue;
        }
        assert_eq!(read.ignored, 0, "{name}");
        let (header, request) =
            frame::decode_any_request(bytes).unwrap_or_else(|e| panic!("{name}: strict: {e}"));
        assert_eq!(&header, frame.header(), "{name}");
        let again = frame::encode_any_request(&header, &request).expect("encode");
        assert_eq!(again, *bytes, "{name}: written back");
    }
}

#[test]
fn librdkafkas_metadata_with_three_extra_bytes_is_refused_exactly_and_read_tolerantly() {
    let (_, bytes) = captured()
        .into_iter()
        .find(|(name, _)| name == TRAILING)
        .expect("the librdkafka frame");
    let frame = RequestFrame::parse(&bytes).unwrap();
    assert_eq!(frame.api(), Ok(ApiKey::Metadata));
    assert_eq!(frame.api_version(), 12);
    let err = frame.decode::<Request>(TrailingBytes::Refuse).unwrap_err();
    assert!(matches!(err.error, FrameError::Decode(_)), "{err:?}");
    assert!(frame::decode_any_request(&bytes).is_err());
    assert_eq!(
        frame
            .decode::<Request>(TrailingBytes::Ignore)
            .unwrap()
            .ignored,
        3
    );
}

/// ApiVersions v9 with a v2 header, made by `tests/interop/probe_api_versions.py`
/// (no client sends a version above 4).
const API_VERSIONS_V9: &str = "0000001b0012000900000007000570726f6265000670726f626504312e3000";

#[test]
fn our_server_answers_an_api_versions_version_above_ours_as_kafka_does() {
    let request = RequestFrame::parse(&unhex(API_VERSIONS_V9)).unwrap();
    assert_eq!((request.api_version(), request.correlation_id()), (9, 7));
    assert!(request.decode::<Request>(TrailingBytes::Ignore).is_err());
    let answer = answer_api_versions(&request, Listener::Broker).unwrap();
    // What Apache Kafka's broker sends, and noida-db 0.2.3 sent to this frame
    // (tests/interop/README.md), up to the range of ApiVersions: 0-5 here, 0-3 there.
    assert_eq!(
        &answer[..],
        &unhex("0000001000000007002300000001001200000005")[..]
    );
}

#[test]
fn our_client_reads_noidas_v0_answer_to_v9_and_retries_at_its_maximum() {
    // noida-db 0.2.3's answer to API_VERSIONS_V9 (tests/interop/README.md).
    let answer = unhex("0000001000000007002300000001001200000003");
    let (header, body) = frame::split_response(&answer, 0).unwrap();
    assert_eq!(header.correlation_id, 7);
    let (response, read_at) = read_api_versions_response(&body, 9).unwrap();
    assert_eq!((response.error_code, read_at), (35, 0));
    assert_eq!(next_step(9, &response).unwrap(), NextStep::RetryAt(3));
}
