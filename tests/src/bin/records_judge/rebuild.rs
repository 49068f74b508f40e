//! Kafka's batch written again by our builder from what our reader made of it:
//! our builder claims Kafka's bytes, so an uncompressed batch must come out
//! byte for byte, and a compressed one with the same header and the same records
//! once decompressed (codecs may frame the same input differently).

use bytes::Bytes;
use kwire::records::{
    compression::decompress, Compression, RecordBatch, RecordBatchBuilder, RecordsError,
    TimestampType, DEFAULT_MAX_DECOMPRESSED,
};

/// Where the records start: the header's size.
const HEADER_SIZE: usize = 61;
/// The attributes (int16) at 21; bits 0-2 name the codec.
const ATTRIBUTES: std::ops::Range<usize> = 21..23;

/// How Kafka's batch compares with ours built from its records.
#[derive(Debug, PartialEq)]
pub enum Rebuilt {
    /// The same bytes.
    Identical,
    /// Compressed: the same header (but the length, CRC and codec bits) and the
    /// same records once decompressed; the compressed bytes differ.
    SameRecords,
    /// What differs.
    Differs(String),
}

/// `batch` rebuilt by our builder and compared with Kafka's bytes.
pub fn compare(batch: &RecordBatch) -> Result<Rebuilt, RecordsError> {
    let codec = batch.compression()?;
    let ours = rebuild(batch, codec)?;
    let kafka = batch.as_bytes();
    if ours == kafka {
        return Ok(Rebuilt::Identical);
    }
    if codec == Compression::None {
        return Ok(Rebuilt::Differs(first_difference(kafka, &ours)));
    }
    let plain = rebuild(batch, Compression::None)?;
    let records = decompress(codec, &batch.payload(), DEFAULT_MAX_DECOMPRESSED)?;
    let mut kafka_header = kafka.get(..HEADER_SIZE).unwrap_or_default().to_vec();
    let mut our_header = plain.get(..HEADER_SIZE).unwrap_or_default().to_vec();
    for header in [&mut kafka_header, &mut our_header] {
        // Length, CRC and codec bits differ by nature between the two encodings.
        for field in [8..12, 17..21] {
            if let Some(field) = header.get_mut(field) {
                field.fill(0);
            }
        }
        if let Some(low) = header.get_mut(ATTRIBUTES.end - 1) {
            *low &= !0x07;
        }
    }
    if kafka_header != our_header {
        return Ok(Rebuilt::Differs(format!(
            "header {}",
            first_difference(&kafka_header, &our_header)
        )));
    }
    if records != plain.get(HEADER_SIZE..).unwrap_or_default() {
        return Ok(Rebuilt::Differs(format!(
            "decompressed records {}",
            first_difference(&records, plain.get(HEADER_SIZE..).unwrap_or_default())
        )));
    }
    Ok(Rebuilt::SameRecords)
}

fn first_difference(kafka: &[u8], ours: &[u8]) -> String {
    let at = kafka
        .iter()
        .zip(ours)
        .position(|(a, b)| a != b)
        .unwrap_or(kafka.len().min(ours.len()));
    format!(
        "differ from byte {at} (Kafka's {} bytes, ours {})",
        kafka.len(),
        ours.len()
    )
}

fn rebuild(batch: &RecordBatch, codec: Compression) -> Result<Bytes, RecordsError> {
    let mut builder = RecordBatchBuilder::new(batch.base_offset())
        .partition_leader_epoch(batch.partition_leader_epoch())
        .compression(codec)
        .producer(
            batch.producer_id(),
            batch.producer_epoch(),
            batch.base_sequence(),
        )
        .transactional(batch.is_transactional())
        .control(batch.is_control())
        .last_offset_delta(batch.last_offset_delta());
    if batch.timestamp_type() == TimestampType::LogAppendTime {
        builder = builder.log_append_time(batch.max_timestamp());
    }
    if let Some(horizon) = batch.delete_horizon_ms() {
        builder = builder.delete_horizon(horizon);
    }
    if batch.records_count() == 0 {
        if batch.base_timestamp() != -1 {
            builder = builder.base_timestamp(batch.base_timestamp());
        }
        return builder.build_empty(batch.max_timestamp());
    }
    for record in batch.records()? {
        let record = record?;
        let headers = record
            .headers
            .clone()
            .map(|header| header.map(|h| (h.key, h.value)))
            .collect::<Result<Vec<_>, _>>()?;
        // The producer's timestamp, not the append time a LogAppendTime batch's
        // reader gives: that is what the builder is given.
        let timestamp = batch.base_timestamp().wrapping_add(record.timestamp_delta);
        builder.append_at(
            i64::from(record.offset_delta),
            timestamp,
            record.key,
            record.value,
            &headers,
        )?;
    }
    builder.build()
}
