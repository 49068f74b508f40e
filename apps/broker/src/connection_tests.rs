//! What the connection writes: a Fetch's record batches go from the log's memory to
//! the socket, never copied into the response frame.

use bytes::Buf;
use kwire_messages::api::fetch::{FetchPartition, FetchRequest, FetchTopic};
use kwire_messages::RequestHeader;

use super::*;
use crate::config::Limits;
use crate::handlers::testing::{self, batch_of_value as batch};
use crate::listeners::Protocol;

/// A FetchRequest v12 frame for partition 0 of `t` from offset 0.
fn fetch_frame() -> Bytes {
    let mut partition = FetchPartition::default();
    partition.partition_max_bytes = 8 << 20;
    let mut topic = FetchTopic::default();
    topic.topic = "t".into();
    topic.partitions = vec![partition];
    let mut request = FetchRequest::default();
    request.max_bytes = 8 << 20;
    request.topics = vec![topic];
    let header = RequestHeader::default()
        .with_request_api_key(ApiKey::Fetch.key())
        .with_request_api_version(12)
        .with_correlation_id(1);
    frame::encode_request(&header, &request).expect("frames")
}

/// What a plaintext listener makes of `frame`: an answer, or the reason it closes
/// the connection.
fn answer_plaintext(broker: &Broker, frame: &Bytes) -> Result<Answer, Closed> {
    let endpoint = Endpoint {
        protocol: Protocol::Plaintext,
        tls: None,
        host: "localhost".into(),
        port: 9092,
    };
    let peer = "127.0.0.1:50000".parse().expect("an address");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime");
    let mut held = Held::default();
    runtime.block_on(answer(broker, &endpoint, frame, peer, &mut held, None))
}

/// The answer to `frame` on a plaintext listener.
fn answered(broker: &Broker, frame: &Bytes) -> ChunkedBytes {
    match answer_plaintext(broker, frame) {
        Ok(Answer::Frame(frame)) => frame,
        Ok(_) => panic!("a Fetch is answered with a frame"),
        Err(closed) => panic!("the connection was closed: {closed}"),
    }
}

#[test]
fn a_fetched_batch_is_written_from_the_logs_own_memory() {
    let broker = testing::broker(Limits::default());
    let stored = {
        let mut topics = broker.topics();
        topics.create("t", 1);
        let log = topics.partition_mut("t", 0).expect("created");
        log.append(&batch(1 << 20)).expect("append");
        log.read(0, usize::MAX, true, false)
            .expect("read")
            .into_bytes()
    };
    let frame = answered(&broker, &fetch_frame());

    // The header and fields, then the batch as the log holds it, then the rest.
    let chunks: Vec<&[u8]> = frame.chunks().collect();
    assert_eq!(
        chunks.len(),
        3,
        "{:?}",
        chunks.iter().map(|c| c.len()).collect::<Vec<_>>()
    );
    assert_eq!(chunks[1].as_ptr(), stored.as_ptr(), "the batch was copied");
    assert_eq!(chunks[1].len(), stored.len());
    assert!(chunks[0].len() + chunks[2].len() < 200);

    // And the frame reads as the answer it is.
    let (_, response) =
        frame::decode_any_response(&frame.to_bytes(), ApiKey::Fetch, 12).expect("decodes");
    let Response::Fetch(fetch) = response else {
        panic!("a FetchResponse")
    };
    let records = fetch.responses[0].partitions[0]
        .records
        .as_ref()
        .expect("records");
    assert_eq!(records.0, stored);
}

#[test]
fn every_answer_is_one_frame_of_its_own_length() {
    let broker = testing::broker(Limits::default());
    broker.topics().create("t", 1);
    let mut frame = answered(&broker, &fetch_frame());
    let length = frame.len();
    let prefix = frame.get_i32();
    assert_eq!(usize::try_from(prefix).expect("positive") + 4, length);
}

/// A request over the broker's decode limits is refused as it is decoded, naming
/// the limit, and closes the connection as any unreadable request does.
#[test]
fn a_request_over_the_decode_limits_is_refused_naming_the_limit() {
    use kwire::{DecodeErrorKind, Limit};
    use kwire_messages::api::metadata::{MetadataRequest, MetadataRequestTopic};
    use kwire_messages::frame::FrameError;

    let broker = testing::broker(Limits {
        max_request_array_elements: 2,
        ..Limits::default()
    });
    let topics = vec![MetadataRequestTopic::default().with_name(Some("t".into())); 3];
    let header = RequestHeader::default()
        .with_request_api_key(ApiKey::Metadata.key())
        .with_request_api_version(12)
        .with_correlation_id(9);
    let frame = frame::encode_request(
        &header,
        &MetadataRequest::default().with_topics(Some(topics)),
    )
    .expect("frames");
    match answer_plaintext(&broker, &frame) {
        Err(Closed::Request(RequestError {
            error: FrameError::Decode(error),
            ..
        })) => assert_eq!(
            error.kind(),
            &DecodeErrorKind::LimitExceeded {
                limit: Limit::ArrayElements,
                value: 3,
                max: 2
            }
        ),
        Err(other) => panic!("closed for another reason: {other}"),
        Ok(_) => panic!("answered a request over the limits"),
    }
}

/// A ProduceRequest v9 frame: one batch to partition `partition` of `t`.
fn produce_frame(acks: i16, partition: i32) -> Bytes {
    use kwire::Records;
    use kwire_messages::api::produce::{PartitionProduceData, ProduceRequest, TopicProduceData};

    let mut data = PartitionProduceData::default();
    data.index = partition;
    data.records = Some(Records(batch(10)));
    let mut topic = TopicProduceData::default();
    topic.name = "t".into();
    topic.partition_data = vec![data];
    let mut request = ProduceRequest::default();
    request.acks = acks;
    request.timeout_ms = 1000;
    request.topic_data = vec![topic];
    let header = RequestHeader::default()
        .with_request_api_key(ApiKey::Produce.key())
        .with_request_api_version(9)
        .with_correlation_id(3);
    frame::encode_request(&header, &request).expect("frames")
}

/// acks = 0, written: no answer, and the connection goes on (Kafka's
/// `sendNoOpResponseExemptThrottle`).
#[test]
fn a_written_produce_with_acks_0_is_not_answered() {
    let broker = testing::broker(Limits::default());
    broker.topics().create("t", 1);
    match answer_plaintext(&broker, &produce_frame(0, 0)) {
        Ok(Answer::Nothing) => {}
        Ok(_) => panic!("a Produce with acks=0 was answered"),
        Err(closed) => panic!("the connection was closed: {closed}"),
    }
    let end = broker
        .topics()
        .partition("t", 0)
        .expect("created")
        .high_watermark();
    assert_eq!(end, 1, "the record was not written");
}

/// acks = 0, not written (a partition that does not exist): the connection is
/// closed unanswered, as Kafka closes it, the producer's only sign of trouble;
/// with acks = 1 the same request is answered with the partition's error.
#[test]
fn a_refused_produce_with_acks_0_closes_the_connection() {
    let broker = testing::broker(Limits::default());
    broker.topics().create("t", 1);
    match answer_plaintext(&broker, &produce_frame(0, 7)) {
        Err(Closed::AcksZeroRefused(error)) => {
            assert_eq!(error, ErrorCode::UnknownTopicOrPartition);
        }
        Err(closed) => panic!("closed for another reason: {closed}"),
        Ok(_) => panic!("the connection stayed open"),
    }
    let answer = answered(&broker, &produce_frame(1, 7));
    let (_, response) =
        frame::decode_any_response(&answer.to_bytes(), ApiKey::Produce, 9).expect("decodes");
    let Response::Produce(produce) = response else {
        panic!("a ProduceResponse")
    };
    let code = produce.responses[0].partition_responses[0].error_code;
    assert_eq!(code, ErrorCode::UnknownTopicOrPartition.code());
}
