//! ListOffsets (earliest, latest, max timestamp, by timestamp) and
//! OffsetForLeaderEpoch (one epoch, 0, that ends at the log end).

use kwire_messages::api::list_offsets::{ListOffsetsPartitionResponse, ListOffsetsTopicResponse};
use kwire_messages::api::offset_for_leader_epoch::{EpochEndOffset, OffsetForLeaderTopicResult};
use kwire_messages::ErrorCode;
use kwire_messages::{
    api::ListOffsetsRequest, api::ListOffsetsResponse, api::OffsetForLeaderEpochRequest,
    api::OffsetForLeaderEpochResponse,
};

use crate::log::LEADER_EPOCH;
use crate::Broker;

pub fn answer(broker: &Broker, request: ListOffsetsRequest, version: i16) -> ListOffsetsResponse {
    let topics = broker.topics();
    let answers = request
        .topics
        .into_iter()
        .map(|asked| {
            let partitions = asked
                .partitions
                .iter()
                .map(|p| {
                    let mut answer = ListOffsetsPartitionResponse::default();
                    answer.partition_index = p.partition_index;
                    answer.timestamp = -1;
                    answer.offset = -1;
                    let found = topics
                        .partition(asked.name.as_str(), p.partition_index)
                        .ok_or(ErrorCode::UnknownTopicOrPartition)
                        .and_then(|log| log.find_offset(p.timestamp));
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
            answer.name = asked.name;
            answer.partitions = partitions;
            answer
        })
        .collect();
    let mut response = ListOffsetsResponse::default();
    response.topics = answers;
    response
}

pub fn leader_epoch(
    broker: &Broker,
    request: OffsetForLeaderEpochRequest,
) -> OffsetForLeaderEpochResponse {
    let topics = broker.topics();
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
