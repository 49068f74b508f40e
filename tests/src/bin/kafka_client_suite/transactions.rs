//! Transactional producing: the transaction coordinator found, a producer id for
//! a transactional id, four transactions as a Kafka 3 client runs them
//! (AddPartitionsToTxn v0 to v3, Produce v11, EndTxn v4) and two as a Kafka 4
//! client does (transaction version 2: no AddPartitionsToTxn, Produce by topic
//! id, EndTxn v5, which bumps the epoch), committed and aborted in turn. Then
//! READ_UNCOMMITTED sees every record and a marker per transaction, and
//! READ_COMMITTED, with the aborted transactions Kafka lists, leaves exactly the
//! committed records.

use bytes::Bytes;
use kwire::records::{Batches, RecordBatchBuilder};
use kwire_messages::api::add_partitions_to_txn::AddPartitionsToTxnTopic;
use kwire_messages::api::produce::PartitionProduceResponse;
use kwire_messages::api::{
    AddPartitionsToTxnRequest, AddPartitionsToTxnResponse, EndTxnRequest, EndTxnResponse,
    FindCoordinatorRequest, FindCoordinatorResponse, InitProducerIdRequest, InitProducerIdResponse,
};
use kwire_messages::control_records::ControlRecord;
use kwire_messages::ApiKey;
use kwire_net::client::Connection;
use kwire_tests::kafka_peer::report::Report;

use crate::support::{
    common_versions, create_topic, data_records, ensure, fetch_all, no_error, produce, retried,
    unique, values, Failure, Outcome, Topic,
};

/// Records per transaction.
const PER_TXN: usize = 4;

/// FindCoordinator's key type for a transactional id.
const TRANSACTION_KEY: i8 = 1;

/// One transaction of the run.
struct Txn {
    /// AddPartitionsToTxn's version, or `None` for a transaction-version-2 client
    /// (the partition added by Produce itself).
    add_version: Option<i16>,
    commit: bool,
    values: Vec<String>,
    /// The offset its first record was written at.
    first_offset: i64,
}

pub async fn run(kafka: &Connection, report: &mut Report, run: &str) {
    let id = unique("txn", run);
    report.record(
        "transactions",
        "FindCoordinator for a transactional id, v1 to v6",
        find_coordinator(kafka, &id).await,
    );
    let mut producer = None;
    report.record(
        "transactions",
        "InitProducerId with a transactional id",
        async {
            let (pid, epoch) = init_producer_id(kafka, &id).await?;
            producer = Some((pid, epoch));
            Ok::<_, Failure>(format!("producer id {pid}, epoch {epoch}"))
        }
        .await,
    );
    let Some((pid, mut epoch)) = producer else {
        return;
    };
    let topic = match create_topic(kafka, &unique("txn", run), 1, &[]).await {
        Ok(topic) => topic,
        Err(error) => {
            report.record("transactions", "the topic", Err(error));
            return;
        }
    };
    let plan = [
        (Some(0), true),
        (Some(1), false),
        (Some(2), true),
        (Some(3), false),
        (None, true),
        (None, false),
    ];
    let mut txns = Vec::new();
    let mut sequence = 0;
    for (index, (add_version, commit)) in plan.into_iter().enumerate() {
        // A Kafka 4 client is a new producer: its InitProducerId waits out the
        // last transaction and bumps the epoch. Reusing the old epoch with no
        // AddPartitionsToTxn to wait on could meet the last abort's marker
        // still on its way to the partition.
        if add_version.is_none() && txns.last().is_some_and(|t: &Txn| t.add_version.is_some()) {
            let outcome = match init_producer_id(kafka, &id).await {
                Ok((again, next)) if again == pid && next > epoch => {
                    let seen = format!("producer id {pid}, epoch {epoch} to {next}");
                    (epoch, sequence) = (next, 0);
                    Ok(seen)
                }
                Ok((again, next)) => Err(format!(
                    "InitProducerId gave producer {again} epoch {next} after {pid} epoch {epoch}"
                )
                .into()),
                Err(error) => Err(error),
            };
            if !report.record(
                "transactions",
                "InitProducerId again: the epoch bumped",
                outcome,
            ) {
                return;
            }
        }
        let mut txn = Txn {
            add_version,
            commit,
            values: values(&format!("txn-{index}"), PER_TXN),
            first_offset: -1,
        };
        let name = match add_version {
            Some(version) => format!(
                "AddPartitionsToTxn v{version}, Produce v11, EndTxn v4 {}",
                verb(commit)
            ),
            None => format!(
                "transaction version 2: Produce v13, EndTxn v5 {}",
                verb(commit)
            ),
        };
        let outcome =
            one_transaction(kafka, &id, &topic, pid, &mut epoch, &mut sequence, &mut txn).await;
        if report.record("transactions", &name, outcome) {
            txns.push(txn);
        } else {
            return;
        }
    }
    report.record(
        "transactions",
        "READ_UNCOMMITTED: every record, a marker per transaction",
        read_uncommitted(kafka, &topic, pid, &txns).await,
    );
    report.record(
        "transactions",
        "READ_COMMITTED: the committed records, the aborted listed, the markers",
        read_committed(kafka, &topic, pid, &txns).await,
    );
}

/// The wall clock in milliseconds, the timestamp of every record: Kafka rolls a
/// segment for a record older than `log.roll.ms`.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as i64)
}

fn verb(commit: bool) -> &'static str {
    if commit {
        "commit"
    } else {
        "abort"
    }
}

/// At every version that has a key type, the coordinator of `id` is the one
/// node, on the listener asked.
async fn find_coordinator(kafka: &Connection, id: &str) -> Outcome {
    let versions = common_versions(kafka, ApiKey::FindCoordinator)?;
    let mut seen = Vec::new();
    for version in (*versions.start()).max(1)..=*versions.end() {
        let mut request = FindCoordinatorRequest::default().with_key_type(TRANSACTION_KEY);
        request = if version >= 4 {
            request.with_coordinator_keys(vec![id.into()])
        } else {
            request.with_key(id.into())
        };
        let answer = retried(
            || async { Ok(kafka.send_at(request.clone(), version).await?) },
            |answer: &FindCoordinatorResponse| coordinator_error(answer),
        )
        .await?;
        let (node, host, port) = if version >= 4 {
            let [coordinator] = &answer.coordinators[..] else {
                return Err(format!(
                    "v{version} answered {} coordinators",
                    answer.coordinators.len()
                )
                .into());
            };
            ensure!(
                coordinator.key.as_str() == id,
                "v{version} answered for key {:?}",
                coordinator.key.as_str()
            );
            no_error(
                &format!("FindCoordinator v{version}"),
                coordinator.error_code,
            )?;
            (
                coordinator.node_id,
                coordinator.host.clone(),
                coordinator.port,
            )
        } else {
            no_error(&format!("FindCoordinator v{version}"), answer.error_code)?;
            (answer.node_id, answer.host.clone(), answer.port)
        };
        seen.push(format!(
            "v{version} node {node} at {}:{port}",
            host.as_str()
        ));
    }
    Ok(seen.join(", "))
}

fn coordinator_error(answer: &FindCoordinatorResponse) -> i16 {
    answer
        .coordinators
        .first()
        .map_or(answer.error_code, |coordinator| coordinator.error_code)
}

async fn init_producer_id(kafka: &Connection, id: &str) -> Result<(i64, i16), Failure> {
    let request = InitProducerIdRequest::default()
        .with_transactional_id(Some(id.into()))
        .with_transaction_timeout_ms(60_000);
    let answer = retried(
        || async { Ok(kafka.send(request.clone()).await?) },
        |answer: &InitProducerIdResponse| answer.error_code,
    )
    .await?;
    no_error("InitProducerId", answer.error_code)?;
    ensure!(
        answer.producer_id >= 0 && answer.producer_epoch >= 0,
        "InitProducerId gave producer {} epoch {}",
        answer.producer_id,
        answer.producer_epoch
    );
    Ok((answer.producer_id, answer.producer_epoch))
}

/// Runs `txn`: adds the partition (unless transaction version 2), produces its
/// records, ends it. `epoch` and `sequence` follow the producer: EndTxn v5 bumps
/// the epoch, and a new epoch starts the sequence again at 0.
async fn one_transaction(
    kafka: &Connection,
    id: &str,
    topic: &Topic,
    pid: i64,
    epoch: &mut i16,
    sequence: &mut i32,
    txn: &mut Txn,
) -> Outcome {
    let (produce_version, end_version) = match txn.add_version {
        Some(version) => {
            add_partition(kafka, version, id, topic, pid, *epoch).await?;
            (11, 4)
        }
        None => (13, 5),
    };
    let records = transactional_batch(pid, *epoch, *sequence, &txn.values)?;
    // Until the last transaction's markers are written, Kafka answers a
    // transaction-version-2 Produce with CONCURRENT_TRANSACTIONS; the batch
    // carries its sequence, so sending it again cannot store it twice.
    let written = retried(
        || produce(kafka, produce_version, topic, 0, records.clone(), Some(id)),
        |answer: &PartitionProduceResponse| answer.error_code,
    )
    .await?;
    no_error(&format!("Produce v{produce_version}"), written.error_code)?;
    txn.first_offset = written.base_offset;
    *sequence += PER_TXN as i32;
    let request = EndTxnRequest::default()
        .with_transactional_id(id.into())
        .with_producer_id(pid)
        .with_producer_epoch(*epoch)
        .with_committed(txn.commit);
    let ended = retried(
        || async { Ok(kafka.send_at(request.clone(), end_version).await?) },
        |answer: &EndTxnResponse| answer.error_code,
    )
    .await?;
    no_error(&format!("EndTxn v{end_version}"), ended.error_code)?;
    let mut seen = format!(
        "{PER_TXN} records at offset {}, epoch {epoch}",
        txn.first_offset
    );
    if end_version >= 5 {
        ensure!(
            ended.producer_id == pid && ended.producer_epoch == *epoch + 1,
            "EndTxn v5 answered producer {} epoch {}, expected {pid} epoch {}",
            ended.producer_id,
            ended.producer_epoch,
            *epoch + 1
        );
        *epoch = ended.producer_epoch;
        *sequence = 0;
        seen += &format!(", EndTxn bumped it to {epoch}");
    }
    Ok(seen)
}

async fn add_partition(
    kafka: &Connection,
    version: i16,
    id: &str,
    topic: &Topic,
    pid: i64,
    epoch: i16,
) -> Result<(), Failure> {
    let request = AddPartitionsToTxnRequest::default()
        .with_v3_and_below_transactional_id(id.into())
        .with_v3_and_below_producer_id(pid)
        .with_v3_and_below_producer_epoch(epoch)
        .with_v3_and_below_topics(vec![AddPartitionsToTxnTopic::default()
            .with_name(topic.name.clone())
            .with_partitions(vec![0])]);
    let answer = retried(
        || async { Ok(kafka.send_at(request.clone(), version).await?) },
        |answer: &AddPartitionsToTxnResponse| partition_error(answer),
    )
    .await?;
    let [result] = &answer.results_by_topic_v3_and_below[..] else {
        return Err(format!("AddPartitionsToTxn v{version} answered no topic").into());
    };
    ensure!(
        result.name == topic.name && result.results_by_partition.len() == 1,
        "AddPartitionsToTxn v{version} answered for {:?}",
        result.name.as_str()
    );
    no_error(
        &format!("AddPartitionsToTxn v{version}"),
        result.results_by_partition[0].partition_error_code,
    )
}

fn partition_error(answer: &AddPartitionsToTxnResponse) -> i16 {
    answer
        .results_by_topic_v3_and_below
        .iter()
        .flat_map(|topic| &topic.results_by_partition)
        .map(|partition| partition.partition_error_code)
        .find(|&code| code != 0)
        .unwrap_or(0)
}

fn transactional_batch(
    pid: i64,
    epoch: i16,
    sequence: i32,
    values: &[String],
) -> Result<Bytes, Failure> {
    let mut builder = RecordBatchBuilder::new(0)
        .transactional(true)
        .producer(pid, epoch, sequence);
    for value in values {
        builder.append(
            now_ms(),
            None,
            Some(value.as_bytes()),
            &[("by", Some(b"kwire"))],
        )?;
    }
    Ok(builder.build()?)
}

/// The markers of the partition's control batches, in order: `true` commit,
/// `false` abort; each must carry the producer id.
fn markers(records: &Option<kwire::Records>, pid: i64) -> Result<Vec<bool>, Failure> {
    let mut markers = Vec::new();
    for batch in Batches::new(records.clone().unwrap_or_default().0) {
        let batch = batch?;
        if !batch.is_control() {
            continue;
        }
        ensure!(
            batch.producer_id() == pid && batch.is_transactional(),
            "a marker of producer {} (transactional: {})",
            batch.producer_id(),
            batch.is_transactional()
        );
        for record in batch.records()? {
            match ControlRecord::read(&record?)? {
                ControlRecord::Commit(_) => markers.push(true),
                ControlRecord::Abort(_) => markers.push(false),
                other => return Err(format!("a control record of type {}", other.type_id()).into()),
            }
        }
    }
    Ok(markers)
}

/// The offsets the run's transactions take: their records and a marker each.
fn log_end(txns: &[Txn]) -> i64 {
    txns.iter().map(|txn| txn.values.len() as i64 + 1).sum()
}

async fn read_uncommitted(kafka: &Connection, topic: &Topic, pid: i64, txns: &[Txn]) -> Outcome {
    let version = kafka.version(ApiKey::Fetch)?;
    let fetched = fetch_all(kafka, version, topic, 0, 0, log_end(txns)).await?;
    let read = data_records(&fetched.records)?;
    let values: Vec<String> = read.iter().filter_map(|r| r.value.clone()).collect();
    let all: Vec<String> = txns.iter().flat_map(|txn| txn.values.clone()).collect();
    ensure!(values == all, "read {values:?}, produced {all:?}");
    let markers = markers(&fetched.records, pid)?;
    let ends: Vec<bool> = txns.iter().map(|txn| txn.commit).collect();
    ensure!(
        markers == ends,
        "markers {markers:?}, transactions ended {ends:?}"
    );
    Ok(format!(
        "{} records; markers commit/abort in turn, {} in all",
        values.len(),
        markers.len()
    ))
}

/// What a READ_COMMITTED consumer keeps: records of a producer from an aborted
/// transaction's first offset up to its abort marker are dropped.
async fn read_committed(kafka: &Connection, topic: &Topic, pid: i64, txns: &[Txn]) -> Outcome {
    let version = kafka.version(ApiKey::Fetch)?;
    let end = log_end(txns);
    let fetched = fetch_all(kafka, version, topic, 0, 1, end).await?;
    ensure!(
        fetched.last_stable_offset == end,
        "last stable offset {}, expected {end} with every transaction ended",
        fetched.last_stable_offset
    );
    let aborted: Vec<(i64, i64)> = txns
        .iter()
        .filter(|txn| !txn.commit)
        .map(|txn| (pid, txn.first_offset))
        .collect();
    ensure!(
        fetched.aborted == aborted,
        "Kafka listed the aborted transactions {:?}, expected {aborted:?}",
        fetched.aborted
    );
    // The markers come too: a consumer ends an aborted range at its marker.
    let markers = markers(&fetched.records, pid)?;
    let ends: Vec<bool> = txns.iter().map(|txn| txn.commit).collect();
    ensure!(
        markers == ends,
        "READ_COMMITTED markers {markers:?}, transactions ended {ends:?}"
    );
    let mut kept = Vec::new();
    let mut in_aborted = false;
    for batch in Batches::new(fetched.records.clone().unwrap_or_default().0) {
        let batch = batch?;
        if aborted.contains(&(batch.producer_id(), batch.base_offset())) {
            in_aborted = true;
        }
        if batch.is_control() {
            in_aborted = false;
            continue;
        }
        if !in_aborted {
            let records = data_records(&Some(kwire::Records(batch.as_bytes().clone())))?;
            kept.extend(records.into_iter().filter_map(|r| r.value));
        }
    }
    let committed: Vec<String> = txns
        .iter()
        .filter(|txn| txn.commit)
        .flat_map(|txn| txn.values.clone())
        .collect();
    ensure!(kept == committed, "kept {kept:?}, committed {committed:?}");
    Ok(format!(
        "{} committed records kept; aborted listed at offsets {:?}, their markers read; last stable offset {}",
        kept.len(),
        aborted.iter().map(|(_, offset)| offset).collect::<Vec<_>>(),
        fetched.last_stable_offset
    ))
}
