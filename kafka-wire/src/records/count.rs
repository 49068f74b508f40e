//! The records a `records` field declares, summed from its batch headers without
//! reading a record: what the per-message records limit is checked against while
//! the message is decoded.

use super::batch::{
    read_array, LENGTH_OFFSET, LOG_OVERHEAD, MAGIC, MAGIC_OFFSET, RECORDS_COUNT_OFFSET,
};

/// The sum of the `recordsCount` of the magic-2 batches in `records`, read from
/// their headers. Stops quietly where the batches stop making sense (a partial
/// batch at the end, an impossible length, an older magic): the records layer
/// reports those when the batches are read; this only has to count what could
/// be read. A negative count counts as none (the records layer refuses it).
///
/// One step per batch, not per record: a produce request carries a batch or a
/// few per partition.
pub(crate) fn declared_records(records: &[u8]) -> usize {
    let mut total: usize = 0;
    let mut rest = records;
    while let Some(header) = rest.get(..RECORDS_COUNT_OFFSET + 4) {
        let length = read_i32(header, LENGTH_OFFSET);
        let Ok(length) = usize::try_from(length) else {
            break;
        };
        if header[MAGIC_OFFSET] as i8 != MAGIC {
            break;
        }
        let count = read_i32(header, RECORDS_COUNT_OFFSET);
        total = total.saturating_add(usize::try_from(count).unwrap_or(0));
        let Some(next) = rest.get(LOG_OVERHEAD.saturating_add(length)..) else {
            break;
        };
        rest = next;
    }
    total
}

/// The int32 at `at` of a header known to hold it.
fn read_i32(header: &[u8], at: usize) -> i32 {
    read_array::<4>(header, at).map_or(0, i32::from_be_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::RecordBatchBuilder;

    fn batch(values: usize) -> Vec<u8> {
        let mut builder = RecordBatchBuilder::new(0);
        for _ in 0..values {
            builder.append(0, None, Some(b"v"), &[]).unwrap();
        }
        builder.build().unwrap().to_vec()
    }

    #[test]
    fn counts_every_whole_batch_and_stops_at_a_partial_one() {
        let mut records = batch(3);
        records.extend(batch(4));
        assert_eq!(declared_records(&records), 7);
        let mut cut = records.clone();
        cut.extend(&batch(5)[..30]);
        assert_eq!(declared_records(&cut), 7);
        assert_eq!(declared_records(&[]), 0);
    }

    #[test]
    fn a_claimed_count_is_counted_whatever_the_bytes_hold() {
        let mut records = batch(1);
        records[RECORDS_COUNT_OFFSET..RECORDS_COUNT_OFFSET + 4]
            .copy_from_slice(&i32::MAX.to_be_bytes());
        assert_eq!(declared_records(&records), i32::MAX as usize);
        records[RECORDS_COUNT_OFFSET..RECORDS_COUNT_OFFSET + 4]
            .copy_from_slice(&(-5i32).to_be_bytes());
        assert_eq!(declared_records(&records), 0);
    }
}
