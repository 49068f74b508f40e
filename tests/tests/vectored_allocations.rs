//! What a vectored frame costs: the records a Produce or Fetch carries are never
//! copied, on the client's path (`ClientSession::send`, then a gather write) or on
//! the broker's (`frame::encode_any_response_vectored`, then a gather write). A
//! counting global allocator counts the bytes allocated while framing and writing a
//! megabyte-a-partition message: a copy of any payload would be at least a mebibyte.

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use bytes::{Buf, Bytes};
use counting_allocator::allocated_during;
use kwire::wire::ChunkedBytes;
use kwire::{KafkaString, Records, Uuid};
use kwire_messages::api::fetch::{FetchResponse, FetchableTopicResponse, PartitionData};
use kwire_messages::api::produce::{PartitionProduceData, ProduceRequest, TopicProduceData};
use kwire_messages::{frame, Request, Response, ResponseHeader};
use kwire_net::blocking::write_all_buf;
use kwire_net::session::ClientSession;

const PARTITIONS: usize = 10;
const PAYLOAD: usize = 1 << 20;
/// Far below one payload: what framing may allocate for the header, the ordinary
/// fields and the list of chunks.
const FRAMING_BUDGET: usize = 8 * 1024;

/// `PARTITIONS` distinct payloads of `PAYLOAD` bytes.
fn payloads() -> Vec<Bytes> {
    (0..PARTITIONS)
        .map(|p| Bytes::from(vec![p as u8; PAYLOAD]))
        .collect()
}

/// A writer that takes every byte and keeps only a count: a socket, for this test.
#[derive(Default)]
struct Socket {
    taken: usize,
    writes: usize,
}

impl std::io::Write for Socket {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_vectored(&[std::io::IoSlice::new(buf)])
    }

    fn write_vectored(&mut self, slices: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
        self.writes += 1;
        let len = slices.iter().map(|slice| slice.len()).sum::<usize>();
        self.taken += len;
        Ok(len)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes `frame` to a [`Socket`] and returns it, requiring that the write
/// allocated nothing.
fn written(mut frame: ChunkedBytes) -> Socket {
    let mut socket = Socket::default();
    let ((), allocated) =
        allocated_during(|| write_all_buf(&mut socket, &mut frame).expect("written"));
    assert_eq!(allocated.bytes, 0, "writing the frame allocated");
    assert!(!frame.has_remaining());
    socket
}

/// Every payload is a chunk of `frame`, by address.
fn attached(frame: &ChunkedBytes, payloads: &[Bytes]) -> bool {
    payloads.iter().all(|payload| {
        frame
            .chunks()
            .any(|chunk| chunk.as_ptr() == payload.as_ptr())
    })
}

#[test]
fn a_client_frames_and_writes_a_produce_without_copying_its_records() {
    let payloads = payloads();
    let partitions = payloads
        .iter()
        .enumerate()
        .map(|(index, payload)| {
            PartitionProduceData::default()
                .with_index(index as i32)
                .with_records(Some(Records(payload.clone())))
        })
        .collect();
    let request = Request::Produce(ProduceRequest::default().with_acks(-1).with_topic_data(
        vec![TopicProduceData::default()
                .with_name(KafkaString::from("orders"))
                .with_partition_data(partitions)],
    ));
    let mut session = ClientSession::new(Some("client".into()));

    let (sent, allocated) = allocated_during(|| session.send(&request, 9).expect("frames"));
    assert!(
        allocated.bytes < FRAMING_BUDGET,
        "framing a Produce of {PARTITIONS} x {PAYLOAD} bytes allocated {allocated:?}"
    );
    assert!(attached(&sent.frame, &payloads), "a batch was copied");
    assert!(sent.frame.len() > PARTITIONS * PAYLOAD);

    assert_eq!(written(sent.frame).writes, 1, "one gather write");
}

#[test]
fn a_broker_frames_and_writes_a_fetch_answer_without_copying_its_records() {
    let payloads = payloads();
    let partitions = payloads
        .iter()
        .enumerate()
        .map(|(index, payload)| {
            PartitionData::default()
                .with_partition_index(index as i32)
                .with_high_watermark(1)
                .with_records(Some(Records(payload.clone())))
        })
        .collect();
    let response = Response::Fetch(FetchResponse::default().with_responses(vec![
        FetchableTopicResponse::default()
            .with_topic_id(Uuid::from_u64_pair(1, 2))
            .with_partitions(partitions),
    ]));
    let header = ResponseHeader::default().with_correlation_id(3);

    let (frame, allocated) = allocated_during(|| {
        frame::encode_any_response_vectored(&header, &response, 16).expect("frames")
    });
    assert!(
        allocated.bytes < FRAMING_BUDGET,
        "framing a FetchResponse of {PARTITIONS} x {PAYLOAD} bytes allocated {allocated:?}"
    );
    assert!(attached(&frame, &payloads), "a batch was copied");

    // The same bytes as the contiguous frame, which copies (and is what the
    // allocator sees a copy as).
    let (contiguous, copied) =
        allocated_during(|| frame::encode_any_response(&header, &response, 16).expect("frames"));
    assert!(copied.bytes >= PARTITIONS * PAYLOAD, "{copied:?}");
    assert!(frame == contiguous[..]);

    assert_eq!(written(frame).taken, contiguous.len());
}
