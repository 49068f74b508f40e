//! Damaged batches, for both readers to judge: each damage applied to the first
//! batch of a records field we wrote. Kafka's reader and ours must agree: both
//! refuse the field, or both list the same batches and records (a partial
//! trailing batch is not an error to either: both stop before it), or we refuse
//! what Kafka reads in one of the places documented as stricter than Kafka
//! ([`explain`]).

use kwire::records::{RecordBatch, RecordsError};
use kwire_messages::control_records::ControlRecordError;

use crate::listing::ReadError;

/// Where the header's fields lie.
const BATCH_LENGTH: std::ops::Range<usize> = 8..12;
const CRC: std::ops::Range<usize> = 17..21;
const RECORDS_COUNT: std::ops::Range<usize> = 57..61;
const HEADER_SIZE: usize = 61;

/// One way to damage a batch.
#[derive(Debug, Clone, Copy)]
pub enum Damage {
    /// A byte of the records flipped, the CRC left as it was.
    Crc,
    /// A byte of the records flipped and the CRC stamped again: only what the
    /// records say can tell.
    Records,
    /// One record more declared than there are (CRC stamped again).
    CountUp,
    /// One record fewer declared than there are (CRC stamped again).
    CountDown,
    /// The batch length one byte longer than the batch, taking a byte of what
    /// follows or, at the end, making it a partial batch.
    LengthUp,
    /// The field's last 10 bytes cut off: its last batch is partial.
    Truncated,
}

pub const ALL: [Damage; 6] = [
    Damage::Crc,
    Damage::Records,
    Damage::CountUp,
    Damage::CountDown,
    Damage::LengthUp,
    Damage::Truncated,
];

impl Damage {
    pub fn name(self) -> &'static str {
        match self {
            Damage::Crc => "crc",
            Damage::Records => "records",
            Damage::CountUp => "count_up",
            Damage::CountDown => "count_down",
            Damage::LengthUp => "length_up",
            Damage::Truncated => "truncated",
        }
    }

    /// The field damaged, or `None` when the damage does not apply (a batch
    /// without records has no record byte to flip).
    pub fn apply(self, field: &[u8]) -> Option<Vec<u8>> {
        let mut out = field.to_vec();
        let first_size = first_batch_size(field)?;
        match self {
            Damage::Crc | Damage::Records => {
                if first_size <= HEADER_SIZE {
                    return None;
                }
                let at = HEADER_SIZE + (first_size - HEADER_SIZE) / 2;
                *out.get_mut(at)? ^= 0x55;
                if matches!(self, Damage::Records) {
                    restamp(&mut out, first_size)?;
                }
            }
            Damage::CountUp | Damage::CountDown => {
                let count = read_i32(&out, RECORDS_COUNT)?;
                let count = match self {
                    Damage::CountUp => count.checked_add(1)?,
                    _ => count.checked_sub(1).filter(|&c| c >= 0)?,
                };
                out.get_mut(RECORDS_COUNT)?
                    .copy_from_slice(&count.to_be_bytes());
                restamp(&mut out, first_size)?;
            }
            Damage::LengthUp => {
                let length = read_i32(&out, BATCH_LENGTH)?.checked_add(1)?;
                out.get_mut(BATCH_LENGTH)?
                    .copy_from_slice(&length.to_be_bytes());
            }
            Damage::Truncated => {
                out.truncate(out.len().checked_sub(10)?);
            }
        }
        Some(out)
    }
}

fn read_i32(bytes: &[u8], at: std::ops::Range<usize>) -> Option<i32> {
    Some(i32::from_be_bytes(bytes.get(at)?.try_into().ok()?))
}

/// The first batch's size: its length field and the 12 bytes before it.
fn first_batch_size(field: &[u8]) -> Option<usize> {
    let length = usize::try_from(read_i32(field, BATCH_LENGTH)?).ok()?;
    Some(length + 12).filter(|&size| size <= field.len())
}

/// Writes the CRC-32C of the first batch as it now is.
fn restamp(field: &mut [u8], size: usize) -> Option<()> {
    let batch = bytes::Bytes::copy_from_slice(field.get(..size)?);
    let (batch, _) = RecordBatch::parse(batch).ok()?;
    field
        .get_mut(CRC)?
        .copy_from_slice(&batch.compute_crc().to_be_bytes());
    Some(())
}

/// A listing with any refusal written as `refused`: the two readers' messages
/// differ, their decision must not.
pub fn outcome(listing: &str) -> String {
    if listing.starts_with("error ") {
        "refused".to_string()
    } else {
        listing.to_string()
    }
}

/// Why we refuse a damaged field Kafka reads, when it is one of the places where
/// reading is documented as stricter than Kafka (`kwire`'s crate documentation,
/// `kwire_messages::control_records`); `None` for anything else: a difference.
pub fn explain(kafka: &str, ours: &ReadError) -> Option<&'static str> {
    match ours {
        // Kafka's `DefaultRecordBatch.iterator()` returns no records for a declared
        // count of 0 without reading the bytes after the header; its listing shows
        // such a batch with bytes beyond the header.
        ReadError::Records(RecordsError::TrailingBytes { .. })
            if kafka.lines().any(|line| {
                line.starts_with("batch ")
                    && line.contains(" count=0 ")
                    && !line.contains(&format!(" size={HEADER_SIZE} "))
            }) =>
        {
            Some(
                "a batch declaring 0 records with records after its header: Kafka iterates \
                 none without reading them, we refuse the bytes (TrailingBytes)",
            )
        }
        // Kafka's `ControlRecordType.parse` reads an unknown type as UNKNOWN and a
        // key version above 0 as version 0 (a negative one it refuses, as we do).
        ReadError::Control(ControlRecordError::UnknownType(_)) => Some(
            "a control record of a type Kafka does not define: Kafka reads UNKNOWN, we \
             refuse it (ControlRecordError::UnknownType)",
        ),
        ReadError::Control(ControlRecordError::KeyVersion(version)) if *version > 0 => Some(
            "a control record key version above 0: Kafka reads it as version 0, we refuse \
             it (ControlRecordError::KeyVersion)",
        ),
        _ => None,
    }
}
