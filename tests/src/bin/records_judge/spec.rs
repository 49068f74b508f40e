//! A batch described by its values: built with our `RecordBatchBuilder`, and
//! listed as a reader should list it, from the values alone (not from our reader),
//! so that Kafka's listing of our bytes is compared with what we meant to write.

use bytes::Bytes;
use kwire::records::{Compression, RecordBatchBuilder, RecordsError, TimestampType};
use kwire_messages::control_records::ControlRecord;

use crate::listing::{control_summary, BatchLine, RecordLine};

/// One record to append.
#[derive(Debug, Clone)]
pub struct Rec {
    pub offset_delta: i64,
    pub timestamp: i64,
    pub key: Option<Vec<u8>>,
    pub value: Option<Vec<u8>>,
    pub headers: Vec<(String, Option<Vec<u8>>)>,
    /// The control record the key and value encode, in a control batch.
    pub control: Option<ControlRecord>,
}

impl Rec {
    pub fn new(offset_delta: i64, timestamp: i64, key: Option<&[u8]>, value: Option<&[u8]>) -> Rec {
        Rec {
            offset_delta,
            timestamp,
            key: key.map(<[u8]>::to_vec),
            value: value.map(<[u8]>::to_vec),
            headers: Vec::new(),
            control: None,
        }
    }

    pub fn header(mut self, key: &str, value: Option<&[u8]>) -> Rec {
        self.headers
            .push((key.to_string(), value.map(<[u8]>::to_vec)));
        self
    }

    /// A control record, its key and value as our `ControlRecord` writes them.
    pub fn control(
        offset_delta: i64,
        timestamp: i64,
        record: ControlRecord,
    ) -> Result<Rec, kwire::EncodeError> {
        Ok(Rec {
            offset_delta,
            timestamp,
            key: Some(record.key().to_vec()),
            value: Some(record.value()?.to_vec()),
            headers: Vec::new(),
            control: Some(record),
        })
    }
}

/// A batch's settings and records.
#[derive(Debug, Clone)]
pub struct Spec {
    pub codec: Compression,
    pub base_offset: i64,
    pub partition_leader_epoch: i32,
    /// A `LogAppendTime` batch appended at this time.
    pub log_append_time: Option<i64>,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    pub transactional: bool,
    pub control: bool,
    pub delete_horizon: Option<i64>,
    pub last_offset_delta: Option<i32>,
    pub records: Vec<Rec>,
    /// An empty batch (the cleaner's) with this max timestamp, instead of records.
    pub empty_max_timestamp: Option<i64>,
}

impl Spec {
    pub fn new(codec: Compression, records: Vec<Rec>) -> Spec {
        Spec {
            codec,
            base_offset: 0,
            partition_leader_epoch: -1,
            log_append_time: None,
            producer_id: -1,
            producer_epoch: -1,
            base_sequence: -1,
            transactional: false,
            control: false,
            delete_horizon: None,
            last_offset_delta: None,
            records,
            empty_max_timestamp: None,
        }
    }

    pub fn producer(mut self, id: i64, epoch: i16, sequence: i32) -> Spec {
        (self.producer_id, self.producer_epoch, self.base_sequence) = (id, epoch, sequence);
        self
    }

    /// The batch, written by our builder.
    pub fn build(&self) -> Result<Bytes, RecordsError> {
        let mut builder = RecordBatchBuilder::new(self.base_offset)
            .partition_leader_epoch(self.partition_leader_epoch)
            .compression(self.codec)
            .producer(self.producer_id, self.producer_epoch, self.base_sequence)
            .transactional(self.transactional)
            .control(self.control);
        if let Some(time) = self.log_append_time {
            builder = builder.log_append_time(time);
        }
        if let Some(horizon) = self.delete_horizon {
            builder = builder.delete_horizon(horizon);
        }
        if let Some(delta) = self.last_offset_delta {
            builder = builder.last_offset_delta(delta);
        }
        if let Some(max_timestamp) = self.empty_max_timestamp {
            return builder.build_empty(max_timestamp);
        }
        for record in &self.records {
            let headers: Vec<(&str, Option<&[u8]>)> = record
                .headers
                .iter()
                .map(|(key, value)| (key.as_str(), value.as_deref()))
                .collect();
            builder.append_at(
                record.offset_delta,
                record.timestamp,
                record.key.as_deref(),
                record.value.as_deref(),
                &headers,
            )?;
        }
        builder.build()
    }

    /// The listing a reader should give of `bytes`, this batch as built: the
    /// header from the values (size and CRC from the bytes: Kafka's `ensureValid`
    /// judges the CRC), the records from the values.
    pub fn expected(&self, bytes: &[u8], out: &mut String) {
        let last_delta = self.records.last().map_or(0, |r| r.offset_delta);
        let last_offset_delta = self.last_offset_delta.map_or(last_delta, i64::from);
        let base_timestamp = match (self.empty_max_timestamp, self.delete_horizon) {
            (Some(_), _) => -1,
            (None, Some(horizon)) => horizon,
            (None, None) => self.records.first().map_or(-1, |r| r.timestamp),
        };
        let max_timestamp = match (self.empty_max_timestamp, self.log_append_time) {
            (Some(max), _) => max,
            (None, Some(time)) => time,
            (None, None) => self.records.iter().fold(-1, |max, r| max.max(r.timestamp)),
        };
        let crc = bytes
            .get(17..21)
            .and_then(|crc| <[u8; 4]>::try_from(crc).ok())
            .map_or(0, u32::from_be_bytes);
        BatchLine {
            base_offset: self.base_offset,
            last_offset: self.base_offset + last_offset_delta,
            count: i32::try_from(self.records.len()).unwrap_or(i32::MAX),
            partition_leader_epoch: self.partition_leader_epoch,
            magic: 2,
            codec: self.codec,
            timestamp_type: if self.log_append_time.is_some() {
                TimestampType::LogAppendTime
            } else {
                TimestampType::CreateTime
            },
            transactional: self.transactional,
            control: self.control,
            producer_id: self.producer_id,
            producer_epoch: self.producer_epoch,
            base_sequence: self.base_sequence,
            base_timestamp,
            max_timestamp,
            delete_horizon: self.delete_horizon,
            size: bytes.len(),
            crc,
        }
        .write(out);
        for record in &self.records {
            RecordLine {
                offset: self.base_offset + record.offset_delta,
                timestamp: self.log_append_time.unwrap_or(record.timestamp),
                key: record.key.as_deref(),
                value: record.value.as_deref(),
                headers: record
                    .headers
                    .iter()
                    .map(|(key, value)| (key.as_str(), value.as_deref()))
                    .collect(),
                control: record.control.as_ref().map(control_summary),
            }
            .write(out);
        }
    }
}
