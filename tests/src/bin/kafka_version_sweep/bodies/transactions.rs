//! Requests about producers and transactions: InitProducerId,
//! AddPartitionsToTxn, AddOffsetsToTxn, EndTxn, WriteTxnMarkers,
//! TxnOffsetCommit, DescribeTransactions, ListTransactions.

use kwire::{KafkaString, Uuid};
use kwire_messages::api::{
    add_partitions_to_txn, txn_offset_commit, write_txn_markers, AddOffsetsToTxnRequest,
    AddPartitionsToTxnRequest, DescribeTransactionsRequest, EndTxnRequest, InitProducerIdRequest,
    ListTransactionsRequest, TxnOffsetCommitRequest, WriteTxnMarkersRequest,
};
use kwire_messages::Request;

use crate::values::Values;

/// An idempotent producer's id (the transactional one is set up before).
pub fn init_producer_id(_values: &Values, _version: i16) -> Request {
    InitProducerIdRequest::default()
        .with_transactional_id(None)
        .with_transaction_timeout_ms(60_000)
        .into()
}

fn topic(values: &Values) -> add_partitions_to_txn::AddPartitionsToTxnTopic {
    add_partitions_to_txn::AddPartitionsToTxnTopic::default()
        .with_name(values.topic.name.clone())
        .with_partitions(vec![0])
}

/// Below v4, a client adds the partition to its transaction; from v4 (brokers
/// only) the batch form, asking only to verify it.
pub fn add_partitions_to_txn(values: &Values, version: i16) -> Request {
    if version >= 4 {
        AddPartitionsToTxnRequest::default().with_transactions(vec![
            add_partitions_to_txn::AddPartitionsToTxnTransaction::default()
                .with_transactional_id(values.transactional_id.clone())
                .with_producer_id(values.producer_id)
                .with_producer_epoch(values.producer_epoch)
                .with_verify_only(true)
                .with_topics(vec![topic(values)]),
        ])
    } else {
        AddPartitionsToTxnRequest::default()
            .with_v3_and_below_transactional_id(values.transactional_id.clone())
            .with_v3_and_below_producer_id(values.producer_id)
            .with_v3_and_below_producer_epoch(values.producer_epoch)
            .with_v3_and_below_topics(vec![topic(values)])
    }
    .into()
}

pub fn add_offsets_to_txn(values: &Values, _version: i16) -> Request {
    AddOffsetsToTxnRequest::default()
        .with_transactional_id(values.transactional_id.clone())
        .with_producer_id(values.producer_id)
        .with_producer_epoch(values.producer_epoch)
        .with_group_id(values.group.clone())
        .into()
}

/// Aborts the transactional producer's transaction (or finds none to abort).
pub fn end_txn(values: &Values, _version: i16) -> Request {
    EndTxnRequest::default()
        .with_transactional_id(values.transactional_id.clone())
        .with_producer_id(values.producer_id)
        .with_producer_epoch(values.producer_epoch)
        .with_committed(false)
        .into()
}

/// What a transaction coordinator sends the partition leaders: no markers.
pub fn write_txn_markers(_values: &Values, _version: i16) -> Request {
    WriteTxnMarkersRequest::default()
        .with_markers(Vec::<write_txn_markers::WritableTxnMarker>::new())
        .into()
}

pub fn txn_offset_commit(values: &Values, version: i16) -> Request {
    let (name, id) = if version >= 6 {
        (KafkaString::default(), values.topic.id)
    } else {
        (values.topic.name.clone(), Uuid::ZERO)
    };
    TxnOffsetCommitRequest::default()
        .with_transactional_id(values.transactional_id.clone())
        .with_group_id(values.group.clone())
        .with_producer_id(values.producer_id)
        .with_producer_epoch(values.producer_epoch)
        .with_topics(vec![
            txn_offset_commit::TxnOffsetCommitRequestTopic::default()
                .with_name(name)
                .with_topic_id(id)
                .with_partitions(vec![
                    txn_offset_commit::TxnOffsetCommitRequestPartition::default()
                        .with_partition_index(0)
                        .with_committed_offset(1)
                        .with_committed_metadata(Some("sweep".into())),
                ]),
        ])
        .into()
}

pub fn describe_transactions(values: &Values, _version: i16) -> Request {
    DescribeTransactionsRequest::default()
        .with_transactional_ids(vec![values.transactional_id.clone()])
        .into()
}

pub fn list_transactions(_values: &Values, _version: i16) -> Request {
    ListTransactionsRequest::default().into()
}
