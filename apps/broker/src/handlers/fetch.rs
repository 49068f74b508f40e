//! Fetch: from any offset, with `max_wait_ms` long polling and `min_bytes`.
//!
//! No fetch sessions (KIP-227): every answer has session ID 0, which tells the
//! client to send full fetches.

use std::time::{Duration, Instant};

use kwire::Records;
use kwire_messages::api::fetch::{FetchableTopicResponse, PartitionData};
use kwire_messages::ErrorCode;
use kwire_messages::{api::FetchRequest, api::FetchResponse};

use crate::handlers::topic_name;
use crate::log::Topics;
use crate::Broker;

pub async fn answer(broker: &Broker, request: FetchRequest, version: i16) -> FetchResponse {
    let deadline = Instant::now() + Duration::from_millis(request.max_wait_ms.max(0) as u64);
    if request.session_id != 0 {
        let mut response = FetchResponse::default();
        response.error_code = ErrorCode::FetchSessionIdNotFound.code();
        return response;
    }
    loop {
        // Subscribe before reading, so that an append in between still wakes us.
        let mut appended = broker.appended.subscribe();
        let (response, bytes, failed) = read(&broker.topics(), &request, version);
        let now = Instant::now();
        if failed || bytes >= request.min_bytes.max(0) as usize || now >= deadline {
            return response;
        }
        // Either new data or the deadline; both mean: read again.
        let _ = tokio::time::timeout(deadline - now, appended.changed()).await;
    }
}

/// One pass over the partitions asked for: the response, its record bytes, and
/// whether any partition failed (which answers at once, as Kafka does).
fn read(topics: &Topics, request: &FetchRequest, version: i16) -> (FetchResponse, usize, bool) {
    let mut budget = request.max_bytes.max(0) as usize;
    let mut total = 0;
    let mut failed = false;
    let responses = request
        .topics
        .iter()
        .map(|asked| {
            let name = topic_name(topics, &asked.topic, &asked.topic_id);
            let partitions = asked
                .partitions
                .iter()
                .map(|p| {
                    let mut data = PartitionData::default();
                    data.partition_index = p.partition;
                    let log = match &name {
                        Err(code) => Err(*code),
                        Ok(name) => topics
                            .partition(name, p.partition)
                            .ok_or(ErrorCode::UnknownTopicOrPartition.code()),
                    };
                    let log = match log {
                        Ok(log) => log,
                        Err(code) => {
                            failed = true;
                            data.error_code = code;
                            return data;
                        }
                    };
                    data.high_watermark = log.high_watermark();
                    data.last_stable_offset = log.high_watermark();
                    data.log_start_offset = log.log_start_offset();
                    // KIP-74: the first partition with data may exceed the limits
                    // by one batch, so that a large batch is never stuck.
                    let limit = (p.partition_max_bytes.max(0) as usize).min(budget);
                    match log.read(p.fetch_offset, limit, total == 0) {
                        Ok(records) => {
                            total += records.len();
                            budget = budget.saturating_sub(records.len());
                            data.records = Some(Records(records));
                        }
                        Err(error) => {
                            failed = true;
                            data.error_code = error.code();
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
    (response, total, failed)
}
