//! The topics and their partition logs, in memory.
//!
//! A partition keeps the record batches exactly as producers wrote them. The broker
//! only assigns offsets, by rewriting each batch's base offset and partition leader
//! epoch (`kwire::records::rewrite`): neither is covered by the batch CRC, which
//! starts at the attributes.
//!
//! Batches are stored back to back in segments, like Kafka's log files, so that a
//! fetch of several batches is one slice of a segment, sent as it is stored (a
//! vectored frame attaches it): no fetch copies record bytes. Appends go to the open
//! segment; a read that reaches into it seals what it holds first (frozen, its
//! spare room kept for the appends that follow), and a read never spans two
//! segments: it stops at the end of the first, and the consumer asks again, as it
//! does when `max_bytes` is reached.

use std::collections::{BTreeMap, HashMap, VecDeque};

use bytes::{Bytes, BytesMut};
use kwire::records::{
    rewrite, Batches, DecompressionBudget, RecordBatch, RecordBatchBuilder, RecordsError,
};
use kwire::Uuid;
use kwire_messages::control_records::ControlRecord;
use kwire_messages::data::EndTxnMarker;
use kwire_messages::ErrorCode;

use crate::topic_configs::TopicConfigs;

/// The leader epoch of every partition: one broker, never re-elected.
pub const LEADER_EPOCH: i32 = 0;

/// The most room an open segment is given ahead of its appends; a partition's
/// first segments are smaller (16 KiB, then twice the last), so that many quiet
/// partitions reserve little.
const SEGMENT_BYTES: usize = 1 << 20;
const FIRST_SEGMENT_BYTES: usize = 16 << 10;

/// `StoredBatch::segment` of a batch still in the open segment.
const OPEN: usize = usize::MAX;

/// How many recent batches per producer are remembered to recognise a retry, as
/// Kafka does (`ProducerStateEntry.NUM_BATCHES_TO_RETAIN`).
const RETAINED_BATCHES: usize = 5;

/// Every topic, by name, with a second index by topic ID.
#[derive(Default)]
pub struct Topics {
    by_name: BTreeMap<String, Topic>,
    names_by_id: HashMap<Uuid, String>,
    ids_made: u64,
    /// The partitions of every topic together, kept so that the broker-wide
    /// limit is checked without walking the topics.
    partition_count: usize,
    /// The record bytes every partition log holds together, for the same reason.
    stored_bytes: u64,
}

/// One topic.
pub struct Topic {
    pub id: Uuid,
    pub partitions: Vec<PartitionLog>,
    /// Its configs' overrides (`topic_configs.rs`): kept and reported, not acted on.
    pub configs: TopicConfigs,
}

impl Topic {
    fn stored_bytes(&self) -> u64 {
        self.partitions.iter().map(|log| log.stored_bytes).sum()
    }
}

impl Topics {
    /// Creates `name` with `partitions` empty partitions and returns its ID. The
    /// caller checks `partitions` against the limits first (`handlers::limits`):
    /// this allocates one partition log per count.
    pub fn create(&mut self, name: &str, partitions: usize) -> Uuid {
        self.ids_made += 1;
        // Any ID unique in this process will do; mixing in the clock keeps two
        // broker runs from handing a client the same ID for different topics.
        let clock = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos() as u64);
        let id = Uuid::from_u64_pair(clock | 1, self.ids_made);
        let topic = Topic {
            id,
            partitions: (0..partitions).map(|_| PartitionLog::default()).collect(),
            configs: TopicConfigs::default(),
        };
        self.partition_count += partitions;
        if let Some(replaced) = self.by_name.insert(name.to_owned(), topic) {
            self.partition_count -= replaced.partitions.len();
            self.stored_bytes -= replaced.stored_bytes();
            self.names_by_id.remove(&replaced.id);
        }
        self.names_by_id.insert(id, name.to_owned());
        id
    }

    pub fn delete(&mut self, name: &str) -> Option<Topic> {
        let topic = self.by_name.remove(name)?;
        self.names_by_id.remove(&topic.id);
        self.partition_count -= topic.partitions.len();
        self.stored_bytes -= topic.stored_bytes();
        Some(topic)
    }

    /// Appends a Produce request's `records` to partition `partition` of `name`
    /// (as [`PartitionLog::append`]), unless the logs would then hold more than
    /// `max_stored` bytes: then KAFKA_STORAGE_ERROR, what a Kafka broker with a
    /// full disk answers. `None` if there is no such partition.
    pub fn append(
        &mut self,
        name: &str,
        partition: i32,
        records: &Bytes,
        max_stored: u64,
    ) -> Option<Result<i64, ErrorCode>> {
        let room = max_stored.saturating_sub(self.stored_bytes);
        let log = self.partition_mut(name, partition)?;
        if records.len() as u64 > room {
            return Some(Err(ErrorCode::KafkaStorageError));
        }
        let before = log.stored_bytes;
        let appended = log.append(records);
        let grown = log.stored_bytes - before;
        self.stored_bytes += grown;
        Some(appended)
    }

    /// Ends a transaction on partition `partition` of `name` (as
    /// [`PartitionLog::end_transaction`]); its marker counts in the bytes the
    /// logs hold but is never refused for them: a transaction must end.
    pub fn end_transaction(
        &mut self,
        name: &str,
        partition: i32,
        producer_id: i64,
        epoch: i16,
        commit: bool,
        timestamp: i64,
    ) -> Option<i64> {
        let log = self.partition_mut(name, partition)?;
        let before = log.stored_bytes;
        let offset = log.end_transaction(producer_id, epoch, commit, timestamp);
        let grown = log.stored_bytes - before;
        self.stored_bytes += grown;
        offset
    }

    /// The record bytes all partition logs hold.
    pub fn stored_bytes(&self) -> u64 {
        self.stored_bytes
    }

    /// How many partitions all topics have together.
    pub fn partition_count(&self) -> usize {
        self.partition_count
    }

    pub fn get(&self, name: &str) -> Option<&Topic> {
        self.by_name.get(name)
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Topic> {
        self.by_name.get_mut(name)
    }

    pub fn name_of(&self, id: &Uuid) -> Option<&str> {
        self.names_by_id.get(id).map(String::as_str)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Topic)> {
        self.by_name
            .iter()
            .map(|(name, topic)| (name.as_str(), topic))
    }

    /// The partition `partition` of `name`, if both exist.
    pub fn partition(&self, name: &str, partition: i32) -> Option<&PartitionLog> {
        let index = usize::try_from(partition).ok()?;
        self.by_name.get(name)?.partitions.get(index)
    }

    pub fn partition_mut(&mut self, name: &str, partition: i32) -> Option<&mut PartitionLog> {
        let index = usize::try_from(partition).ok()?;
        self.by_name.get_mut(name)?.partitions.get_mut(index)
    }
}

/// Batches read from a partition for one answer: one slice of a segment, the
/// stored bytes themselves.
#[derive(Debug)]
pub struct StoredRead {
    bytes: Bytes,
    /// The offset after the last record read (the offset asked for when
    /// nothing was).
    end: i64,
}

impl StoredRead {
    /// The offset after the last record read.
    pub fn end(&self) -> i64 {
        self.end
    }

    /// The record bytes read.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// The batches, as stored (no copy).
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }
}

/// A batch as stored: where its bytes are (with our offsets written in).
struct StoredBatch {
    last_offset: i64,
    max_timestamp: i64,
    /// Its segment, an index into `PartitionLog::sealed`, or [`OPEN`].
    segment: usize,
    /// Where it starts in its segment, and its length.
    start: usize,
    len: usize,
}

/// What an idempotent producer last wrote to one partition.
#[derive(Default)]
struct ProducerState {
    epoch: i16,
    /// (first sequence, last sequence, base offset) of the latest batches.
    recent: VecDeque<(i32, i32, i64)>,
}

/// One partition: its batches in offset order, and the segments that hold them.
#[derive(Default)]
pub struct PartitionLog {
    batches: Vec<StoredBatch>,
    /// Sealed segments: batches back to back, frozen.
    sealed: Vec<Bytes>,
    /// The segment appended to: the batches from `open_from` on, back to back.
    open: BytesMut,
    open_from: usize,
    /// The bytes of `batches` together.
    stored_bytes: u64,
    next_offset: i64,
    producers: HashMap<i64, ProducerState>,
    /// Transactions this partition was added to and not yet ended, by producer
    /// ID (`transactions.rs` adds and ends them).
    open_transactions: HashMap<i64, OpenTransaction>,
    /// Aborted transactions, in the order their markers were written: Kafka's
    /// transaction index, which a read_committed Fetch answers from.
    aborted: Vec<AbortedTransaction>,
}

/// A transaction this partition takes part in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OpenTransaction {
    epoch: i16,
    /// Where its first batch here was stored; `None` until one is.
    first_offset: Option<i64>,
}

/// An aborted transaction's records here: from its first batch to its marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbortedTransaction {
    pub producer_id: i64,
    pub first_offset: i64,
    pub last_offset: i64,
}

/// A timestamp lookup's answer, as ListOffsets returns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoundOffset {
    pub offset: i64,
    pub timestamp: i64,
}

impl PartitionLog {
    /// The offset the next record will get (Kafka's log end offset; with one
    /// replica also the high watermark).
    pub fn high_watermark(&self) -> i64 {
        self.next_offset
    }

    /// The first offset still in the log; nothing is ever deleted here.
    pub fn log_start_offset(&self) -> i64 {
        0
    }

    /// Appends every batch in `records` (the `records` field of one partition of a
    /// Produce request) and returns the first batch's base offset. The request is
    /// all or nothing: one bad batch refuses every batch in it, as Kafka does.
    pub fn append(&mut self, records: &Bytes) -> Result<i64, ErrorCode> {
        let mut batches = Batches::new(records.clone());
        let parsed: Vec<RecordBatch> = batches
            .by_ref()
            .collect::<Result<_, _>>()
            .map_err(|_| ErrorCode::CorruptMessage)?;
        if parsed.is_empty() || batches.partial_tail() != 0 {
            return Err(ErrorCode::CorruptMessage);
        }
        for batch in &parsed {
            if batch.magic() != 2 {
                return Err(ErrorCode::UnsupportedForMessageFormat);
            }
            batch.verify_crc().map_err(|_| ErrorCode::CorruptMessage)?;
            if batch.records_count() <= 0 || batch.last_offset_delta() < 0 {
                return Err(ErrorCode::InvalidRecord);
            }
            // Markers are the coordinator's to write: a client's would end
            // transactions behind their coordinator's back.
            if batch.is_control() {
                return Err(ErrorCode::InvalidRecord);
            }
            if batch.is_transactional() {
                self.check_transactional(batch)?;
            }
        }
        if let [only] = parsed.as_slice() {
            if let Some(offset) = self.duplicate_of(only)? {
                return Ok(offset);
            }
        }
        let first = self.next_offset;
        for batch in parsed {
            let transaction = batch
                .is_transactional()
                .then(|| (batch.producer_id(), self.next_offset));
            // `store` refuses only bytes that are not one whole batch of magic 2,
            // which parsing ruled out: no request is left half stored.
            self.store(batch).map_err(|_| ErrorCode::CorruptMessage)?;
            if let Some((producer_id, offset)) = transaction {
                if let Some(open) = self.open_transactions.get_mut(&producer_id) {
                    open.first_offset.get_or_insert(offset);
                }
            }
        }
        Ok(first)
    }

    /// A transactional batch is taken only inside a transaction this partition
    /// was added to, at that transaction's epoch, as Kafka's partition leader
    /// verifies with the coordinator (KIP-890) before it appends.
    fn check_transactional(&self, batch: &RecordBatch) -> Result<(), ErrorCode> {
        match self.open_transactions.get(&batch.producer_id()) {
            Some(open) if open.epoch == batch.producer_epoch() => Ok(()),
            Some(open) if open.epoch > batch.producer_epoch() => {
                Err(ErrorCode::InvalidProducerEpoch)
            }
            _ => Err(ErrorCode::InvalidTxnState),
        }
    }

    /// Adds this partition to producer `producer_id`'s transaction at `epoch`
    /// (AddPartitionsToTxn); already in it, nothing changes.
    pub fn begin_transaction(&mut self, producer_id: i64, epoch: i16) {
        let open = self
            .open_transactions
            .entry(producer_id)
            .or_insert(OpenTransaction {
                epoch,
                first_offset: None,
            });
        open.epoch = epoch;
    }

    /// Ends producer `producer_id`'s transaction here: writes its marker
    /// (commit or abort, as Kafka's coordinator writes it, stamped with the
    /// epoch the coordinator ended it at) and, for an abort that stored
    /// records, indexes them for read_committed fetches. Nothing to end,
    /// nothing is written. Returns the marker's offset.
    pub fn end_transaction(
        &mut self,
        producer_id: i64,
        epoch: i16,
        commit: bool,
        timestamp: i64,
    ) -> Option<i64> {
        let open = self.open_transactions.remove(&producer_id)?;
        let marker = if commit {
            ControlRecord::Commit(EndTxnMarker::default())
        } else {
            ControlRecord::Abort(EndTxnMarker::default())
        };
        let mut builder = RecordBatchBuilder::new(0)
            .control(true)
            .transactional(true)
            .producer(producer_id, epoch, -1)
            .base_timestamp(timestamp);
        // A marker is a few dozen bytes this code builds: it always encodes.
        let bytes = marker.value().ok().and_then(|value| {
            builder
                .append(timestamp, Some(&marker.key()), Some(&value), &[])
                .ok()?;
            builder.build().ok()
        })?;
        let (batch, _) = RecordBatch::parse(bytes).ok()?;
        let offset = self.next_offset;
        self.store(batch).ok()?;
        if let (false, Some(first_offset)) = (commit, open.first_offset) {
            self.aborted.push(AbortedTransaction {
                producer_id,
                first_offset,
                last_offset: offset,
            });
        }
        Some(offset)
    }

    /// Kafka's last stable offset: where the first transaction still open here
    /// begins, or the log end when none is.
    pub fn last_stable_offset(&self) -> i64 {
        self.open_transactions
            .values()
            .filter_map(|open| open.first_offset)
            .min()
            .unwrap_or(self.next_offset)
    }

    /// The aborted transactions whose records reach into `from..to`, what a
    /// read_committed consumer must skip there.
    pub fn aborted_between(&self, from: i64, to: i64) -> Vec<AbortedTransaction> {
        // Sorted by marker offset: those ending before `from` are skipped at once.
        let start = self.aborted.partition_point(|a| a.last_offset < from);
        self.aborted[start..]
            .iter()
            .filter(|a| a.first_offset < to)
            .copied()
            .collect()
    }

    /// For an idempotent producer's batch: the base offset it was stored at if it
    /// is a retry, or an error when its sequence does not follow the last one.
    fn duplicate_of(&self, batch: &RecordBatch) -> Result<Option<i64>, ErrorCode> {
        if batch.producer_id() < 0 {
            return Ok(None);
        }
        let first = batch.base_sequence();
        let last = first.wrapping_add(batch.last_offset_delta());
        let Some(state) = self.producers.get(&batch.producer_id()) else {
            return if first == 0 {
                Ok(None)
            } else {
                Err(ErrorCode::OutOfOrderSequenceNumber)
            };
        };
        if batch.producer_epoch() < state.epoch {
            return Err(ErrorCode::InvalidProducerEpoch);
        }
        if batch.producer_epoch() > state.epoch {
            return if first == 0 {
                Ok(None)
            } else {
                Err(ErrorCode::OutOfOrderSequenceNumber)
            };
        }
        if let Some(&(_, _, offset)) = state
            .recent
            .iter()
            .find(|&&(f, l, _)| (f, l) == (first, last))
        {
            return Ok(Some(offset));
        }
        let expected = state
            .recent
            .back()
            .map_or(0, |&(_, l, _)| if l == i32::MAX { 0 } else { l + 1 });
        if first == expected {
            Ok(None)
        } else {
            Err(ErrorCode::OutOfOrderSequenceNumber)
        }
    }

    /// Stores `batch` at the next offset, stamped with our leader epoch. Refused,
    /// storing nothing, only for bytes that are not one whole batch.
    fn store(&mut self, batch: RecordBatch) -> Result<(), RecordsError> {
        let base_offset = self.next_offset;
        let last_offset = base_offset + i64::from(batch.last_offset_delta());
        let bytes = batch.as_bytes();
        let len = bytes.len();
        if self.open.capacity() - self.open.len() < len {
            // Sealed, so that the batches in it stay readable; the next segment is
            // a new allocation.
            let room = (2 * self.open.capacity()).clamp(FIRST_SEGMENT_BYTES, SEGMENT_BYTES);
            self.seal();
            self.open = BytesMut::with_capacity(room.max(len));
        }
        let start = self.open.len();
        // Within the capacity checked above: no reallocation.
        self.open.extend_from_slice(bytes);
        let stamped =
            rewrite::set_base_offset(&mut self.open[start..], base_offset).and_then(|()| {
                rewrite::set_partition_leader_epoch(&mut self.open[start..], LEADER_EPOCH)
            });
        if let Err(err) = stamped {
            self.open.truncate(start);
            return Err(err);
        }
        if batch.producer_id() >= 0 {
            let state = self.producers.entry(batch.producer_id()).or_default();
            if batch.producer_epoch() != state.epoch {
                state.epoch = batch.producer_epoch();
                state.recent.clear();
            }
        }
        // A marker has no sequence: it moves the producer to its epoch (above),
        // fencing older ones, and leaves the sequences where they were.
        if batch.producer_id() >= 0 && !batch.is_control() {
            let state = self.producers.entry(batch.producer_id()).or_default();
            let first = batch.base_sequence();
            state.recent.push_back((
                first,
                first.wrapping_add(batch.last_offset_delta()),
                base_offset,
            ));
            if state.recent.len() > RETAINED_BATCHES {
                state.recent.pop_front();
            }
        }
        self.stored_bytes += len as u64;
        self.batches.push(StoredBatch {
            last_offset,
            max_timestamp: batch.max_timestamp(),
            segment: OPEN,
            start,
            len,
        });
        self.next_offset = last_offset + 1;
        Ok(())
    }

    /// Freezes what the open segment holds into a sealed one; its spare room
    /// stays open for the appends that follow.
    fn seal(&mut self) {
        if self.open.is_empty() {
            return;
        }
        let index = self.sealed.len();
        self.sealed.push(self.open.split().freeze());
        for batch in &mut self.batches[self.open_from..] {
            batch.segment = index;
        }
        self.open_from = self.batches.len();
    }

    /// A batch's bytes; `None` while it is in the open segment.
    fn sealed_bytes(&self, batch: &StoredBatch) -> Option<Bytes> {
        let segment = self.sealed.get(batch.segment)?;
        Some(segment.slice(batch.start..batch.start + batch.len))
    }

    /// The batches holding `offset` and after, whole, up to `max_bytes`, within
    /// one segment; with `at_least_one`, a first batch larger than that still gets
    /// through, as KIP-74 has it for the first partition of a fetch. As indices
    /// into `batches`.
    fn chosen(
        &self,
        offset: i64,
        max_bytes: usize,
        at_least_one: bool,
        end_offset: i64,
    ) -> Result<std::ops::Range<usize>, ErrorCode> {
        if offset < self.log_start_offset() || offset > self.next_offset {
            return Err(ErrorCode::OffsetOutOfRange);
        }
        let start = self.batches.partition_point(|b| b.last_offset < offset);
        let mut end = start;
        let mut size = 0;
        for batch in &self.batches[start..] {
            let same_segment = batch.segment == self.batches[start].segment;
            // `end_offset` is the log end or the last stable offset, which
            // is where a batch starts: no batch straddles it.
            if batch.last_offset >= end_offset
                || !same_segment
                || ((size > 0 || !at_least_one) && size + batch.len > max_bytes)
            {
                break;
            }
            size += batch.len;
            end += 1;
        }
        Ok(start..end)
    }

    /// The batches [`chosen`](Self::chosen) for these limits: one slice of the
    /// segment that holds them (sealed first if they are in the open one), never a
    /// copy; at most `max_bytes`, or one batch, never the whole log. With
    /// `committed` (read_committed) nothing from the last stable offset on.
    pub fn read(
        &mut self,
        offset: i64,
        max_bytes: usize,
        at_least_one: bool,
        committed: bool,
    ) -> Result<StoredRead, ErrorCode> {
        let end_offset = if committed {
            self.last_stable_offset()
        } else {
            self.next_offset
        };
        let chosen = self.chosen(offset, max_bytes, at_least_one, end_offset)?;
        if chosen.is_empty() {
            return Ok(StoredRead {
                bytes: Bytes::new(),
                end: offset,
            });
        }
        let last = chosen.end - 1;
        if self.batches[last].segment == OPEN {
            self.seal();
        }
        let (first, last) = (&self.batches[chosen.start], &self.batches[last]);
        let bytes = self.sealed[first.segment].slice(first.start..last.start + last.len);
        Ok(StoredRead {
            bytes,
            end: last.last_offset + 1,
        })
    }

    /// ListOffsets' lookup: `-2` earliest, `-1` latest, `-3` the record with the
    /// largest timestamp, `-4` earliest local (the same here), or the first record
    /// whose timestamp is at least `timestamp`. A lookup inside a compressed batch
    /// spends `budget`, what the request may decompress in all.
    pub fn find_offset(
        &self,
        timestamp: i64,
        budget: &mut DecompressionBudget,
    ) -> Result<Option<FoundOffset>, ErrorCode> {
        let found = |offset| {
            Some(FoundOffset {
                offset,
                timestamp: -1,
            })
        };
        match timestamp {
            -2 | -4 | -5 => Ok(found(self.log_start_offset())),
            -1 => Ok(found(self.next_offset)),
            -3 => {
                let newest = self.batches.iter().rev().max_by_key(|b| b.max_timestamp);
                match newest {
                    Some(batch) => self.first_record_at(batch, batch.max_timestamp, true, budget),
                    None => Ok(None),
                }
            }
            t if t >= 0 => match self.batches.iter().find(|b| b.max_timestamp >= t) {
                Some(batch) => self.first_record_at(batch, t, false, budget),
                None => Ok(None),
            },
            _ => Err(ErrorCode::InvalidRequest),
        }
    }

    /// The first record in `batch` whose timestamp is `timestamp` (exact) or at
    /// least `timestamp`.
    fn first_record_at(
        &self,
        batch: &StoredBatch,
        timestamp: i64,
        exact: bool,
        budget: &mut DecompressionBudget,
    ) -> Result<Option<FoundOffset>, ErrorCode> {
        let bytes = match self.sealed_bytes(batch) {
            Some(bytes) => bytes,
            // In the open segment: read from a copy of the one batch (a timestamp
            // lookup, not a fetch).
            None => Bytes::copy_from_slice(&self.open[batch.start..batch.start + batch.len]),
        };
        let (parsed, _) = RecordBatch::parse(bytes).map_err(|_| ErrorCode::CorruptMessage)?;
        let records = budget.records(&parsed).map_err(|error| match error {
            // The request's other lookups spent what it may decompress.
            RecordsError::LimitExceeded { .. } => ErrorCode::PolicyViolation,
            _ => ErrorCode::CorruptMessage,
        })?;
        for record in records {
            let record = record.map_err(|_| ErrorCode::CorruptMessage)?;
            let hit = if exact {
                record.timestamp == timestamp
            } else {
                record.timestamp >= timestamp
            };
            if hit {
                return Ok(Some(FoundOffset {
                    offset: record.offset,
                    timestamp: record.timestamp,
                }));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handlers::testing::batch_of_value;

    fn batch(records: usize, timestamp: i64) -> Bytes {
        let mut builder = RecordBatchBuilder::new(0).base_timestamp(timestamp);
        for i in 0..records {
            builder
                .append(timestamp + i as i64, Some(b"k"), Some(b"v"), &[])
                .expect("append");
        }
        builder.build().expect("build")
    }

    #[test]
    fn the_logs_hold_no_more_than_the_cap_and_deleting_gives_room_back() {
        let mut topics = Topics::default();
        topics.create("a", 1);
        topics.create("b", 1);
        let one = batch(3, 100);
        let cap = one.len() as u64 * 2;
        assert_eq!(topics.append("a", 0, &one, cap), Some(Ok(0)));
        assert_eq!(topics.append("b", 0, &one, cap), Some(Ok(0)));
        assert_eq!(topics.stored_bytes(), cap);
        // Full: refused as a Kafka broker with a full disk refuses, nothing stored.
        assert_eq!(
            topics.append("a", 0, &one, cap),
            Some(Err(ErrorCode::KafkaStorageError))
        );
        assert_eq!(
            topics.partition("a", 0).map(|l| l.high_watermark()),
            Some(3)
        );
        assert_eq!(topics.append("c", 0, &one, cap), None);
        topics.delete("b");
        assert_eq!(topics.stored_bytes(), cap / 2);
        assert_eq!(topics.append("a", 0, &one, cap), Some(Ok(3)));
    }

    #[test]
    fn offsets_are_assigned_by_rewriting_the_base_offset() {
        let mut log = PartitionLog::default();
        assert_eq!(log.append(&batch(3, 100)), Ok(0));
        assert_eq!(log.append(&batch(2, 200)), Ok(3));
        assert_eq!(log.high_watermark(), 5);
        let read = log
            .read(4, 1 << 20, true, false)
            .expect("read")
            .into_bytes();
        let (second, rest) = RecordBatch::parse(read).expect("parse");
        assert!(rest.is_empty());
        assert_eq!(second.base_offset(), 3);
        assert_eq!(second.partition_leader_epoch(), LEADER_EPOCH);
        second
            .verify_crc()
            .expect("the CRC does not cover the base offset");
        assert_eq!(
            log.read(6, 1024, true, false).map(StoredRead::into_bytes),
            Err(ErrorCode::OffsetOutOfRange)
        );
    }

    /// A read hands out the stored bytes, never a copy: one batch or several, a
    /// slice of the segment holding them.
    #[test]
    fn reads_are_slices_of_the_log_never_copies() {
        let mut log = PartitionLog::default();
        log.append(&batch(3, 100)).expect("append");
        log.append(&batch(3, 200)).expect("append");
        let first = log.read(0, 1, true, false).expect("read").into_bytes();
        let both = log
            .read(0, 1 << 20, true, false)
            .expect("read")
            .into_bytes();
        assert_eq!(both.len(), 2 * first.len());
        assert_eq!(first.as_ptr(), both.as_ptr(), "one segment, not copies");
        assert_eq!(&both[..first.len()], &first[..]);
        let again = log
            .read(0, 1 << 20, true, false)
            .expect("read")
            .into_bytes();
        assert_eq!(again.as_ptr(), both.as_ptr());
        assert_eq!(Batches::new(both).count(), 2);
        assert_eq!(log.read(0, 1, false, false).expect("read").len(), 0);
    }

    /// What is appended after a read goes on in the same allocation but a segment
    /// of its own: a read stops at the end of the first segment it touches, and
    /// the next read (from where the consumer got to) gets the rest.
    #[test]
    fn a_read_stops_at_the_end_of_a_segment() {
        let mut log = PartitionLog::default();
        log.append(&batch(3, 100)).expect("append");
        let first = log
            .read(0, 1 << 20, true, false)
            .expect("read")
            .into_bytes();
        log.append(&batch(3, 200)).expect("append");
        log.append(&batch(3, 300)).expect("append");
        let from_start = log
            .read(0, 1 << 20, true, false)
            .expect("read")
            .into_bytes();
        assert_eq!(from_start, first, "the first segment only");
        let rest = log
            .read(3, 1 << 20, true, false)
            .expect("read")
            .into_bytes();
        assert_eq!(rest.len(), 2 * first.len());
        assert_eq!(Batches::new(rest.clone()).count(), 2);
        // Appended in the room the first segment's allocation had left.
        assert_eq!(rest.as_ptr(), first.as_ptr().wrapping_add(first.len()));
        // Offsets as assigned, batch after batch.
        let offsets: Vec<i64> = Batches::new(rest)
            .map(|batch| batch.expect("a batch").base_offset())
            .collect();
        assert_eq!(offsets, [3, 6]);
    }

    /// A batch larger than the room left starts a segment of its own size.
    #[test]
    fn a_batch_larger_than_a_segment_is_stored_whole() {
        let mut log = PartitionLog::default();
        let big = batch_of_value(SEGMENT_BYTES + 10);
        log.append(&batch(1, 1)).expect("append");
        log.append(&big).expect("append");
        log.append(&batch(1, 2)).expect("append");
        assert_eq!(
            log.read(0, usize::MAX, true, false).expect("read").len(),
            batch(1, 1).len()
        );
        let read = log.read(1, 1, true, false).expect("read").into_bytes();
        let mut expected = BytesMut::from(&big[..]);
        rewrite::set_base_offset(&mut expected, 1).expect("one batch");
        rewrite::set_partition_leader_epoch(&mut expected, LEADER_EPOCH).expect("one batch");
        assert_eq!(read, expected, "the producer's bytes, our offset and epoch");
        assert_eq!(
            log.read(2, usize::MAX, true, false).expect("read").len(),
            batch(1, 2).len()
        );
    }

    #[test]
    fn lookups_by_timestamp_find_the_first_record_at_or_after() {
        let mut log = PartitionLog::default();
        log.append(&batch(3, 100)).expect("append");
        log.append(&batch(3, 200)).expect("append");
        let mut budget = DecompressionBudget::new(&kwire::DecodeLimits::DEFAULT);
        let mut at = |t| {
            log.find_offset(t, &mut budget)
                .expect("lookup")
                .map(|f| f.offset)
        };
        assert_eq!(at(101), Some(1));
        assert_eq!(at(150), Some(3));
        assert_eq!(at(-2), Some(0));
        assert_eq!(at(-1), Some(6));
        assert_eq!(at(-3), Some(5));
        assert_eq!(at(1000), None);
    }

    fn idempotent(producer_epoch: i16, base_sequence: i32, records: usize) -> Bytes {
        let mut builder = RecordBatchBuilder::new(0).producer(7, producer_epoch, base_sequence);
        for i in 0..records {
            builder
                .append(i as i64, None, Some(b"v"), &[])
                .expect("append");
        }
        builder.build().expect("build")
    }

    #[test]
    fn an_idempotent_retry_is_stored_once_and_a_gap_is_refused() {
        let mut log = PartitionLog::default();
        assert_eq!(log.append(&idempotent(0, 0, 2)), Ok(0));
        assert_eq!(log.append(&idempotent(0, 2, 3)), Ok(2));
        // The same batch again (a retry after a lost answer): its first offset.
        assert_eq!(log.append(&idempotent(0, 2, 3)), Ok(2));
        assert_eq!(log.high_watermark(), 5);
        assert_eq!(
            log.append(&idempotent(0, 9, 1)),
            Err(ErrorCode::OutOfOrderSequenceNumber)
        );
        // A new epoch starts again at sequence 0; the old epoch is fenced.
        assert_eq!(log.append(&idempotent(1, 0, 1)), Ok(5));
        assert_eq!(
            log.append(&idempotent(0, 5, 1)),
            Err(ErrorCode::InvalidProducerEpoch)
        );
    }

    fn transactional(producer_epoch: i16, base_sequence: i32, records: usize) -> Bytes {
        let mut builder = RecordBatchBuilder::new(0)
            .producer(7, producer_epoch, base_sequence)
            .transactional(true);
        for i in 0..records {
            builder
                .append(i as i64, None, Some(b"v"), &[])
                .expect("append");
        }
        builder.build().expect("build")
    }

    /// The batches a consumer reads from offset 0 on, read after read (each
    /// stops at a segment's end), as (base offset, control, transactional).
    fn batches_read(log: &mut PartitionLog, committed: bool) -> Vec<(i64, bool, bool)> {
        let mut found = Vec::new();
        let mut offset = 0;
        loop {
            let read = log.read(offset, usize::MAX, true, committed).expect("read");
            if read.len() == 0 {
                return found;
            }
            offset = read.end();
            found.extend(
                Batches::new(read.into_bytes())
                    .map(|b| b.expect("a batch"))
                    .map(|b| (b.base_offset(), b.is_control(), b.is_transactional())),
            );
        }
    }

    #[test]
    fn an_open_transaction_holds_the_last_stable_offset_until_its_marker() {
        let mut log = PartitionLog::default();
        assert_eq!(log.append(&batch(2, 0)), Ok(0));
        log.begin_transaction(7, 0);
        assert_eq!(log.last_stable_offset(), 2, "added, nothing written yet");
        assert_eq!(log.append(&transactional(0, 0, 3)), Ok(2));
        assert_eq!((log.last_stable_offset(), log.high_watermark()), (2, 5));
        // read_committed stops where the transaction begins; read_uncommitted
        // does not.
        assert_eq!(batches_read(&mut log, true), [(0, false, false)]);
        assert_eq!(batches_read(&mut log, false).len(), 2);
        assert_eq!(log.end_transaction(7, 0, true, 1000), Some(5));
        assert_eq!((log.last_stable_offset(), log.high_watermark()), (6, 6));
        assert_eq!(
            batches_read(&mut log, true),
            [(0, false, false), (2, false, true), (5, true, true)]
        );
        let read = log
            .read(5, usize::MAX, true, true)
            .expect("read")
            .into_bytes();
        let (marker, _) = RecordBatch::parse(read).expect("a batch");
        let record = marker
            .records()
            .expect("records")
            .next()
            .expect("one")
            .expect("read");
        let control = ControlRecord::read(&record).expect("a control record");
        assert!(matches!(control, ControlRecord::Commit(_)), "{control:?}");
        assert!(
            log.aborted_between(0, 6).is_empty(),
            "a commit is not indexed"
        );
        // Ended once: nothing more to end.
        assert_eq!(log.end_transaction(7, 0, true, 1000), None);
    }

    #[test]
    fn an_aborted_transaction_is_indexed_from_its_first_batch_to_its_marker() {
        let mut log = PartitionLog::default();
        log.begin_transaction(7, 0);
        log.append(&transactional(0, 0, 2)).expect("append");
        log.append(&transactional(0, 2, 2)).expect("append");
        assert_eq!(log.end_transaction(7, 0, false, 1000), Some(4));
        let aborted = AbortedTransaction {
            producer_id: 7,
            first_offset: 0,
            last_offset: 4,
        };
        assert_eq!(log.aborted_between(0, 5), [aborted]);
        assert_eq!(log.aborted_between(4, 5), [aborted], "up to its marker");
        assert!(log.aborted_between(5, 9).is_empty());
        // Added but never written to: a marker, nothing to skip.
        log.begin_transaction(7, 0);
        assert_eq!(log.end_transaction(7, 0, false, 1000), Some(5));
        assert_eq!(log.aborted_between(0, 9).len(), 1);
    }

    #[test]
    fn transactional_batches_need_the_partition_in_their_transaction_at_their_epoch() {
        let mut log = PartitionLog::default();
        assert_eq!(
            log.append(&transactional(0, 0, 1)),
            Err(ErrorCode::InvalidTxnState)
        );
        log.begin_transaction(7, 1);
        assert_eq!(
            log.append(&transactional(0, 0, 1)),
            Err(ErrorCode::InvalidProducerEpoch)
        );
        assert_eq!(log.append(&transactional(1, 0, 1)), Ok(0));
        // A client may not write markers.
        let mut builder = RecordBatchBuilder::new(0).control(true).transactional(true);
        let commit = ControlRecord::Commit(EndTxnMarker::default());
        builder
            .append(
                0,
                Some(&commit.key()),
                Some(&commit.value().expect("encodes")),
                &[],
            )
            .expect("append");
        assert_eq!(
            log.append(&builder.build().expect("build")),
            Err(ErrorCode::InvalidRecord)
        );
        assert_eq!(log.high_watermark(), 1);
    }

    /// A marker has no sequence: the producer's next transaction goes on from
    /// its last sequence, and a retry is still recognised.
    #[test]
    fn a_marker_leaves_the_producers_sequences_alone() {
        let mut log = PartitionLog::default();
        log.begin_transaction(7, 0);
        assert_eq!(log.append(&transactional(0, 0, 2)), Ok(0));
        log.end_transaction(7, 0, true, 1000);
        log.begin_transaction(7, 0);
        assert_eq!(log.append(&transactional(0, 2, 2)), Ok(3));
        assert_eq!(log.append(&transactional(0, 2, 2)), Ok(3), "a retry");
        // A marker at a new epoch fences the old one.
        log.end_transaction(7, 1, false, 1000);
        log.begin_transaction(7, 1);
        assert_eq!(log.append(&transactional(1, 0, 1)), Ok(6));
    }

    #[test]
    fn a_corrupted_batch_is_refused_whole() {
        let mut log = PartitionLog::default();
        let mut bytes = BytesMut::from(batch(2, 0).as_ref());
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        assert_eq!(log.append(&bytes.freeze()), Err(ErrorCode::CorruptMessage));
        assert_eq!(log.high_watermark(), 0);
    }
}
