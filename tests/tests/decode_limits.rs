//! A server's decode limits (`kwire::DecodeLimits`): each one refuses what is
//! over it with a typed error naming it, before the memory it would size is
//! reserved (counted here by a counting global allocator); the default limits
//! decode as before; and a decoded message's `retained_size` is the heap memory
//! its decoding left allocated.

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use bytes::{BufMut, Bytes, BytesMut};
use counting_allocator::allocated_during;
use kwire::records::RecordsError;
use kwire::records::{Compression, DecompressionBudget, RecordBatch, RecordBatchBuilder};
use kwire::{DecodeErrorKind, DecodeLimits, KafkaString, Limit, Message, Records, Uuid, Wire};
use kwire_messages::api::metadata::{
    MetadataRequest, MetadataRequestTopic, MetadataResponse, MetadataResponseBroker,
    MetadataResponsePartition, MetadataResponseTopic,
};
use kwire_messages::api::produce::{PartitionProduceData, ProduceRequest, TopicProduceData};
use kwire_messages::api::sasl_authenticate::SaslAuthenticateRequest;
use kwire_messages::frame::FrameLengthError;
use kwire_net::splitter::FrameSplitter;

const MIB: usize = 1024 * 1024;

/// A flexible-version compact count (count + 1) as an unsigned varint.
fn compact(count: usize, out: &mut BytesMut) {
    let mut value = count as u64 + 1;
    while value >= 0x80 {
        out.put_u8((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.put_u8(value as u8);
}

/// The limit error of a decode, or a panic naming what came instead.
fn limit_of(kind: &DecodeErrorKind) -> (Limit, u64, u64) {
    match kind {
        DecodeErrorKind::LimitExceeded { limit, value, max } => (*limit, *value, *max),
        other => panic!("expected a limit exceeded, got {other:?}"),
    }
}

#[test]
fn a_frame_over_the_limit_is_refused_at_its_prefix_before_it_is_buffered() {
    let limits = DecodeLimits::default().with_max_frame_size(64 * 1024);
    let mut splitter = FrameSplitter::with_limits(&limits);
    // A prefix claiming a 1 GiB frame, then a few bytes of it.
    splitter.extend_from_slice(&(1i32 << 30).to_be_bytes());
    splitter.extend_from_slice(&[0; 16]);
    let (result, allocated) = allocated_during(|| splitter.next_frame());
    assert_eq!(
        result.unwrap_err(),
        FrameLengthError::TooLarge {
            len: 1 << 30,
            max: 64 * 1024
        }
    );
    assert!(allocated.peak < 1024, "{allocated:?}");
    // The messages crate's frame decoder keeps to the same limit.
    let frame = kwire_messages::frame::encode_request(
        &kwire_messages::RequestHeader::default()
            .with_request_api_key(3)
            .with_request_api_version(12),
        &MetadataRequest::default(),
    )
    .unwrap();
    let tiny = DecodeLimits::default().with_max_frame_size(4);
    let err = kwire_messages::frame::decode_request_with_limits::<MetadataRequest>(&frame, &tiny)
        .unwrap_err();
    assert!(
        matches!(
            err,
            kwire_messages::frame::FrameError::Length(FrameLengthError::TooLarge { max: 4, .. })
        ),
        "{err:?}"
    );
}

#[test]
fn ten_million_claimed_elements_allocate_nothing_near_that() {
    // MetadataRequest v12 (flexible): topics claims ten million entries.
    let mut body = BytesMut::new();
    compact(10_000_000, &mut body);
    body.put_bytes(0, 64);
    let body = body.freeze();
    let limits = DecodeLimits::default().with_max_array_len(1000);
    let (result, allocated) =
        allocated_during(|| MetadataRequest::decode_with_limits(&body, 12, &limits));
    let err = result.unwrap_err();
    assert_eq!(limit_of(err.kind()), (Limit::ArrayLength, 10_000_000, 1000));
    assert_eq!(err.path().to_string(), "MetadataRequest.Topics");
    assert!(allocated.peak < 1024, "{allocated:?}");
}

#[test]
fn many_real_elements_over_the_total_are_refused_before_they_are_built() {
    // 100,000 topics that are really there (18 bytes each on the wire, several
    // times that decoded): the count rule lets them through, the limit does not.
    let topics: Vec<MetadataRequestTopic> = (0..100_000u64)
        .map(|i| MetadataRequestTopic::default().with_topic_id(Uuid::from_u64_pair(i, 1)))
        .collect();
    let request = MetadataRequest::default().with_topics(Some(topics));
    let bytes = request.encode(12).unwrap();
    let decoded_size = 100_000 * std::mem::size_of::<MetadataRequestTopic>();
    assert!(decoded_size > bytes.len());

    let limits = DecodeLimits::default().with_max_array_elements(10_000);
    let (result, allocated) =
        allocated_during(|| MetadataRequest::decode_with_limits(&bytes, 12, &limits));
    assert_eq!(
        limit_of(result.unwrap_err().kind()),
        (Limit::ArrayElements, 100_000, 10_000)
    );
    assert!(allocated.peak < 1024, "{allocated:?}");
    // Within a limit that holds them, the same bytes decode.
    let roomy = DecodeLimits::default().with_max_array_elements(100_000);
    assert_eq!(
        MetadataRequest::decode_with_limits(&bytes, 12, &roomy).unwrap(),
        request
    );
}

#[test]
fn the_element_total_counts_every_array_of_the_message() {
    // Two brokers, two topics of three partitions, three replicas and three in
    // sync each: 2 + 2 + 2 * 3 + 6 * (3 + 3 + 0) elements = 46.
    let value = metadata(2, 2, 3);
    let bytes = value.encode(12).unwrap();
    let exact = DecodeLimits::default().with_max_array_elements(46);
    assert_eq!(
        MetadataResponse::decode_with_limits(&bytes, 12, &exact).unwrap(),
        value
    );
    let one_short = DecodeLimits::default().with_max_array_elements(45);
    let err = MetadataResponse::decode_with_limits(&bytes, 12, &one_short).unwrap_err();
    let (limit, _, max) = limit_of(err.kind());
    assert_eq!((limit, max), (Limit::ArrayElements, 45));
}

#[test]
fn a_gigabyte_bytes_value_over_the_limit_allocates_nothing() {
    // SaslAuthenticateRequest v0: auth_bytes claims 1 GiB.
    let mut body = BytesMut::new();
    body.put_i32(1 << 30);
    body.put_bytes(b'x', 64);
    let body = body.freeze();
    let limits = DecodeLimits::default().with_max_bytes_len(64 * 1024);
    let (result, allocated) =
        allocated_during(|| SaslAuthenticateRequest::decode_with_limits(&body, 0, &limits));
    assert_eq!(
        limit_of(result.unwrap_err().kind()),
        (Limit::BytesLength, 1 << 30, 64 * 1024)
    );
    assert!(allocated.peak < 1024, "{allocated:?}");
}

#[test]
fn strings_keep_to_the_server_limit_and_to_kafkas() {
    let request = MetadataRequest::default().with_topics(Some(vec![
        MetadataRequestTopic::default().with_name(Some(KafkaString::from("x".repeat(300)))),
    ]));
    let bytes = request.encode(12).unwrap();
    let limits = DecodeLimits::default().with_max_string_len(255);
    let err = MetadataRequest::decode_with_limits(&bytes, 12, &limits).unwrap_err();
    assert_eq!(limit_of(err.kind()), (Limit::StringLength, 300, 255));
    assert_eq!(err.path().to_string(), "MetadataRequest.Topics[0].Name");
    // No limit goes beyond Kafka's 32767: that is still Kafka's own error.
    let mut body = BytesMut::new();
    compact(1, &mut body); // one topic
    body.put_bytes(0, 16); // its id
    compact(40_000, &mut body); // its name's length
    body.put_bytes(b'x', 40_000);
    let err = MetadataRequest::decode(&body.freeze(), 12).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::StringTooLong(40_000));
}

/// A produce request of `batches` batches for one partition, each declaring
/// `records` records.
fn produce(batches: usize, records: usize, compression: Compression) -> ProduceRequest {
    let mut all = BytesMut::new();
    for b in 0..batches {
        let mut builder = RecordBatchBuilder::new((b * records) as i64).compression(compression);
        for _ in 0..records {
            builder
                .append(0, None, Some(&[7u8; 1000][..]), &[])
                .unwrap();
        }
        all.extend_from_slice(&builder.build().unwrap());
    }
    ProduceRequest::default().with_topic_data(vec![TopicProduceData::default()
        .with_name("orders".into())
        .with_partition_data(vec![
            PartitionProduceData::default().with_records(Some(Records(all.freeze())))
        ])])
}

#[test]
fn records_over_the_per_message_total_are_refused_as_the_field_is_decoded() {
    let request = produce(3, 10, Compression::None);
    let bytes = request.encode(9).unwrap();
    let limits = DecodeLimits::default().with_max_records(25);
    let err = ProduceRequest::decode_with_limits(&bytes, 9, &limits).unwrap_err();
    assert_eq!(limit_of(err.kind()), (Limit::Records, 30, 25));
    let enough = DecodeLimits::default().with_max_records(30);
    assert_eq!(
        ProduceRequest::decode_with_limits(&bytes, 9, &enough).unwrap(),
        request
    );
}

#[test]
fn a_batch_claiming_ten_million_records_is_refused_without_allocating() {
    let request = produce(1, 1, Compression::None);
    let mut bytes = BytesMut::from(&request.encode(9).unwrap()[..]);
    // The batch header's recordsCount, 4 bytes before its first record: find the
    // batch by its magic byte (2) after the base offset and length.
    let records = request.topic_data[0].partition_data[0]
        .records
        .as_ref()
        .unwrap()
        .to_vec();
    let at = bytes
        .windows(records.len())
        .position(|w| w == records.as_slice())
        .unwrap();
    bytes[at + 57..at + 61].copy_from_slice(&10_000_000i32.to_be_bytes());
    let bytes = bytes.freeze();
    let limits = DecodeLimits::default().with_max_records(1000);
    let (result, allocated) =
        allocated_during(|| ProduceRequest::decode_with_limits(&bytes, 9, &limits));
    assert_eq!(
        limit_of(result.unwrap_err().kind()),
        (Limit::Records, 10_000_000, 1000)
    );
    assert!(allocated.peak < 4096, "{allocated:?}");
}

#[test]
fn decompression_keeps_to_the_request_total() {
    // Three gzip batches of 400 records of 1000 bytes: each about 400 KB
    // decompressed, small compressed; the request may decompress 1 MiB in all.
    let request = produce(3, 400, Compression::Gzip);
    let records = request.topic_data[0].partition_data[0]
        .records
        .clone()
        .unwrap();
    let limits = DecodeLimits::default().with_max_decompressed_bytes(MIB);
    let mut budget = DecompressionBudget::new(&limits);
    let mut rest: Bytes = records.0;
    let mut outcomes = Vec::new();
    let mut peaks = Vec::new();
    while !rest.is_empty() {
        let (batch, next) = RecordBatch::parse(rest).unwrap();
        rest = next;
        let left = budget.left();
        let (outcome, allocated) =
            allocated_during(|| budget.records(&batch).map(|records| records.count()));
        outcomes.push(outcome);
        peaks.push((left, allocated.peak));
    }
    assert!(matches!(outcomes[0], Ok(400)), "{outcomes:?}");
    assert!(matches!(outcomes[1], Ok(400)), "{outcomes:?}");
    match &outcomes[2] {
        Err(RecordsError::LimitExceeded { limit, max, .. }) => {
            assert_eq!((*limit, *max), (Limit::DecompressedBytes, MIB as u64));
        }
        other => panic!("{other:?}"),
    }
    // The third batch stopped at what was left: its output buffer grew (by
    // doubling) towards that, never to the batch's whole size.
    let (left, peak) = peaks[2];
    assert!(left < MIB - 2 * 400 * 1000, "{peaks:?}");
    assert!(peak <= 2 * left, "{peaks:?}");
}

#[test]
fn the_default_limits_decode_as_before() {
    let value = metadata(3, 10, 5);
    let bytes = value.encode(12).unwrap();
    assert_eq!(
        MetadataResponse::decode_with_limits(&bytes, 12, &DecodeLimits::default()).unwrap(),
        MetadataResponse::decode(&bytes, 12).unwrap()
    );
    // Hostile counts are still refused by the count rule, as before.
    let mut body = BytesMut::new();
    compact(10_000_000, &mut body);
    body.put_bytes(0, 64);
    let err = MetadataRequest::decode(&body.freeze(), 12).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            DecodeErrorKind::ArrayTooLong {
                count: 10_000_000,
                ..
            }
        ),
        "{err:?}"
    );
    // Records are not looked into without a records limit: a batch claiming any
    // count decodes (the records layer refuses it when the records are read).
    let request = produce(1, 2, Compression::None);
    let bytes = request.encode(9).unwrap();
    assert_eq!(ProduceRequest::decode(&bytes, 9).unwrap(), request);
    assert_eq!(DecodeLimits::default().max_frame_size(), 100 * MIB);
    assert_eq!(
        FrameSplitter::with_limits(&DecodeLimits::default()).max_frame_size(),
        FrameSplitter::new().max_frame_size()
    );
}

/// A cluster map: `brokers` brokers, `topics` topics of `partitions` partitions,
/// each with three replicas, all in sync.
fn metadata(brokers: i32, topics: usize, partitions: i32) -> MetadataResponse {
    MetadataResponse::default()
        .with_brokers(
            (1..=brokers)
                .map(|node_id| {
                    MetadataResponseBroker::default()
                        .with_node_id(node_id)
                        .with_host(KafkaString::from(format!("broker-{node_id}")))
                        .with_port(9092)
                })
                .collect(),
        )
        .with_cluster_id(Some("cluster".into()))
        .with_topics(
            (0..topics)
                .map(|t| {
                    MetadataResponseTopic::default()
                        .with_name(Some(KafkaString::from(format!("topic-{t}"))))
                        .with_topic_id(Uuid::from_u64_pair(t as u64, 1))
                        .with_partitions(
                            (0..partitions)
                                .map(|index| {
                                    MetadataResponsePartition::default()
                                        .with_partition_index(index)
                                        .with_replica_nodes([1, 2, 3].into_iter().collect())
                                        .with_isr_nodes([1, 2, 3].into_iter().collect())
                                })
                                .collect(),
                        )
                })
                .collect(),
        )
}

#[test]
fn retained_size_is_what_decoding_left_allocated() {
    // Six replicas: the replica lists spill out of their four places in line, so
    // every kind of array holds heap memory.
    let mut value = metadata(3, 20, 8);
    for topic in &mut value.topics {
        for partition in &mut topic.partitions {
            partition.replica_nodes = (1..=6).collect();
        }
    }
    let bytes = value.encode(12).unwrap();
    // Share the input first, as any earlier reader would (see decode_allocations).
    let shared = bytes.slice(..);
    let (decoded, allocated) = allocated_during(|| MetadataResponse::decode(&bytes, 12).unwrap());
    drop(shared);
    assert_eq!(decoded, value);
    // The counting allocator's figure: bytes held after decoding.
    assert_eq!(decoded.retained_size() as isize, allocated.live);

    // And by hand, from the types' sizes: every array reserved exactly its count.
    use std::mem::size_of;
    let partitions = 20 * 8;
    let by_hand = 3 * size_of::<MetadataResponseBroker>()
        + 20 * size_of::<MetadataResponseTopic>()
        + partitions * size_of::<MetadataResponsePartition>()
        + partitions * 6 * size_of::<i32>(); // spilled replica lists; ISRs of 3 stay in line
    assert_eq!(decoded.retained_size(), by_hand);
    // Strings are slices of the frame: nothing of their own.
    assert_eq!(decoded.brokers[0].host.retained_size(), 0);
    // Through the dispatch enum, the same figure.
    let response = kwire_messages::Response::Metadata(decoded);
    assert_eq!(kwire::MessageEnum::retained_size(&response), by_hand);
}

/// A struct of every kind of field `retained_size` looks into.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0", flexible = "0+")]
struct Holder {
    /// An owned string: its capacity.
    #[kafka(versions = "0+")]
    owned: String,
    /// A shared string: nothing.
    #[kafka(versions = "0+")]
    shared: KafkaString,
    /// Nullable nested structs.
    #[kafka(versions = "0+", nullable = "0+")]
    items: Option<Vec<Item>>,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    unknown: kwire::UnknownTaggedFields,
}

/// A nested struct holding an array.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
struct Item {
    /// Values.
    #[kafka(versions = "0+")]
    values: Vec<i64>,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    unknown: kwire::UnknownTaggedFields,
}

#[test]
fn retained_size_looks_into_every_kind_of_field() {
    let mut value = Holder {
        owned: "abcdef".into(),
        shared: "xyz".into(),
        items: Some(vec![
            Item {
                values: vec![1, 2, 3],
                unknown: Default::default(),
            },
            Item {
                values: vec![],
                unknown: Default::default(),
            },
        ]),
        unknown: Default::default(),
    };
    value.unknown.insert(9, Bytes::from_static(b"tag"));
    let bytes = value.encode(0).unwrap();
    let shared = bytes.slice(..);
    let (decoded, allocated) = allocated_during(|| Holder::decode(&bytes, 0).unwrap());
    drop(shared);
    assert_eq!(decoded, value);
    use std::mem::size_of;
    // The unknown tags grow one push at a time: a `Vec`'s first push makes room
    // for four small elements.
    let by_hand = 6 // the owned string
        + 2 * size_of::<Item>() + 3 * size_of::<i64>() // the items and their values
        + size_of::<Vec<kwire::RawTaggedField>>() + 4 * size_of::<kwire::RawTaggedField>();
    assert_eq!(decoded.retained_size() as isize, allocated.live);
    assert_eq!(decoded.retained_size(), by_hand);
}
