//! Fetch: from any offset, with `max_wait_ms` long polling and `min_bytes`.
//!
//! No fetch sessions (KIP-227): every answer has session ID 0, which tells the
//! client to send full fetches.
//!
//! What a request can make the broker hold is bounded by the broker, not the
//! client: record bytes by `--fetch-max-bytes` (Kafka's `fetch.max.bytes`) and
//! the request's own limits, each partition served once however often it is
//! named, and the wait by `--fetch-max-wait-ms`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use kwire::{Records, Uuid};
use kwire_messages::api::fetch::{
    AbortedTransaction, FetchPartition, FetchTopic, FetchableTopicResponse, PartitionData,
};
use kwire_messages::ErrorCode;
use kwire_messages::{api::FetchRequest, api::FetchResponse};

use crate::config::Limits;
use crate::handlers::topic_name;
use crate::log::{StoredRead, Topics};
use crate::Broker;

/// The answer, its records slices of the partitions' logs (the connection takes
/// the budget for the frame that carries them).
pub async fn answer(broker: &Broker, request: FetchRequest, version: i16) -> FetchResponse {
    let limits = &broker.config.limits;
    let deadline = Instant::now() + longest_wait(request.max_wait_ms, limits);
    if request.session_id != 0 {
        let mut response = FetchResponse::default();
        response.error_code = ErrorCode::FetchSessionIdNotFound.code();
        return response;
    }
    let plan = served_once(&request.topics);
    // READ_COMMITTED (1): records up to the last stable offset only.
    let committed = request.isolation_level == 1;
    let budget = response_budget(request.max_bytes, limits);
    loop {
        // Subscribe before reading, so that an append in between still wakes us.
        let mut appended = broker.appended.subscribe();
        let read = read(&mut broker.topics(), &plan, budget, version, committed);
        let now = Instant::now();
        if read.failed || read.bytes >= request.min_bytes.max(0) as usize || now >= deadline {
            // The records are slices of the log, not copies: the answer's frame,
            // which holds them until written, is what takes budget.
            return read.into_response();
        }
        // Either new data or the deadline; both mean: read again.
        let _ = tokio::time::timeout(deadline - now, appended.changed()).await;
    }
}

/// How long a Fetch may wait for `min_bytes`: what it asks, at most
/// `--fetch-max-wait-ms` (a client may send 2^31-1 ms), never negative.
pub fn longest_wait(max_wait_ms: i32, limits: &Limits) -> Duration {
    let ms = max_wait_ms.clamp(0, limits.fetch_max_wait_ms.max(0));
    Duration::from_millis(ms as u64)
}

/// The record bytes one answer may carry (bar KIP-74's first batch): the
/// request's `max_bytes`, at most `fetch.max.bytes`, as Kafka's `KafkaApis`
/// computes `fetchMaxBytes`.
pub fn response_budget(max_bytes: i32, limits: &Limits) -> usize {
    max_bytes.min(limits.fetch_max_bytes).max(0) as usize
}

/// The partitions to serve, each once, grouped under the topic entries of the
/// request that name them first.
///
/// Kafka's broker reads a sessionless fetch into a `LinkedHashMap` keyed by
/// topic and partition (`FetchRequest.fetchData`): a partition named again
/// keeps its first place and takes the later entry's offset and limits, and the
/// answer has it once. So here: the first place, the last entry's fields.
/// Without this, 500 repeats of a partition over 1 MiB answered 493 MiB.
fn served_once(topics: &[FetchTopic]) -> Vec<(&FetchTopic, Vec<&FetchPartition>)> {
    // By the topic as the request names it: a version names every topic by
    // name (up to v12) or every topic by ID (v13+), never a mix.
    fn key<'a>(topic: &'a FetchTopic, p: &FetchPartition) -> (&'a str, Uuid, i32) {
        (topic.topic.as_str(), topic.topic_id, p.partition)
    }
    let mut last = HashMap::new();
    for topic in topics {
        for p in &topic.partitions {
            last.insert(key(topic, p), p);
        }
    }
    let mut plan = Vec::new();
    for topic in topics {
        // `remove` serves each key at its first place only.
        let partitions: Vec<&FetchPartition> = topic
            .partitions
            .iter()
            .filter_map(|p| last.remove(&key(topic, p)))
            .collect();
        if !partitions.is_empty() {
            plan.push((topic, partitions));
        }
    }
    plan
}

/// What one read of the partitions found: the answer without its record bytes,
/// and the batches that go in it, taken under one lock of the logs.
struct Read {
    response: FetchResponse,
    /// Each partition's batches, in the answer's order (`None`: no records).
    records: Vec<Option<StoredRead>>,
    /// The record bytes the answer carries.
    bytes: usize,
    /// Whether a partition failed, which answers at once, as Kafka does.
    failed: bool,
}

impl Read {
    /// The answer with its records in, each a slice of its partition's log.
    fn into_response(self) -> FetchResponse {
        let mut response = self.response;
        let partitions = response
            .responses
            .iter_mut()
            .flat_map(|topic| topic.partitions.iter_mut());
        for (data, records) in partitions.zip(self.records) {
            data.records = records.map(|read| Records(read.into_bytes()));
        }
        response
    }
}

/// One pass over the partitions to serve.
fn read(
    topics: &mut Topics,
    plan: &[(&FetchTopic, Vec<&FetchPartition>)],
    mut budget: usize,
    version: i16,
    committed: bool,
) -> Read {
    let mut total = 0;
    let mut failed = false;
    let mut records = Vec::new();
    let responses = plan
        .iter()
        .map(|(asked, partitions)| {
            let name = topic_name(topics, &asked.topic, &asked.topic_id);
            let partitions = partitions
                .iter()
                .map(|p| {
                    let mut data = PartitionData::default();
                    data.partition_index = p.partition;
                    let log = match &name {
                        Err(code) => Err(*code),
                        Ok(name) => topics
                            .partition_mut(name, p.partition)
                            .ok_or(ErrorCode::UnknownTopicOrPartition.code()),
                    };
                    let log = match log {
                        Ok(log) => log,
                        Err(code) => {
                            failed = true;
                            data.error_code = code;
                            records.push(None);
                            return data;
                        }
                    };
                    data.high_watermark = log.high_watermark();
                    data.last_stable_offset = log.last_stable_offset();
                    data.log_start_offset = log.log_start_offset();
                    // Kafka's `ReplicaManager.readFromLog`: each partition gets
                    // min(partition_max_bytes, what is left), and until one
                    // partition has returned data the first batch is returned
                    // whole even if larger (KIP-74), so a consumer never sticks.
                    let limit = (p.partition_max_bytes.max(0) as usize).min(budget);
                    match log.read(p.fetch_offset, limit, total == 0, committed) {
                        Ok(read) => {
                            // What a read_committed consumer must drop from
                            // these records, as Kafka lists it; null for
                            // read_uncommitted, as Kafka sends it.
                            data.aborted_transactions = None;
                            if committed {
                                let aborted = log
                                    .aborted_between(p.fetch_offset, read.end())
                                    .into_iter()
                                    .map(|a| {
                                        let mut t = AbortedTransaction::default();
                                        t.producer_id = a.producer_id;
                                        t.first_offset = a.first_offset;
                                        t
                                    })
                                    .collect();
                                data.aborted_transactions = Some(aborted);
                            }
                            total += read.len();
                            budget = budget.saturating_sub(read.len());
                            records.push(Some(read));
                        }
                        Err(error) => {
                            failed = true;
                            data.error_code = error.code();
                            records.push(None);
                        }
                    }
                    data
                })
                .collect();
            let mut response = FetchableTopicResponse::default();
            if version < 13 {
                response.topic = asked.topic.clone();
            }
            response.topic_id = asked.topic_id;
            response.partitions = partitions;
            response
        })
        .collect();
    let mut response = FetchResponse::default();
    response.responses = responses;
    Read {
        response,
        records,
        bytes: total,
        failed,
    }
}

#[cfg(test)]
#[path = "fetch_tests.rs"]
mod tests;
