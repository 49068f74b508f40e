//! The byte-exact promises of the foundation: ApiVersions framed at v2 and v3, unknown
//! tags kept and refused where they cannot go, ignorable fields dropped, and
//! non-ignorable ones refused with their name.

use bytes::Bytes;
use kwire::{EncodeErrorKind, KafkaString, Message, UnknownTaggedFields};
use kwire_messages::{api::ApiVersionsRequest, frame, RequestHeader};

fn hex(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).expect("test hex"))
        .collect()
}

fn header(version: i16, correlation_id: i32) -> RequestHeader {
    RequestHeader::default()
        .with_request_api_key(18)
        .with_request_api_version(version)
        .with_correlation_id(correlation_id)
        .with_client_id(Some(KafkaString::from_static("u03")))
}

fn request() -> ApiVersionsRequest {
    ApiVersionsRequest::default()
        .with_client_software_name(KafkaString::from_static("u03-app"))
        .with_client_software_version(KafkaString::from_static("1.0"))
}

#[test]
fn v2_request_frame_drops_the_ignorable_software_fields() {
    let bytes = frame::encode_request(&header(2, 1), &request()).unwrap();
    assert_eq!(
        bytes.as_ref(),
        hex("00 00 00 0d 00 12 00 02 00 00 00 01 00 03 75 30 33")
    );
    assert_eq!(bytes.len(), 17);
    let (read_header, body) = frame::decode_request::<ApiVersionsRequest>(&bytes).unwrap();
    assert_eq!(read_header, header(2, 1));
    assert_eq!(body, ApiVersionsRequest::default());
}

#[test]
fn v3_request_frame_uses_header_v2_with_a_classic_client_id() {
    let bytes = frame::encode_request(&header(3, 2), &request()).unwrap();
    assert_eq!(
        bytes.as_ref(),
        hex("00 00 00 1b 00 12 00 03 00 00 00 02 00 03 75 30 33 00 \
             08 75 30 33 2d 61 70 70 04 31 2e 30 00")
    );
    assert_eq!(bytes.len(), 31);
    let (read_header, body) = frame::decode_request::<ApiVersionsRequest>(&bytes).unwrap();
    assert_eq!(read_header, header(3, 2));
    assert_eq!(body, request());
}

#[test]
fn unknown_tags_are_kept_written_back_and_refused_at_v2() {
    let body = Bytes::from(hex(
        "08 75 30 33 2d 61 70 70 04 31 2e 30 01 63 05 68 65 6c 6c 6f",
    ));
    let decoded = ApiVersionsRequest::decode(&body, 4).unwrap();
    let unknown: Vec<_> = decoded.unknown_tagged_fields.iter().collect();
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].tag, 99);
    assert_eq!(unknown[0].data.as_ref(), b"hello");
    assert_eq!(decoded.encode(4).unwrap(), body);

    let err = decoded.encode(2).unwrap_err();
    assert_eq!(
        err.kind(),
        &EncodeErrorKind::TaggedFieldsNotSupported { version: 2 }
    );
    assert!(
        err.to_string()
            .contains("tagged fields are not supported at version 2"),
        "{err}"
    );
}

#[test]
fn an_ignorable_cluster_id_is_dropped_silently_at_v4() {
    let with_cluster = request()
        .with_cluster_id(Some(KafkaString::from_static("cluster-1")))
        .with_node_id(3);
    assert_eq!(
        with_cluster.encode(4).unwrap(),
        request().encode(4).unwrap()
    );
    // At v5 the fields exist and are written.
    let v5 = with_cluster.encode(5).unwrap();
    assert_eq!(ApiVersionsRequest::decode(&v5, 5).unwrap(), with_cluster);
}

/// A message whose `epoch` is not ignorable: setting it where it does not exist is
/// an error that names the field.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0-1", flexible = "1+")]
struct Strict {
    /// Always there.
    #[kafka(versions = "0+")]
    id: i32,
    /// Only from version 1.
    #[kafka(versions = "1+", default = -1)]
    epoch: i64,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    unknown: UnknownTaggedFields,
}

#[test]
fn a_non_ignorable_field_set_where_it_does_not_exist_fails_naming_it() {
    let value = Strict {
        id: 1,
        epoch: 5,
        ..Default::default()
    };
    let err = value.encode(0).unwrap_err();
    assert_eq!(
        err.kind(),
        &EncodeErrorKind::FieldNotInVersion { version: 0 }
    );
    assert_eq!(err.path().to_string(), "Strict.Epoch");
    assert!(err.to_string().contains("Strict.Epoch"), "{err}");
    assert!(err.to_string().contains("version 0"), "{err}");
    // At its default it is dropped: Kafka writes what the version can hold.
    let default_epoch = Strict {
        id: 1,
        ..Default::default()
    };
    assert_eq!(default_epoch.encode(0).unwrap().as_ref(), [0, 0, 0, 1]);
}

/// A name that may be null only from version 1.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0-1")]
struct LateNull {
    /// Null allowed from version 1.
    #[kafka(versions = "0+", nullable = "1+")]
    name: Option<KafkaString>,
}

#[test]
fn null_where_a_field_is_not_nullable_fails_both_ways() {
    let null = LateNull { name: None };
    assert_eq!(null.encode(1).unwrap().as_ref(), [0xff, 0xff]);
    let err = null.encode(0).unwrap_err();
    assert_eq!(err.kind(), &EncodeErrorKind::NullNotAllowed { version: 0 });
    assert_eq!(err.path().to_string(), "LateNull.Name");

    let err = LateNull::decode(&Bytes::from_static(&[0xff, 0xff]), 0).unwrap_err();
    assert_eq!(
        err.kind(),
        &kwire::DecodeErrorKind::UnexpectedNull { version: 0 }
    );
    assert_eq!(err.path().to_string(), "LateNull.Name");
    assert_eq!(
        LateNull::decode(&Bytes::from_static(&[0xff, 0xff]), 1).unwrap(),
        null
    );
}

#[test]
fn versions_outside_the_message_are_refused_both_ways() {
    let err = request().encode(6).unwrap_err();
    assert!(matches!(
        err.kind(),
        EncodeErrorKind::UnsupportedVersion { version: 6, .. }
    ));
    assert!(ApiVersionsRequest::decode(&Bytes::new(), -1).is_err());
}

#[test]
fn trailing_bytes_after_a_message_are_an_error() {
    let mut bytes = request().encode(3).unwrap().to_vec();
    bytes.push(0);
    let err = ApiVersionsRequest::decode(&Bytes::from(bytes), 3).unwrap_err();
    assert_eq!(err.offset(), 13);
}
