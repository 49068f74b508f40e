//! Frames as they travel on a connection: `[int32 length][header][body]`, with the
//! header version the body's version implies, ApiVersions responses always on
//! header v0, and every malformed frame refused with its own error.

use bytes::Bytes;
use kwire::{KafkaString, Message};
use kwire_messages::api::api_versions::ApiVersion;
use kwire_messages::frame::{self, FrameError, FrameLengthError};
use kwire_messages::{
    api::ApiVersionsRequest, api::ApiVersionsResponse, api::MetadataRequest, api::MetadataResponse,
    RequestHeader, ResponseHeader,
};

fn api_versions_response() -> ApiVersionsResponse {
    let version = ApiVersion::default()
        .with_api_key(18)
        .with_min_version(0)
        .with_max_version(4);
    ApiVersionsResponse::default().with_api_keys(vec![version])
}

#[test]
fn api_versions_responses_use_header_v0_even_when_flexible() {
    let header = ResponseHeader::default().with_correlation_id(7);
    for version in 0..=4 {
        let body = api_versions_response();
        let bytes = frame::encode_response(&header, &body, version).unwrap();
        let body_bytes = body.encode(version).unwrap();
        // The prefix, the correlation ID alone (no tagged section), the body.
        let mut expected = ((4 + body_bytes.len()) as i32).to_be_bytes().to_vec();
        expected.extend_from_slice(&7i32.to_be_bytes());
        expected.extend_from_slice(&body_bytes);
        assert_eq!(bytes.as_ref(), expected, "v{version}");
        let (read_header, read_body) =
            frame::decode_response::<ApiVersionsResponse>(&bytes, version).unwrap();
        assert_eq!((read_header, read_body), (header.clone(), body));
    }
    assert_eq!(frame::response_header_version::<ApiVersionsResponse>(3), 0);
}

#[test]
fn other_responses_take_the_flexible_header_in_flexible_versions() {
    let header = ResponseHeader::default().with_correlation_id(9);
    let body = MetadataResponse::default().with_cluster_id(Some(KafkaString::from_static("c")));
    for (version, header_version) in [(8, 0), (9, 1), (12, 1)] {
        assert_eq!(
            frame::response_header_version::<MetadataResponse>(version),
            header_version
        );
        let bytes = frame::encode_response(&header, &body, version).unwrap();
        let header_bytes = header.encode(header_version).unwrap();
        assert_eq!(&bytes[4..4 + header_bytes.len()], header_bytes.as_ref());
        let (read_header, read_body) =
            frame::decode_response::<MetadataResponse>(&bytes, version).unwrap();
        assert_eq!(read_header, header);
        assert_eq!(read_body, body);
    }
}

#[test]
fn a_response_read_at_the_wrong_version_or_with_a_bad_length_is_refused() {
    let header = ResponseHeader::default().with_correlation_id(1);
    let bytes = frame::encode_response(&header, &MetadataResponse::default(), 12).unwrap();
    // Read as v8, the header has a byte too many for the body that follows.
    assert!(frame::decode_response::<MetadataResponse>(&bytes, 8).is_err());
    let mut short = bytes.to_vec();
    short.pop();
    let err = frame::decode_response::<MetadataResponse>(&Bytes::from(short), 12).unwrap_err();
    assert!(
        matches!(err, FrameError::Length(FrameLengthError::Mismatch { declared, actual }) if declared as usize == actual + 1),
        "{err:?}"
    );
}

#[test]
fn a_request_frame_names_its_own_api() {
    let header = RequestHeader::default()
        .with_request_api_key(3)
        .with_request_api_version(12)
        .with_correlation_id(4);
    // The header says Metadata, the body is ApiVersions.
    let err = frame::encode_request(&header, &ApiVersionsRequest::default()).unwrap_err();
    assert!(
        matches!(
            err,
            FrameError::ApiKeyMismatch {
                header: 3,
                body: 18
            }
        ),
        "{err:?}"
    );
    let bytes = frame::encode_request(&header, &MetadataRequest::default()).unwrap();
    let err = frame::decode_request::<ApiVersionsRequest>(&bytes).unwrap_err();
    assert!(matches!(err, FrameError::ApiKeyMismatch { .. }), "{err:?}");
    let (read, _) = frame::decode_request::<MetadataRequest>(&bytes).unwrap();
    assert_eq!(read, header);
}

#[test]
fn only_requests_and_responses_are_framed() {
    let header = ResponseHeader::default();
    let err = frame::encode_response(&header, &RequestHeader::default(), 1).unwrap_err();
    assert!(
        matches!(err, FrameError::NoApiKey("RequestHeader")),
        "{err:?}"
    );
}
