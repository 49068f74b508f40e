//! Every error says each fact once: its `Display` and the `Display`s of its
//! `source()` chain never repeat one another, so printing the chain (as anyhow's
//! `{:#}` does) reads cleanly.

use std::error::Error;

use bytes::Bytes;
use kwire::{Message, Uuid, VersionRange};
use kwire_messages::frame::{self, FrameError};
use kwire_messages::{api::ApiVersionsRequest, api::MetadataResponse, RequestHeader};
use kwire_tests::codecs::{codec, RecodeError};

/// The messages of `error`'s chain, outermost first.
fn chain(error: &dyn Error) -> Vec<String> {
    let mut messages = vec![error.to_string()];
    let mut next = error.source();
    while let Some(source) = next {
        messages.push(source.to_string());
        next = source.source();
    }
    messages
}

fn assert_said_once(error: &dyn Error) {
    let messages = chain(error);
    for (i, outer) in messages.iter().enumerate() {
        for inner in &messages[i + 1..] {
            assert!(
                !outer.contains(inner.as_str()),
                "`{outer}` repeats its source `{inner}`"
            );
        }
    }
}

#[test]
fn decode_and_encode_errors_say_each_fact_once() {
    let decode = MetadataResponse::decode(&Bytes::from_static(&[0, 0, 0, 9]), 0).unwrap_err();
    assert_said_once(&decode);
    let encode = RequestHeader::default()
        .with_client_id(None)
        .with_request_api_key(18)
        .encode(0)
        .unwrap_err();
    assert_said_once(&encode);
}

#[test]
fn frame_errors_say_each_fact_once() {
    let header = RequestHeader::default().with_request_api_key(18);
    let truncated = frame::encode_request(&header, &ApiVersionsRequest::default()).unwrap();
    let mut bytes = truncated.to_vec();
    bytes[3] += 1;
    bytes.push(0xff);
    let errors: Vec<FrameError> = vec![
        frame::decode_request::<ApiVersionsRequest>(&Bytes::from(bytes)).unwrap_err(),
        frame::decode_request::<ApiVersionsRequest>(&Bytes::from_static(&[0, 0, 0, 9]))
            .unwrap_err(),
        frame::encode_request(&header, &MetadataResponse::default()).unwrap_err(),
    ];
    for error in &errors {
        assert_said_once(error);
    }
}

#[test]
fn test_and_parse_errors_say_each_fact_once() {
    let codec = codec("ApiVersionsRequest").expect("registered");
    let recode: RecodeError = (codec.recode)(&Bytes::from_static(&[0xff]), 3).unwrap_err();
    assert_said_once(&recode);
    assert_said_once(&VersionRange::parse("3-2").unwrap_err());
    assert_said_once(&"AAAA".parse::<Uuid>().unwrap_err());
}
