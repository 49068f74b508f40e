//! ListOffsets (earliest, latest, max timestamp, by timestamp) and
//! OffsetForLeaderEpoch (one epoch, 0, that ends at the log end).

use std::collections::HashSet;

use kwire_messages::api::list_offsets::{ListOffsetsPartitionResponse, ListOffsetsTopicResponse};
use kwire_messages::api::offset_for_leader_epoch::{EpochEndOffset, OffsetForLeaderTopicResult};
use kwire_messages::ErrorCode;
use kwire_messages::{
    api::ListOffsetsRequest, api::ListOffsetsResponse, api::OffsetForLeaderEpochRequest,
    api::OffsetForLeaderEpochResponse,
};

use kwire::records::DecompressionBudget;

use crate::log::{FoundOffset, LEADER_EPOCH};
use crate::Broker;

pub fn answer(broker: &Broker, request: ListOffsetsRequest, version: i16) -> ListOffsetsResponse {
    let topics = broker.topics();
    let duplicated = duplicate_partitions(&request);
    // READ_COMMITTED (1, v2+): nothing from the last stable offset on.
    let committed = request.isolation_level == 1;
    // What this request's lookups may decompress, all together.
    let mut budget = DecompressionBudget::new(&broker.config.decode);
    let answers = request
        .topics
        .iter()
        .map(|asked| {
            let partitions = asked
                .partitions
                .iter()
                .map(|p| {
                    let mut answer = ListOffsetsPartitionResponse::default();
                    answer.partition_index = p.partition_index;
                    answer.timestamp = -1;
                    answer.offset = -1;
                    let found = if duplicated.contains(&(asked.name.as_str(), p.partition_index)) {
                        Err(ErrorCode::InvalidRequest)
                    } else {
                        topics
                            .partition(asked.name.as_str(), p.partition_index)
                            .ok_or(ErrorCode::UnknownTopicOrPartition)
                            .and_then(|log| {
                                let found = log.find_offset(p.timestamp, &mut budget)?;
                                Ok(if committed {
                                    stable(found, p.timestamp, log.last_stable_offset())
                                } else {
                                    found
                                })
                            })
                    };
                    match found {
                        Ok(Some(found)) => {
                            answer.offset = found.offset;
                            answer.timestamp = found.timestamp;
                            // Not ignorable: the field must stay at its default
                            // where the version has none.
                            if version >= 4 {
                                answer.leader_epoch = LEADER_EPOCH;
                            }
                        }
                        Ok(None) => {}
                        Err(error) => answer.error_code = error.code(),
                    }
                    answer
                })
                .collect();
            let mut answer = ListOffsetsTopicResponse::default();
            answer.name = asked.name.clone();
            answer.partitions = partitions;
            answer
        })
        .collect();
    let mut response = ListOffsetsResponse::default();
    response.topics = answers;
    response
}

/// A lookup's answer for a read_committed consumer, as Kafka's
/// `ReplicaManager.fetchOffsetForTimestamp` gives it: the latest offset is the
/// last stable one, and an offset found at or past it is not found; the
/// earliest offsets are what they are.
fn stable(found: Option<FoundOffset>, timestamp: i64, last_stable: i64) -> Option<FoundOffset> {
    match timestamp {
        -1 => Some(FoundOffset {
            offset: last_stable,
            timestamp: -1,
        }),
        -2 | -4 | -5 => found,
        _ => found.filter(|f| f.offset < last_stable),
    }
}

/// The partitions named more than once. Kafka answers every row of such a
/// partition INVALID_REQUEST (`ListOffsetsRequest.duplicatePartitions`) rather
/// than search the log again for each: a timestamp lookup walks the log.
fn duplicate_partitions(request: &ListOffsetsRequest) -> HashSet<(&str, i32)> {
    let mut seen = HashSet::new();
    request
        .topics
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(|p| (t.name.as_str(), p.partition_index))
        })
        .filter(|key| !seen.insert(*key))
        .collect()
}

pub fn leader_epoch(
    broker: &Broker,
    request: OffsetForLeaderEpochRequest,
) -> OffsetForLeaderEpochResponse {
    let topics = broker.topics();
    // A repeat only reads the log end again: one fixed-size row per entry.
    let answers = request
        .topics
        .into_iter()
        .map(|asked| {
            let partitions = asked
                .partitions
                .iter()
                .map(|p| {
                    let mut answer = EpochEndOffset::default();
                    answer.partition = p.partition;
                    match topics.partition(asked.topic.as_str(), p.partition) {
                        None => answer.error_code = ErrorCode::UnknownTopicOrPartition.code(),
                        // Every epoch up to ours ends where the log ends; a later
                        // one is unknown (-1, -1), as Kafka answers.
                        Some(log) if p.leader_epoch <= LEADER_EPOCH => {
                            answer.leader_epoch = LEADER_EPOCH;
                            answer.end_offset = log.high_watermark();
                        }
                        Some(_) => {
                            answer.leader_epoch = -1;
                            answer.end_offset = -1;
                        }
                    }
                    answer
                })
                .collect();
            let mut answer = OffsetForLeaderTopicResult::default();
            answer.topic = asked.topic;
            answer.partitions = partitions;
            answer
        })
        .collect();
    let mut response = OffsetForLeaderEpochResponse::default();
    response.topics = answers;
    response
}

#[cfg(test)]
mod tests {
    use kwire_messages::api::list_offsets::{ListOffsetsPartition, ListOffsetsTopic};

    use super::*;
    use crate::config::Limits;
    use crate::handlers::testing;

    /// 500 rows for one partition each walked the log; Kafka refuses them.
    #[test]
    fn a_partition_named_twice_is_an_invalid_request_in_every_row() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 2);
        let mut topic = ListOffsetsTopic::default();
        topic.name = "t".into();
        topic.partitions = [0, 1, 0, 0]
            .into_iter()
            .map(|index| {
                let mut p = ListOffsetsPartition::default();
                p.partition_index = index;
                p.timestamp = -3;
                p
            })
            .collect();
        let mut request = ListOffsetsRequest::default();
        request.topics = vec![topic];
        let response = answer(&broker, request, 8);
        let codes: Vec<i16> = response.topics[0]
            .partitions
            .iter()
            .map(|p| p.error_code)
            .collect();
        let invalid = ErrorCode::InvalidRequest.code();
        assert_eq!(codes, [invalid, 0, invalid, invalid]);
    }

    /// Each lookup inside a compressed batch decompresses it; a request's lookups
    /// together decompress no more than `--max-request-decompressed-bytes`.
    #[test]
    fn lookups_in_compressed_batches_share_the_requests_decompression_budget() {
        use kwire::records::{Compression, RecordBatchBuilder};

        let mut broker = testing::broker(Limits::default());
        broker.config.decode = broker.config.decode.with_max_decompressed_bytes(150_000);
        broker.topics().create("t", 3);
        let mut builder = RecordBatchBuilder::new(0).compression(Compression::Gzip);
        builder
            .append(5, None, Some(&[b'v'; 100_000]), &[])
            .expect("append");
        let batch = builder.build().expect("build");
        assert!(batch.len() < 10_000, "compressed");
        for partition in 0..3 {
            let appended = broker.topics().append("t", partition, &batch, u64::MAX);
            assert_eq!(appended, Some(Ok(0)));
        }
        let mut topic = ListOffsetsTopic::default();
        topic.name = "t".into();
        topic.partitions = (0..3)
            .map(|index| {
                let mut p = ListOffsetsPartition::default();
                p.partition_index = index;
                p.timestamp = 5;
                p
            })
            .collect();
        let mut request = ListOffsetsRequest::default();
        request.topics = vec![topic];
        let response = answer(&broker, request, 8);
        let found: Vec<(i16, i64)> = response.topics[0]
            .partitions
            .iter()
            .map(|p| (p.error_code, p.offset))
            .collect();
        let refused = (ErrorCode::PolicyViolation.code(), -1);
        assert_eq!(found, [(0, 0), refused, refused]);
    }
}
