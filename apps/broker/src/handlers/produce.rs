//! Produce: batches stored as written, offsets assigned by the log.

use kwire_messages::api::produce::{PartitionProduceResponse, TopicProduceResponse};
use kwire_messages::ErrorCode;
use kwire_messages::{api::ProduceRequest, api::ProduceResponse};

use crate::api::Unanswered;
use crate::handlers::topic_name;
use crate::Broker;

/// The answer; with `acks = 0` none, and the connection is closed if a
/// partition was not written, as Kafka does (`Unanswered`).
pub fn answer(
    broker: &Broker,
    request: ProduceRequest,
    version: i16,
) -> Result<ProduceResponse, Unanswered> {
    let acks_valid = matches!(request.acks, -1..=1);
    let mut appended = false;
    let mut topics = broker.topics();
    // A partition named again appends again, as Kafka does: each entry
    // carries its own records, so what is stored is bounded by the request's
    // own size, as is the answer (a fixed-size row per entry). This broker
    // never auto-creates a topic on Produce: an unknown one is refused.
    let responses: Vec<TopicProduceResponse> = request
        .topic_data
        .into_iter()
        .map(|data| {
            let name = topic_name(&topics, &data.name, &data.topic_id);
            let partitions = data
                .partition_data
                .into_iter()
                .map(|partition| {
                    let mut answer = PartitionProduceResponse::default();
                    answer.index = partition.index;
                    answer.base_offset = -1;
                    let outcome = match (&name, partition.records) {
                        _ if !acks_valid => Err(ErrorCode::InvalidRequiredAcks.code()),
                        (Err(code), _) => Err(*code),
                        (Ok(_), None) => Err(ErrorCode::InvalidRecord.code()),
                        (Ok(name), Some(records)) => {
                            let max = broker.config.limits.log_max_bytes as u64;
                            match topics.append(name, partition.index, &records.0, max) {
                                None => Err(ErrorCode::UnknownTopicOrPartition.code()),
                                Some(appended) => appended.map_err(|e| e.code()),
                            }
                        }
                    };
                    match outcome {
                        Ok(base_offset) => {
                            appended = true;
                            answer.base_offset = base_offset;
                        }
                        Err(code) => answer.error_code = code,
                    }
                    answer
                })
                .collect();
            let mut response = TopicProduceResponse::default();
            // v13 names topics by ID only.
            if version < 13 {
                response.name = data.name;
            }
            response.topic_id = data.topic_id;
            response.partition_responses = partitions;
            response
        })
        .collect();
    drop(topics);
    if appended {
        broker.appended.send_modify(|count| *count += 1);
    }
    if request.acks == 0 {
        let refused = responses
            .iter()
            .flat_map(|topic| &topic.partition_responses)
            .map(|partition| partition.error_code)
            .find(|code| *code != ErrorCode::None.code());
        return Err(refused.map_or(Unanswered::Written, |code| {
            Unanswered::Refused(ErrorCode::from_code(code))
        }));
    }
    let mut response = ProduceResponse::default();
    response.responses = responses;
    Ok(response)
}
