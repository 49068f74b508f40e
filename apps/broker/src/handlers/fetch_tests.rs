//! Fetch's limits, each against the request that broke them.

use kwire_messages::api::fetch::{FetchPartition, FetchTopic};

use super::*;
use crate::handlers::testing::{self, batch_of_value as batch};
use crate::Broker;

/// A broker whose topic `t` has `partitions` partitions, each holding
/// `batches` batches of `size` value bytes.
fn stored(limits: Limits, partitions: usize, batches: usize, size: usize) -> Broker {
    let broker = testing::broker(limits);
    let mut topics = broker.topics();
    topics.create("t", partitions);
    for partition in 0..partitions as i32 {
        let log = topics.partition_mut("t", partition).expect("created");
        for _ in 0..batches {
            log.append(&batch(size)).expect("append");
        }
    }
    drop(topics);
    broker
}

/// A v12 request (topics by name) with `max_bytes`, naming these partitions
/// of `t` in this order, each from offset 0 with `partition_max_bytes`.
fn fetching(partitions: &[i32], max_bytes: i32, partition_max_bytes: i32) -> FetchRequest {
    let mut topic = FetchTopic::default();
    topic.topic = "t".into();
    topic.partitions = partitions
        .iter()
        .map(|&index| {
            let mut p = FetchPartition::default();
            p.partition = index;
            p.partition_max_bytes = partition_max_bytes;
            p
        })
        .collect();
    let mut request = FetchRequest::default();
    request.max_bytes = max_bytes;
    request.topics = vec![topic];
    request
}

/// The record bytes of each partition answered, as (index, bytes).
fn served(response: &FetchResponse) -> Vec<(i32, usize)> {
    response
        .responses
        .iter()
        .flat_map(|t| &t.partitions)
        .map(|p| {
            (
                p.partition_index,
                p.records.as_ref().map_or(0, |r| r.0.len()),
            )
        })
        .collect()
}

fn run(broker: &Broker, request: FetchRequest) -> FetchResponse {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime");
    runtime.block_on(answer(broker, request, 12))
}

/// Several batches are served as one slice of the log, not a copy: two fetches
/// of them hand out the same memory, and no budget is taken for a copy.
#[test]
fn several_batches_are_served_from_the_log_without_a_copy() {
    let broker = stored(Limits::default(), 2, 3, 1000);
    let records = |response: FetchResponse| {
        let partition = &response.responses[0].partitions[0];
        partition.records.clone().expect("records").0
    };
    let first = records(run(&broker, fetching(&[0], i32::MAX, i32::MAX)));
    assert!(first.len() > 3000, "three batches served: {}", first.len());
    assert_eq!(kwire::records::Batches::new(first.clone()).count(), 3);
    let again = records(run(&broker, fetching(&[0], i32::MAX, i32::MAX)));
    assert_eq!(
        first.as_ptr(),
        again.as_ptr(),
        "the log's memory, both times"
    );
    assert_eq!(broker.responses.available(), broker.responses.bytes());
}

/// The attack: 500 repeats of one partition, max_bytes 2^31-1, over 1 MiB
/// stored answered 493 MiB. Now the partition is served once.
#[test]
fn a_partition_named_500_times_is_served_once() {
    let broker = stored(Limits::default(), 1, 16, 64 * 1024);
    let repeats = vec![0; 500];
    let response = run(&broker, fetching(&repeats, i32::MAX, i32::MAX));
    let answered = served(&response);
    assert_eq!(answered.len(), 1, "{answered:?}");
    let (index, bytes) = answered[0];
    assert_eq!(index, 0);
    // What naming it once gets: up to the end of the log's first segment.
    let once = served(&run(&broker, fetching(&[0], i32::MAX, i32::MAX)));
    assert_eq!(once, answered);
    assert!(bytes >= 64 * 1024 && bytes <= Limits::default().fetch_max_bytes as usize);
}

/// A repeat takes the last entry's fields at the first entry's place, as
/// Kafka's LinkedHashMap does.
#[test]
fn a_repeated_partition_takes_the_last_entrys_offset() {
    let broker = stored(Limits::default(), 2, 3, 100);
    let mut request = fetching(&[0, 1, 0], i32::MAX, i32::MAX);
    request.topics[0].partitions[2].fetch_offset = 2;
    let response = run(&broker, request);
    let answered = served(&response);
    assert_eq!(answered.iter().map(|a| a.0).collect::<Vec<_>>(), [0, 1]);
    // Partition 0 from offset 2: one batch of three.
    assert_eq!(answered[0].1 * 3, answered[1].1);
}

/// Over many partitions the answer stops at `fetch.max.bytes`, whatever the
/// request's own max_bytes.
#[test]
fn the_answer_is_capped_by_fetch_max_bytes() {
    let limits = Limits {
        fetch_max_bytes: 256 * 1024,
        ..Limits::default()
    };
    let broker = stored(limits, 20, 4, 16 * 1024);
    let all: Vec<i32> = (0..20).collect();
    let response = run(&broker, fetching(&all, i32::MAX, i32::MAX));
    let total: usize = served(&response).iter().map(|a| a.1).sum();
    assert!(total <= 256 * 1024, "{total}");
    assert!(total > 200 * 1024, "the budget is used: {total}");
    // The request's own max_bytes caps it further.
    let response = run(&broker, fetching(&all, 100 * 1024, i32::MAX));
    let total: usize = served(&response).iter().map(|a| a.1).sum();
    assert!(total <= 100 * 1024, "{total}");
}

/// KIP-74: the first batch of the first partition with data is returned even
/// when larger than every limit, and nothing after it once the budget is gone.
#[test]
fn the_first_batch_gets_through_even_if_larger_than_the_limits() {
    let limits = Limits {
        fetch_max_bytes: 1000,
        ..Limits::default()
    };
    let broker = stored(limits, 2, 2, 10_000);
    let response = run(&broker, fetching(&[0, 1], 1000, 100));
    let answered = served(&response);
    assert_eq!(answered.len(), 2);
    let (first, second) = (answered[0].1, answered[1].1);
    assert!(first > 10_000 && first < 20_000, "one whole batch: {first}");
    assert_eq!(second, 0, "the budget is spent");
}

#[test]
fn the_wait_is_bounded_by_fetch_max_wait_ms() {
    let limits = Limits::default();
    assert_eq!(
        longest_wait(i32::MAX, &limits),
        Duration::from_millis(limits.fetch_max_wait_ms as u64)
    );
    assert_eq!(longest_wait(500, &limits), Duration::from_millis(500));
    assert_eq!(longest_wait(-5, &limits), Duration::ZERO);
}

#[test]
fn the_budget_is_the_smaller_of_the_request_and_the_broker() {
    let limits = Limits::default();
    assert_eq!(response_budget(i32::MAX, &limits), 57_671_680);
    assert_eq!(response_budget(1000, &limits), 1000);
    assert_eq!(response_budget(-1, &limits), 0);
}

/// A transaction of `records` records by producer 7 on t-0, left open.
fn open_transaction(broker: &Broker, records: usize) {
    let mut builder = kwire::records::RecordBatchBuilder::new(0)
        .producer(7, 0, 0)
        .transactional(true);
    for i in 0..records {
        builder
            .append(i as i64, None, Some(b"v"), &[])
            .expect("append");
    }
    let mut topics = broker.topics();
    let log = topics.partition_mut("t", 0).expect("t-0");
    log.begin_transaction(7, 0);
    log.append(&builder.build().expect("build"))
        .expect("stored");
}

/// read_committed: nothing from the last stable offset on, which the answer
/// names, and the aborted transactions within what is answered;
/// read_uncommitted: everything, and no list (null).
#[test]
fn read_committed_stops_at_the_last_stable_offset_and_lists_aborted_transactions() {
    let broker = stored(Limits::default(), 1, 1, 10);
    open_transaction(&broker, 3);
    let mut request = fetching(&[0], i32::MAX, i32::MAX);
    request.isolation_level = 1;
    let response = run(&broker, request.clone());
    let partition = &response.responses[0].partitions[0];
    assert_eq!(
        (partition.high_watermark, partition.last_stable_offset),
        (4, 1)
    );
    let records = partition.records.clone().expect("records").0;
    assert_eq!(
        kwire::records::Batches::new(records).count(),
        1,
        "up to the open one"
    );
    assert_eq!(
        partition.aborted_transactions.as_ref().map(Vec::len),
        Some(0)
    );

    broker.topics().end_transaction("t", 0, 7, 0, false, 0);
    let mut offsets = Vec::new();
    let mut aborted = Vec::new();
    let mut offset = 0;
    // Read after read: each stops at the end of a segment.
    while offset < 5 {
        request.topics[0].partitions[0].fetch_offset = offset;
        let response = run(&broker, request.clone());
        let partition = &response.responses[0].partitions[0];
        assert_eq!(partition.last_stable_offset, 5);
        aborted.extend(partition.aborted_transactions.clone().unwrap_or_default());
        for batch in kwire::records::Batches::new(partition.records.clone().expect("records").0) {
            let batch = batch.expect("a batch");
            offsets.push(batch.base_offset());
            offset = batch.last_offset() + 1;
        }
    }
    assert_eq!(
        offsets,
        [0, 1, 4],
        "the aborted records and their marker are read"
    );
    assert_eq!(
        aborted
            .iter()
            .map(|a| (a.producer_id, a.first_offset))
            .collect::<Vec<_>>()[..1],
        [(7, 1)]
    );

    let mut uncommitted = fetching(&[0], i32::MAX, i32::MAX);
    uncommitted.isolation_level = 0;
    let response = run(&broker, uncommitted);
    assert_eq!(
        response.responses[0].partitions[0].aborted_transactions,
        None
    );
}
