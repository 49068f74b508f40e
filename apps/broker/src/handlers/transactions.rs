//! The transactional APIs: InitProducerId with a transactional ID,
//! AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit and EndTxn, on the
//! coordinator in `transactions.rs`; and what ending a transaction writes.
//!
//! Locks are taken in one order, transactions, then topics, then groups, so
//! that a transaction's end is written whole before anyone reads it.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

use kwire_messages::api::add_partitions_to_txn::{
    AddPartitionsToTxnPartitionResult, AddPartitionsToTxnResult, AddPartitionsToTxnTopic,
    AddPartitionsToTxnTopicResult,
};
use kwire_messages::api::txn_offset_commit::{
    TxnOffsetCommitResponsePartition, TxnOffsetCommitResponseTopic,
};
use kwire_messages::api::{
    AddOffsetsToTxnRequest, AddOffsetsToTxnResponse, AddPartitionsToTxnRequest,
    AddPartitionsToTxnResponse, EndTxnRequest, EndTxnResponse, InitProducerIdRequest,
    InitProducerIdResponse, TxnOffsetCommitRequest, TxnOffsetCommitResponse,
};
use kwire_messages::ErrorCode;

use crate::groups::Committed;
use crate::handlers::offsets::commit_key;
use crate::handlers::topic_name;
use crate::log::Topics;
use crate::transactions::{fenced, Ending};
use crate::Broker;

/// InitProducerId for a transactional producer.
pub fn init_producer_id(
    broker: &Broker,
    request: &InitProducerIdRequest,
    id: &str,
    version: i16,
) -> InitProducerIdResponse {
    let mut response = InitProducerIdResponse::default();
    let mut transactions = broker.transactions();
    let mut allocate = || broker.next_producer_id.fetch_add(1, Ordering::Relaxed);
    let given = (request.producer_id, request.producer_epoch);
    match transactions.init(
        id,
        request.transaction_timeout_ms,
        given,
        &mut allocate,
        version,
    ) {
        Ok((producer_id, epoch, ending)) => {
            if let Some(ending) = ending {
                apply(broker, &ending);
            }
            response.producer_id = producer_id;
            response.producer_epoch = epoch;
        }
        Err(error) => {
            response.error_code = error.code();
            response.producer_id = -1;
            response.producer_epoch = -1;
        }
    }
    response
}

/// Writes what ending a transaction writes: a marker into each of its
/// partitions that still exists, and its offsets into the groups. Wakes the
/// fetches waiting, for read_committed consumers the markers make records
/// visible.
pub fn apply(broker: &Broker, ending: &Ending) {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let mut topics = broker.topics();
    for (name, partition) in &ending.partitions {
        topics.end_transaction(
            name,
            *partition,
            ending.producer_id,
            ending.epoch,
            ending.commit,
            now_ms,
        );
    }
    let mut groups = broker.groups();
    for group in &ending.groups {
        groups.end_transaction(group, ending.producer_id, ending.commit);
    }
    drop(groups);
    drop(topics);
    broker.appended.send_modify(|count| *count += 1);
}

/// Aborts the transactions open past their timeout; called a few times a second.
pub fn expire(broker: &Broker, now: Instant) {
    let mut transactions = broker.transactions();
    for ending in transactions.expire(now) {
        apply(broker, &ending);
    }
}

/// An answer's rows: each topic's partitions with their errors.
type Rows = BTreeMap<String, Vec<(i32, ErrorCode)>>;

/// One transaction's partitions, checked against the topics: the coordinator
/// is asked only when all exist; otherwise the missing ones get
/// UNKNOWN_TOPIC_OR_PARTITION and the rest OPERATION_NOT_ATTEMPTED, as Kafka
/// answers. Returns the rows of the answer (errors to be filled in) and, if
/// every partition exists, the partitions to add.
fn partitions_of(
    topics: &Topics,
    asked: &[AddPartitionsToTxnTopic],
) -> (Rows, Option<Vec<(String, i32)>>) {
    let mut rows = Rows::new();
    let mut found = Vec::new();
    let mut missing = false;
    for topic in asked {
        let name = topic.name.as_str();
        for &partition in &topic.partitions {
            let exists = topics.partition(name, partition).is_some();
            missing |= !exists;
            let error = if exists {
                ErrorCode::OperationNotAttempted
            } else {
                ErrorCode::UnknownTopicOrPartition
            };
            rows.entry(name.to_owned())
                .or_default()
                .push((partition, error));
            found.push((name.to_owned(), partition));
        }
    }
    (rows, (!missing).then_some(found))
}

fn topic_results(rows: Rows) -> Vec<AddPartitionsToTxnTopicResult> {
    rows.into_iter()
        .map(|(name, partitions)| {
            let mut topic = AddPartitionsToTxnTopicResult::default();
            topic.name = name.into();
            topic.results_by_partition = partitions
                .into_iter()
                .map(|(index, error)| {
                    let mut p = AddPartitionsToTxnPartitionResult::default();
                    p.partition_index = index;
                    p.partition_error_code = error.code();
                    p
                })
                .collect();
            topic
        })
        .collect()
}

/// One transaction of an AddPartitionsToTxn: every row's error.
fn add_partitions(
    broker: &Broker,
    id: &str,
    producer_id: i64,
    epoch: i16,
    asked: &[AddPartitionsToTxnTopic],
    verify_only: bool,
    version: i16,
) -> Vec<AddPartitionsToTxnTopicResult> {
    let mut transactions = broker.transactions();
    let mut topics = broker.topics();
    let (mut rows, found) = partitions_of(&topics, asked);
    let Some(found) = found else {
        return topic_results(rows);
    };
    if verify_only {
        // KIP-890's check by a partition leader (v4+, broker to broker):
        // each partition must be in the open transaction already.
        let included = transactions.includes(id, producer_id, epoch, fenced(version, 2));
        for (name, partitions) in &mut rows {
            for (partition, error) in partitions {
                *error = match &included {
                    Err(e) => *e,
                    Ok(set) if set.contains(&(name.clone(), *partition)) => ErrorCode::None,
                    Ok(_) => ErrorCode::InvalidTxnState,
                };
            }
        }
        return topic_results(rows);
    }
    let outcome = transactions.add_partitions(
        id,
        producer_id,
        epoch,
        found.iter().cloned(),
        fenced(version, 2),
        Instant::now(),
    );
    let error = match outcome {
        Ok(()) => {
            // The partitions learn of the transaction, so that they take its
            // batches (and only at its epoch).
            for (name, partition) in &found {
                if let Some(log) = topics.partition_mut(name, *partition) {
                    log.begin_transaction(producer_id, epoch);
                }
            }
            ErrorCode::None
        }
        Err(error) => error,
    };
    for (_, row) in rows.values_mut().flatten() {
        *row = error;
    }
    topic_results(rows)
}

pub fn add_partitions_to_txn(
    broker: &Broker,
    request: AddPartitionsToTxnRequest,
    version: i16,
) -> AddPartitionsToTxnResponse {
    let mut response = AddPartitionsToTxnResponse::default();
    if version <= 3 {
        response.results_by_topic_v3_and_below = add_partitions(
            broker,
            request.v3_and_below_transactional_id.as_str(),
            request.v3_and_below_producer_id,
            request.v3_and_below_producer_epoch,
            &request.v3_and_below_topics,
            false,
            version,
        );
        return response;
    }
    response.results_by_transaction = request
        .transactions
        .iter()
        .map(|txn| {
            let mut result = AddPartitionsToTxnResult::default();
            result.transactional_id = txn.transactional_id.clone();
            result.topic_results = add_partitions(
                broker,
                txn.transactional_id.as_str(),
                txn.producer_id,
                txn.producer_epoch,
                &txn.topics,
                txn.verify_only,
                version,
            );
            result
        })
        .collect();
    response
}

pub fn add_offsets_to_txn(
    broker: &Broker,
    request: AddOffsetsToTxnRequest,
    version: i16,
) -> AddOffsetsToTxnResponse {
    let outcome = if request.group_id.as_str().is_empty() {
        Err(ErrorCode::InvalidGroupId)
    } else {
        broker.transactions().add_group(
            request.transactional_id.as_str(),
            request.producer_id,
            request.producer_epoch,
            request.group_id.as_str(),
            fenced(version, 2),
            Instant::now(),
        )
    };
    let mut response = AddOffsetsToTxnResponse::default();
    response.error_code = outcome.err().unwrap_or(ErrorCode::None).code();
    response
}

pub fn end_txn(broker: &Broker, request: EndTxnRequest, version: i16) -> EndTxnResponse {
    let id = request.transactional_id.as_str();
    let mut transactions = broker.transactions();
    let outcome = transactions.end(
        id,
        request.producer_id,
        request.producer_epoch,
        request.committed,
        fenced(version, 2),
    );
    let mut response = EndTxnResponse::default();
    match outcome {
        Ok(ending) => {
            if let Some(ending) = ending {
                apply(broker, &ending);
            }
            // v5 names the producer's ID and epoch after the end (transaction
            // version 2 bumps it; version 1, here, does not).
            if let Some((producer_id, epoch)) = transactions.producer(id) {
                response.producer_id = producer_id;
                response.producer_epoch = epoch;
            }
        }
        Err(error) => response.error_code = error.code(),
    }
    response
}

pub fn txn_offset_commit(
    broker: &Broker,
    request: TxnOffsetCommitRequest,
    version: i16,
) -> TxnOffsetCommitResponse {
    let metadata_max = broker.config.limits.offset_metadata_max_bytes.max(0) as usize;
    let group = request.group_id.as_str();
    let mut transactions = broker.transactions();
    let checked = transactions.check_group(
        request.transactional_id.as_str(),
        request.producer_id,
        request.producer_epoch,
        group,
    );
    let topics = broker.topics();
    let mut offsets = Vec::new();
    let mut answers = Vec::new();
    for asked in request.topics {
        let name = topic_name(&topics, &asked.name, &asked.topic_id);
        let mut answer = TxnOffsetCommitResponseTopic::default();
        if version < 6 {
            answer.name = asked.name;
        }
        answer.topic_id = asked.topic_id;
        for p in asked.partitions {
            let mut partition = TxnOffsetCommitResponsePartition::default();
            partition.partition_index = p.partition_index;
            let committed = Committed {
                offset: p.committed_offset,
                leader_epoch: p.committed_leader_epoch,
                metadata: p.committed_metadata.map(|m| m.as_str().to_owned()),
            };
            match commit_key(&topics, &name, p.partition_index, &committed, metadata_max) {
                Ok(key) => offsets.push((key, committed)),
                Err(code) => partition.error_code = code,
            }
            answer.partitions.push(partition);
        }
        answers.push(answer);
    }
    drop(topics);
    let error = match checked {
        Err(error) => error,
        Ok(()) => broker.groups().commit_transactional(
            group,
            request.producer_id,
            request.generation_id_or_member_epoch,
            request.member_id.as_str(),
            offsets,
            Instant::now(),
        ),
    };
    drop(transactions);
    for partition in answers.iter_mut().flat_map(|t| t.partitions.iter_mut()) {
        if partition.error_code == 0 {
            partition.error_code = error.code();
        }
    }
    let mut response = TxnOffsetCommitResponse::default();
    response.topics = answers;
    response
}

#[cfg(test)]
mod tests {
    use kwire::records::RecordBatchBuilder;
    use kwire_messages::api::list_offsets::{ListOffsetsPartition, ListOffsetsTopic};
    use kwire_messages::api::offset_fetch::OffsetFetchRequestTopic;
    use kwire_messages::api::txn_offset_commit::{
        TxnOffsetCommitRequestPartition, TxnOffsetCommitRequestTopic,
    };
    use kwire_messages::api::{ListOffsetsRequest, OffsetFetchRequest};

    use super::*;
    use crate::config::Limits;
    use crate::handlers::{list_offsets, offsets, testing};

    fn init(broker: &Broker, id: &str) -> (i64, i16) {
        let mut request = InitProducerIdRequest::default();
        request.transactional_id = Some(id.into());
        request.transaction_timeout_ms = 60_000;
        let response = init_producer_id(broker, &request, id, 5);
        assert_eq!(response.error_code, 0);
        (response.producer_id, response.producer_epoch)
    }

    fn add(
        broker: &Broker,
        id: &str,
        (pid, epoch): (i64, i16),
        topic: &str,
        partitions: &[i32],
    ) -> Vec<i16> {
        let mut asked = AddPartitionsToTxnTopic::default();
        asked.name = topic.into();
        asked.partitions = partitions.to_vec();
        let mut request = AddPartitionsToTxnRequest::default();
        request.v3_and_below_transactional_id = id.into();
        request.v3_and_below_producer_id = pid;
        request.v3_and_below_producer_epoch = epoch;
        request.v3_and_below_topics = vec![asked];
        add_partitions_to_txn(broker, request, 3).results_by_topic_v3_and_below[0]
            .results_by_partition
            .iter()
            .map(|p| p.partition_error_code)
            .collect()
    }

    fn end(broker: &Broker, id: &str, (pid, epoch): (i64, i16), commit: bool) -> i16 {
        let mut request = EndTxnRequest::default();
        request.transactional_id = id.into();
        request.producer_id = pid;
        request.producer_epoch = epoch;
        request.committed = commit;
        end_txn(broker, request, 4).error_code
    }

    fn produce(broker: &Broker, (pid, epoch): (i64, i16), sequence: i32) -> Result<i64, ErrorCode> {
        let mut builder = RecordBatchBuilder::new(0)
            .producer(pid, epoch, sequence)
            .transactional(true);
        builder.append(0, None, Some(b"v"), &[]).expect("append");
        let batch = builder.build().expect("build");
        broker
            .topics()
            .append("t", 0, &batch, u64::MAX)
            .expect("t-0 exists")
    }

    fn stable_offset(broker: &Broker) -> i16 {
        let mut topic = OffsetFetchRequestTopic::default();
        topic.name = "t".into();
        topic.partition_indexes = vec![0];
        let mut request = OffsetFetchRequest::default();
        request.group_id = "g".into();
        request.topics = Some(vec![topic]);
        request.require_stable = true;
        let response = offsets::fetch(broker, request, 7);
        let partition = &response.topics[0].partitions[0];
        if partition.error_code != 0 {
            return partition.error_code;
        }
        partition.committed_offset as i16
    }

    fn latest(broker: &Broker, isolation_level: i8) -> i64 {
        let mut partition = ListOffsetsPartition::default();
        partition.timestamp = -1;
        let mut topic = ListOffsetsTopic::default();
        topic.name = "t".into();
        topic.partitions = vec![partition];
        let mut request = ListOffsetsRequest::default();
        request.isolation_level = isolation_level;
        request.topics = vec![topic];
        list_offsets::answer(broker, request, 7).topics[0].partitions[0].offset
    }

    /// A producer's whole transaction through the handlers: records and an
    /// offset are invisible to read_committed readers until EndTxn commits.
    #[test]
    fn records_and_offsets_become_visible_when_the_transaction_commits() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        let producer = init(&broker, "tx");
        assert_eq!(
            produce(&broker, producer, 0),
            Err(ErrorCode::InvalidTxnState)
        );
        assert_eq!(add(&broker, "tx", producer, "t", &[0]), [0]);
        assert_eq!(produce(&broker, producer, 0), Ok(0));
        assert_eq!((latest(&broker, 1), latest(&broker, 0)), (0, 1));

        let mut request = AddOffsetsToTxnRequest::default();
        request.transactional_id = "tx".into();
        (request.producer_id, request.producer_epoch) = producer;
        request.group_id = "g".into();
        assert_eq!(add_offsets_to_txn(&broker, request, 3).error_code, 0);
        let mut p = TxnOffsetCommitRequestPartition::default();
        p.committed_offset = 42;
        let mut topic = TxnOffsetCommitRequestTopic::default();
        topic.name = "t".into();
        topic.partitions = vec![p];
        let mut request = TxnOffsetCommitRequest::default();
        request.transactional_id = "tx".into();
        request.group_id = "g".into();
        (request.producer_id, request.producer_epoch) = producer;
        request.generation_id_or_member_epoch = -1;
        request.topics = vec![topic];
        let response = txn_offset_commit(&broker, request, 3);
        assert_eq!(response.topics[0].partitions[0].error_code, 0);
        assert_eq!(
            stable_offset(&broker),
            ErrorCode::UnstableOffsetCommit.code()
        );

        assert_eq!(end(&broker, "tx", producer, true), 0);
        assert_eq!(stable_offset(&broker), 42);
        assert_eq!(
            (latest(&broker, 1), latest(&broker, 0)),
            (2, 2),
            "the marker at 1"
        );
    }

    #[test]
    fn an_abort_drops_the_offsets_and_indexes_the_records() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        let producer = init(&broker, "tx");
        add(&broker, "tx", producer, "t", &[0]);
        produce(&broker, producer, 0).expect("stored");
        assert_eq!(end(&broker, "tx", producer, false), 0);
        let topics = broker.topics();
        let log = topics.partition("t", 0).expect("t-0");
        assert_eq!(log.last_stable_offset(), 2);
        assert_eq!(log.aborted_between(0, 2).len(), 1);
    }

    #[test]
    fn a_new_producer_aborts_the_open_transaction_and_fences_the_old_one() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        let old = init(&broker, "tx");
        add(&broker, "tx", old, "t", &[0]);
        produce(&broker, old, 0).expect("stored");
        let new = init(&broker, "tx");
        assert_eq!(new, (old.0, old.1 + 1));
        assert_eq!(
            broker
                .topics()
                .partition("t", 0)
                .expect("t-0")
                .last_stable_offset(),
            2
        );
        let fenced = ErrorCode::ProducerFenced.code();
        assert_eq!(add(&broker, "tx", old, "t", &[0]), [fenced]);
        assert_eq!(end(&broker, "tx", old, true), fenced);
        assert_eq!(produce(&broker, old, 1), Err(ErrorCode::InvalidTxnState));
    }

    #[test]
    fn unknown_partitions_leave_the_others_not_attempted() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        let producer = init(&broker, "tx");
        assert_eq!(
            add(&broker, "tx", producer, "t", &[0, 3]),
            [
                ErrorCode::OperationNotAttempted.code(),
                ErrorCode::UnknownTopicOrPartition.code()
            ]
        );
        // Nothing was added: the transaction was not even begun.
        assert_eq!(
            end(&broker, "tx", producer, true),
            ErrorCode::InvalidTxnState.code()
        );
    }
}
