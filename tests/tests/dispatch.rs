//! Dispatch by API key: a frame of every API's request and response, at every
//! version, read without naming its type and written back byte for byte; and the
//! API table against Kafka's own rules.
//!
//! The frames are built here from the runtime schema (bodies) and from Kafka's
//! header rules spelled out again (headers), independently of the code under test.

use bytes::{BufMut, Bytes, BytesMut};
use kwire::{KafkaString, Message, MessageEnum};
use kwire_messages::frame::{self, FrameError};
use kwire_messages::Listener;
use kwire_messages::{ApiKey, ApiKeyError, Request, RequestHeader, Response, ResponseHeader};
use kwire_tests::checker::known;
use kwire_tests::schema_writer::{write, Nulls, Populated};

/// Kafka's rule for request headers (`ApiMessageType.requestHeaderVersion`).
fn kafka_request_header_version(api: ApiKey, version: i16) -> i16 {
    if api.request_schema().is_flexible(version) {
        2
    } else {
        1
    }
}

/// Kafka's rule for response headers: ApiVersions always answers with v0 (KIP-511).
fn kafka_response_header_version(api: ApiKey, version: i16) -> i16 {
    if api.key() == 18 {
        0
    } else if api.response_schema().is_flexible(version) {
        1
    } else {
        0
    }
}

fn framed(header: Bytes, body: &[u8]) -> Bytes {
    let mut frame = BytesMut::new();
    frame.put_i32((header.len() + body.len()) as i32);
    frame.put_slice(&header);
    frame.put_slice(body);
    frame.freeze()
}

/// Two frames (filled and null) per API and version.
fn expected_frames() -> i32 {
    ApiKey::ALL
        .iter()
        .map(|&api| versions(api).count() as i32 * 2)
        .sum()
}

fn versions(api: ApiKey) -> std::ops::RangeInclusive<i16> {
    let valid = api.valid_versions();
    valid.min().unwrap()..=valid.max().unwrap()
}

#[test]
fn every_request_frame_is_read_by_its_key_and_written_back_byte_for_byte() {
    let mut frames = 0;
    for &api in ApiKey::ALL {
        for version in versions(api) {
            for nulls in [Nulls::Filled, Nulls::Null] {
                let body = write(api.request_schema(), version, &mut Populated { nulls });
                let header = RequestHeader::default()
                    .with_request_api_key(api.key())
                    .with_request_api_version(version)
                    .with_correlation_id(frames)
                    .with_client_id(Some(KafkaString::from_static("dispatch-test")));
                let header_bytes = header
                    .encode(kafka_request_header_version(api, version))
                    .unwrap();
                let bytes = framed(header_bytes, &body);
                let (read_header, request) = frame::decode_any_request(&bytes)
                    .unwrap_or_else(|e| panic!("{api} v{version}: {e}"));
                assert_eq!(read_header, header, "{api} v{version}");
                assert_eq!(request.api(), api);
                assert_eq!(request.api_key(), api.key());
                assert_eq!(request.schema().name, api.request_schema().name);
                let again = frame::encode_any_request(&read_header, &request).unwrap();
                assert_eq!(again, bytes, "{api} v{version} request frame");
                frames += 1;
            }
        }
    }
    assert_eq!(frames, expected_frames());
}

#[test]
fn every_response_frame_is_read_by_its_key_and_written_back_byte_for_byte() {
    let mut frames = 0;
    for &api in ApiKey::ALL {
        for version in versions(api) {
            for nulls in [Nulls::Filled, Nulls::Null] {
                let body = write(api.response_schema(), version, &mut Populated { nulls });
                let header = ResponseHeader::default().with_correlation_id(frames);
                let header_bytes = header
                    .encode(kafka_response_header_version(api, version))
                    .unwrap();
                let bytes = framed(header_bytes, &body);
                let (read_header, response) = frame::decode_any_response(&bytes, api, version)
                    .unwrap_or_else(|e| panic!("{api} v{version}: {e}"));
                assert_eq!(read_header, header, "{api} v{version}");
                assert_eq!(response.api(), api);
                let again = frame::encode_any_response(&read_header, &response, version).unwrap();
                assert_eq!(again, bytes, "{api} v{version} response frame");
                frames += 1;
            }
        }
    }
    assert_eq!(frames, expected_frames());
}

/// A body with every field set, written from the runtime schema.
fn filled(schema: &kwire::schema::MessageSchema, version: i16) -> Bytes {
    let mut choices = Populated {
        nulls: Nulls::Filled,
    };
    Bytes::from(write(schema, version, &mut choices))
}

#[test]
fn enums_decode_size_and_encode_every_api_at_its_latest_version() {
    for &api in ApiKey::ALL {
        let version = api.valid_versions().max().unwrap();
        let body = filled(api.request_schema(), version);
        let request = Request::decode(api.key(), version, &body).unwrap();
        assert_eq!(request.encode(version).unwrap(), body, "{api}");
        assert_eq!(request.encoded_size(version).unwrap(), body.len(), "{api}");
        let body = filled(api.response_schema(), version);
        let response = Response::decode(api.key(), version, &body).unwrap();
        assert_eq!(response.encode(version).unwrap(), body, "{api}");
        assert_eq!(response.encoded_size(version).unwrap(), body.len(), "{api}");
    }
}

#[test]
fn header_versions_follow_kafka_for_every_api_and_version() {
    for &api in ApiKey::ALL {
        for version in versions(api) {
            assert_eq!(
                api.request_header_version(version),
                kafka_request_header_version(api, version),
                "{api} v{version} request"
            );
            assert_eq!(
                api.response_header_version(version),
                kafka_response_header_version(api, version),
                "{api} v{version} response"
            );
        }
    }
}

#[test]
fn the_table_covers_every_live_schema_once_with_unique_keys() {
    let dir = kwire_tests::schema_dir();
    let schemas = std::fs::read_dir(&dir).unwrap();
    // The table follows Kafka 4.4.0's release; an API the set lacks counts only if
    // the set's list of known differences names its request (the pinned trunk set
    // lacks UnregisterController).
    let known = known::for_set(&dir, &known::lists_dir()).unwrap_or_else(|e| panic!("{e}"));
    let listed = |api: &ApiKey| {
        let line = format!("{}Request: struct without schema", api.name());
        known.as_ref().is_some_and(|k| k.lines.contains(&line))
    };
    let absent = ApiKey::ALL.iter().filter(|api| listed(api)).count();
    let mut live_requests = 0;
    for entry in schemas {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(api) = name.strip_suffix("Request.json") else {
            continue;
        };
        let text = std::fs::read_to_string(kwire_tests::schema_dir().join(&name)).unwrap();
        if text.contains("\"validVersions\": \"none\"") {
            continue;
        }
        live_requests += 1;
        assert!(
            ApiKey::ALL.iter().any(|a| a.name() == api),
            "{api} is not in the API table"
        );
    }
    assert_eq!(ApiKey::ALL.len(), live_requests + absent);
    let mut keys: Vec<i16> = ApiKey::ALL.iter().map(|a| a.key()).collect();
    keys.dedup();
    assert_eq!(keys.len(), ApiKey::ALL.len(), "keys ascend without repeats");
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn unknown_and_retired_keys_are_frame_errors_not_panics() {
    for (key, expected) in [
        (
            5,
            ApiKeyError::Retired {
                key: 5,
                name: "StopReplica",
            },
        ),
        (-3, ApiKeyError::Unknown(-3)),
        (4000, ApiKeyError::Unknown(4000)),
    ] {
        assert_eq!(ApiKey::try_from(key), Err(expected));
        let header = RequestHeader::default()
            .with_request_api_key(key)
            .with_request_api_version(0);
        let bytes = framed(header.encode(1).unwrap(), &[]);
        assert!(matches!(
            frame::decode_any_request(&bytes),
            Err(FrameError::Dispatch(_))
        ));
    }
}

#[test]
fn api_versions_answer_lists_what_each_listener_serves() {
    let broker = ApiKey::api_versions(Listener::Broker);
    let controller = ApiKey::api_versions(Listener::Controller);
    let has = |entries: &[kwire_messages::api::api_versions::ApiVersion], api: ApiKey| {
        entries.iter().any(|e| e.api_key == api.key())
    };
    assert!(has(&broker, ApiKey::Produce) && !has(&controller, ApiKey::Produce));
    assert!(has(&controller, ApiKey::Vote) && !has(&broker, ApiKey::Vote));
    assert!(has(&broker, ApiKey::ApiVersions) && has(&controller, ApiKey::ApiVersions));
    for entry in broker.iter().chain(&controller) {
        let api = ApiKey::try_from(entry.api_key).unwrap();
        let schema = api.request_schema();
        assert_eq!(Some(entry.min_version), schema.valid_versions.min());
        let max = schema.valid_versions.max().unwrap();
        let expected = if schema.latest_version_unstable {
            max - 1
        } else {
            max
        };
        assert_eq!(entry.max_version, expected, "{api}");
    }
}
