//! Rewriting a stored batch's header in place, as Kafka's broker does when it
//! appends a producer's batch: its offsets, its partition leader epoch, and for a
//! `LogAppendTime` topic its timestamp type and max timestamp
//! (`DefaultRecordBatch.setLastOffset`, `setPartitionLeaderEpoch`,
//! `setMaxTimestamp`).
//!
//! The CRC-32C covers the bytes from the attributes to the end: the base offset,
//! batch length and partition leader epoch lie before it and are rewritten without
//! touching the CRC, as Kafka does; the attributes and max timestamp lie within it,
//! so rewriting them recomputes the CRC over the whole batch, as Kafka's
//! `setMaxTimestamp` does (a CRC that was wrong before is then right: check it
//! first, as a broker does on append).
//!
//! Each function takes the bytes of exactly one batch (a `BytesMut` or a slice of
//! a log segment, say) and checks them first: too short for the batch its header
//! declares is [`Truncated`](RecordsError::Truncated), bytes after it
//! [`TrailingBytes`](RecordsError::TrailingBytes), a length shorter than a header
//! [`BadLength`](RecordsError::BadLength), a magic other than 2
//! [`UnsupportedMagic`](RecordsError::UnsupportedMagic). Nothing is written when
//! they fail.
//!
//! ```
//! use kwire::bytes::BytesMut;
//! use kwire::records::{rewrite, RecordBatch, RecordBatchBuilder};
//!
//! let mut builder = RecordBatchBuilder::new(0);
//! builder.append(1_700_000_000_000, None, Some(b"v"), &[])?;
//! let mut stored = BytesMut::from(&builder.build()?[..]);
//!
//! rewrite::set_base_offset(&mut stored, 1_000)?;
//! rewrite::set_partition_leader_epoch(&mut stored, 5)?;
//! rewrite::set_log_append_time(&mut stored, 1_700_000_000_500)?;
//!
//! let (batch, _) = RecordBatch::parse(stored.freeze())?;
//! batch.verify_crc()?;
//! assert_eq!((batch.base_offset(), batch.partition_leader_epoch()), (1_000, 5));
//! assert_eq!(batch.max_timestamp(), 1_700_000_000_500);
//! # Ok::<(), kwire::records::RecordsError>(())
//! ```

use super::batch::{
    read_array, split, stamp_crc, Split, ATTRIBUTES_OFFSET, LAST_OFFSET_DELTA_OFFSET,
    MAX_TIMESTAMP_OFFSET, PARTITION_LEADER_EPOCH_OFFSET,
};
use super::{Attributes, RecordsError, TimestampType};

/// Sets the batch's base offset: the offset of its first record, and with the
/// last offset delta, of its last. Outside the CRC: the CRC is kept.
///
/// ```
/// use kwire::records::{rewrite, RecordBatch, RecordBatchBuilder};
///
/// let mut builder = RecordBatchBuilder::new(0);
/// builder.append(1_000, None, None, &[])?;
/// let mut bytes = builder.build()?.to_vec();
/// rewrite::set_base_offset(&mut bytes, 42)?;
/// let (batch, _) = RecordBatch::parse(bytes.into())?;
/// assert_eq!(batch.base_offset(), 42);
/// batch.verify_crc()?;
/// # Ok::<(), kwire::records::RecordsError>(())
/// ```
pub fn set_base_offset(batch: &mut [u8], base_offset: i64) -> Result<(), RecordsError> {
    write(one_batch(batch)?, 0, base_offset.to_be_bytes());
    Ok(())
}

/// Sets the batch's last offset, its base offset moving with it, as Kafka's
/// `setLastOffset` (which the broker's offset assignment calls). A last offset
/// whose base offset would be below `i64::MIN` is
/// [`TooLarge`](RecordsError::TooLarge). Outside the CRC: the CRC is kept.
///
/// ```
/// use kwire::records::{rewrite, RecordBatch, RecordBatchBuilder};
///
/// let mut builder = RecordBatchBuilder::new(0);
/// builder.append(1_000, None, None, &[])?;
/// builder.append(1_001, None, None, &[])?;
/// let mut bytes = builder.build()?.to_vec();
/// rewrite::set_last_offset(&mut bytes, 42)?;
/// let (batch, _) = RecordBatch::parse(bytes.into())?;
/// assert_eq!((batch.base_offset(), batch.last_offset()), (41, 42));
/// # Ok::<(), kwire::records::RecordsError>(())
/// ```
pub fn set_last_offset(batch: &mut [u8], last_offset: i64) -> Result<(), RecordsError> {
    let batch = one_batch(batch)?;
    let delta = read_array::<4>(batch, LAST_OFFSET_DELTA_OFFSET).map_or(0, i32::from_be_bytes);
    let base_offset = last_offset
        .checked_sub(i64::from(delta))
        .ok_or(RecordsError::TooLarge {
            what: "base offset of the last offset",
        })?;
    write(batch, 0, base_offset.to_be_bytes());
    Ok(())
}

/// Sets the partition leader epoch, as the leader stamps every batch it appends.
/// Outside the CRC: the CRC is kept.
///
/// ```
/// use kwire::records::{rewrite, RecordBatch, RecordBatchBuilder};
///
/// let mut builder = RecordBatchBuilder::new(0);
/// builder.append(1_000, None, None, &[])?;
/// let mut bytes = builder.build()?.to_vec();
/// rewrite::set_partition_leader_epoch(&mut bytes, 7)?;
/// let (batch, _) = RecordBatch::parse(bytes.into())?;
/// assert_eq!(batch.partition_leader_epoch(), 7);
/// batch.verify_crc()?;
/// # Ok::<(), kwire::records::RecordsError>(())
/// ```
pub fn set_partition_leader_epoch(batch: &mut [u8], epoch: i32) -> Result<(), RecordsError> {
    write(
        one_batch(batch)?,
        PARTITION_LEADER_EPOCH_OFFSET,
        epoch.to_be_bytes(),
    );
    Ok(())
}

/// Sets the timestamp type and max timestamp, as Kafka's `setMaxTimestamp`: when
/// either changes, the attributes are written anew from the codec, timestamp
/// type, transactional, control and delete horizon bits (Kafka's
/// `computeAttributes`: the other bits, which Kafka does not define, are
/// cleared), then the max timestamp, then the CRC over the whole batch. When
/// neither changes, nothing is written, the CRC included. An unknown codec in the
/// attributes is [`UnknownCompression`](RecordsError::UnknownCompression), as
/// Kafka cannot compute its attributes either.
///
/// The base timestamp and the records' timestamp deltas stay as they are: for a
/// `LogAppendTime` batch, readers give every record the max timestamp.
///
/// ```
/// use kwire::records::{rewrite, RecordBatch, RecordBatchBuilder, TimestampType};
///
/// let mut builder = RecordBatchBuilder::new(0);
/// builder.append(1_000, None, None, &[])?;
/// let mut bytes = builder.build()?.to_vec();
/// rewrite::set_max_timestamp(&mut bytes, TimestampType::CreateTime, 2_000)?;
/// let (batch, _) = RecordBatch::parse(bytes.into())?;
/// assert_eq!((batch.base_timestamp(), batch.max_timestamp()), (1_000, 2_000));
/// batch.verify_crc()?;
/// # Ok::<(), kwire::records::RecordsError>(())
/// ```
pub fn set_max_timestamp(
    batch: &mut [u8],
    timestamp_type: TimestampType,
    max_timestamp: i64,
) -> Result<(), RecordsError> {
    let batch = one_batch(batch)?;
    let attributes =
        Attributes(read_array::<2>(batch, ATTRIBUTES_OFFSET).map_or(0, i16::from_be_bytes));
    let current = read_array::<8>(batch, MAX_TIMESTAMP_OFFSET).map(i64::from_be_bytes);
    if attributes.timestamp_type() == timestamp_type && current == Some(max_timestamp) {
        return Ok(());
    }
    let attributes = Attributes::new(
        attributes.compression()?,
        timestamp_type,
        attributes.is_transactional(),
        attributes.is_control(),
    )
    .with_delete_horizon(attributes.has_delete_horizon());
    write(batch, ATTRIBUTES_OFFSET, attributes.0.to_be_bytes());
    write(batch, MAX_TIMESTAMP_OFFSET, max_timestamp.to_be_bytes());
    stamp_crc(batch);
    Ok(())
}

/// Stamps the batch with the time the broker appended it, for a topic with
/// `message.timestamp.type=LogAppendTime`: [`set_max_timestamp`] with
/// `LogAppendTime`, as Kafka's `LogValidator` stamps a batch it keeps as it came.
///
/// ```
/// use kwire::records::{rewrite, RecordBatch, RecordBatchBuilder, TimestampType};
///
/// let mut builder = RecordBatchBuilder::new(0);
/// builder.append(1_000, None, Some(b"v"), &[])?;
/// let mut bytes = builder.build()?.to_vec();
/// rewrite::set_log_append_time(&mut bytes, 5_000)?;
/// let (batch, _) = RecordBatch::parse(bytes.into())?;
/// batch.verify_crc()?;
/// assert_eq!(batch.timestamp_type(), TimestampType::LogAppendTime);
/// assert_eq!(batch.records()?.next().unwrap()?.timestamp, 5_000);
/// # Ok::<(), kwire::records::RecordsError>(())
/// ```
pub fn set_log_append_time(batch: &mut [u8], time: i64) -> Result<(), RecordsError> {
    set_max_timestamp(batch, TimestampType::LogAppendTime, time)
}

/// `bytes`, when they are exactly one batch of magic 2: a header field rewritten
/// in anything else would land in the wrong place, and a CRC computed over more or
/// fewer bytes than the batch would be wrong.
fn one_batch(bytes: &mut [u8]) -> Result<&mut [u8], RecordsError> {
    match split(bytes)? {
        Split::Whole(total) if total == bytes.len() => Ok(bytes),
        Split::Whole(total) => Err(RecordsError::TrailingBytes {
            what: "record batch",
            left: bytes.len() - total,
        }),
        Split::Partial { needed } => Err(RecordsError::Truncated {
            what: "record batch",
            needed,
        }),
    }
}

/// Writes `value` at `at`; [`one_batch`] checked the header is there.
fn write<const N: usize>(batch: &mut [u8], at: usize, value: [u8; N]) {
    if let Some(slot) = batch.get_mut(at..at + N) {
        slot.copy_from_slice(&value);
    }
}

#[cfg(test)]
#[path = "rewrite_tests.rs"]
mod tests;
