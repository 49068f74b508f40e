//! The canonical listing of a records field, the one `RecordsJudge.java` prints
//! (format: the Java program's header): here from our reader, or from the values
//! a batch was built from.

use std::fmt::Write;

use bytes::Bytes;
use kwire::records::{Batches, Compression, RecordBatch, RecordsError, TimestampType};
use kwire_messages::control_records::ControlRecord;

use crate::peer::hex;

/// A batch's header fields, as the listing's `batch` line shows them.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchLine {
    pub base_offset: i64,
    pub last_offset: i64,
    pub count: i32,
    pub partition_leader_epoch: i32,
    pub magic: i8,
    pub codec: Compression,
    pub timestamp_type: TimestampType,
    pub transactional: bool,
    pub control: bool,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    pub base_timestamp: i64,
    pub max_timestamp: i64,
    pub delete_horizon: Option<i64>,
    pub size: usize,
    pub crc: u32,
}

impl BatchLine {
    pub fn write(&self, out: &mut String) {
        let timestamp_type = match self.timestamp_type {
            TimestampType::CreateTime => "create",
            TimestampType::LogAppendTime => "log_append",
        };
        let horizon = self
            .delete_horizon
            .map_or_else(|| "none".to_string(), |ms| ms.to_string());
        let _ = writeln!(
            out,
            "batch base_offset={} last_offset={} count={} partition_leader_epoch={} magic={} \
             codec={} timestamp_type={timestamp_type} transactional={} control={} producer_id={} \
             producer_epoch={} base_sequence={} base_timestamp={} max_timestamp={} \
             delete_horizon={horizon} size={} crc={}",
            self.base_offset,
            self.last_offset,
            self.count,
            self.partition_leader_epoch,
            self.magic,
            self.codec.name(),
            self.transactional,
            self.control,
            self.producer_id,
            self.producer_epoch,
            self.base_sequence,
            self.base_timestamp,
            self.max_timestamp,
            self.size,
            self.crc,
        );
    }
}

/// One record, as the listing's `record` line shows it.
pub struct RecordLine<'a> {
    pub offset: i64,
    pub timestamp: i64,
    pub key: Option<&'a [u8]>,
    pub value: Option<&'a [u8]>,
    pub headers: Vec<(&'a str, Option<&'a [u8]>)>,
    /// For a record of a control batch: what it says ([`control_summary`]).
    pub control: Option<String>,
}

impl RecordLine<'_> {
    pub fn write(&self, out: &mut String) {
        let nullable = |bytes: Option<&[u8]>| bytes.map_or_else(|| "null".to_string(), hex);
        let headers: Vec<String> = self
            .headers
            .iter()
            .map(|(key, value)| format!("{}:{}", hex(key.as_bytes()), nullable(*value)))
            .collect();
        let _ = write!(
            out,
            "record offset={} timestamp={} key={} value={} headers=[{}]",
            self.offset,
            self.timestamp,
            nullable(self.key),
            nullable(self.value),
            headers.join(",")
        );
        if let Some(control) = &self.control {
            let _ = write!(out, " control={control}");
        }
        out.push('\n');
    }
}

/// The closing line: the field's length and how much of it whole batches fill.
pub fn bytes_line(out: &mut String, total: usize, valid: usize) {
    let _ = writeln!(out, "bytes total={total} valid={valid}");
}

/// What a control record says, in the words `RecordsJudge.java` uses for what
/// Kafka's control record readers make of it.
pub fn control_summary(record: &ControlRecord) -> String {
    let ids = |ids: &mut dyn Iterator<Item = String>| ids.map(|id| id + ";").collect::<String>();
    match record {
        ControlRecord::Abort(marker) => {
            format!("abort coordinator_epoch={}", marker.coordinator_epoch)
        }
        ControlRecord::Commit(marker) => {
            format!("commit coordinator_epoch={}", marker.coordinator_epoch)
        }
        ControlRecord::LeaderChange(message) => format!(
            "leader_change leader={} voters={} granting={}",
            message.leader_id,
            ids(&mut message.voters.iter().map(|v| v.voter_id.to_string())),
            ids(&mut message
                .granting_voters
                .iter()
                .map(|v| v.voter_id.to_string())),
        ),
        ControlRecord::SnapshotHeader(header) => format!(
            "snapshot_header last_contained_log_timestamp={}",
            header.last_contained_log_timestamp
        ),
        ControlRecord::SnapshotFooter(_) => "snapshot_footer".to_string(),
        ControlRecord::KRaftVersion(record) => {
            format!("kraft_version kraft_version={}", record.kraft_version)
        }
        ControlRecord::KRaftVoters(voters) => format!(
            "kraft_voters voters={}",
            ids(&mut voters
                .voters
                .iter()
                .map(|v| format!("{}@{}", v.voter_id, v.endpoints.len())))
        ),
        _ => "unknown".to_string(),
    }
}

/// Why our reader refused a records field, for the listing's `error` line.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Records(#[from] RecordsError),
    #[error("control record: {0}")]
    Control(#[from] kwire_messages::control_records::ControlRecordError),
}

/// Our reader's listing of a records field: every batch (CRC checked), every
/// record, the control records read through our `data` structs.
pub fn ours(bytes: &Bytes) -> Result<String, ReadError> {
    let mut out = String::new();
    let mut batches = Batches::new(bytes.clone());
    let mut valid = 0;
    for batch in batches.by_ref() {
        let batch = batch?;
        batch.verify_crc()?;
        valid += batch.size();
        batch_line(&batch)?.write(&mut out);
        for record in batch.records()? {
            let record = record?;
            let headers = record
                .headers
                .clone()
                .map(|header| header.map(|h| (h.key, h.value)))
                .collect::<Result<Vec<_>, _>>()?;
            let control = if batch.is_control() {
                Some(control_summary(&ControlRecord::read(&record)?))
            } else {
                None
            };
            RecordLine {
                offset: record.offset,
                timestamp: record.timestamp,
                key: record.key,
                value: record.value,
                headers,
                control,
            }
            .write(&mut out);
        }
    }
    bytes_line(&mut out, bytes.len(), valid);
    Ok(out)
}

/// A batch's header fields as our reader gives them.
pub fn batch_line(batch: &RecordBatch) -> Result<BatchLine, RecordsError> {
    Ok(BatchLine {
        base_offset: batch.base_offset(),
        last_offset: batch.last_offset(),
        count: batch.records_count(),
        partition_leader_epoch: batch.partition_leader_epoch(),
        magic: batch.magic(),
        codec: batch.compression()?,
        timestamp_type: batch.timestamp_type(),
        transactional: batch.is_transactional(),
        control: batch.is_control(),
        producer_id: batch.producer_id(),
        producer_epoch: batch.producer_epoch(),
        base_sequence: batch.base_sequence(),
        base_timestamp: batch.base_timestamp(),
        max_timestamp: batch.max_timestamp(),
        delete_horizon: batch.delete_horizon_ms(),
        size: batch.size(),
        crc: batch.crc(),
    })
}
