//! The records a `records` field declares, summed from its batch headers without
//! reading a record: what the per-message records limit is checked against while
//! the message is decoded.

/// Where a batch's `batchLength` is: after its int64 `baseOffset`.
const LENGTH_AT: usize = 8;
/// The bytes before `batchLength`'s count starts: `baseOffset` and `batchLength`.
const LOG_OVERHEAD: usize = 12;
/// Where `magic` is.
const MAGIC_AT: usize = 16;
/// Where `recordsCount` is, the header's last field.
const COUNT_AT: usize = 57;

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
    while let Some(header) = rest.get(..COUNT_AT + 4) {
        let length = i32::from_be_bytes(read4(header, LENGTH_AT));
        let Ok(length) = usize::try_from(length) else {
            break;
        };
        if header[MAGIC_AT] != 2 {
            break;
        }
        let count = i32::from_be_bytes(read4(header, COUNT_AT));
        total = total.saturating_add(usize::try_from(count).unwrap_or(0));
        let Some(next) = rest.get(LOG_OVERHEAD.saturating_add(length)..) else {
            break;
        };
        rest = next;
    }
    total
}

fn read4(buf: &[u8], at: usize) -> [u8; 4] {
    let mut out = [0; 4];
    if let Some(bytes) = buf.get(at..at + 4) {
        out.copy_from_slice(bytes);
    }
    out
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
        records[COUNT_AT..COUNT_AT + 4].copy_from_slice(&i32::MAX.to_be_bytes());
        assert_eq!(declared_records(&records), i32::MAX as usize);
        records[COUNT_AT..COUNT_AT + 4].copy_from_slice(&(-5i32).to_be_bytes());
        assert_eq!(declared_records(&records), 0);
    }
}
