//! Any bytes as the `records` field of a Produce or Fetch: walking the batches,
//! checking their CRCs, decompressing (capped at 1 MiB) and reading every record and
//! header, and reading control records, may fail but must not panic, abort, hang or
//! allocate beyond the cap.
#![no_main]

use bytes::Bytes;
use kwire::records::Batches;
use kwire_messages::control_records::ControlRecord;
use libfuzzer_sys::fuzz_target;

const MAX_DECOMPRESSED: usize = 1024 * 1024;

fuzz_target!(|data: &[u8]| {
    let mut batches = Batches::new(Bytes::copy_from_slice(data));
    for batch in batches.by_ref() {
        let Ok(batch) = batch else { break };
        let _ = batch.verify_crc();
        let Ok(records) = batch.records_with_limit(MAX_DECOMPRESSED) else {
            continue;
        };
        for record in records {
            let Ok(record) = record else { break };
            let _ = (record.key_bytes(), record.value_bytes());
            for header in record.headers.clone() {
                if header.is_err() {
                    break;
                }
            }
            if batch.is_control() {
                let _ = ControlRecord::read(&record);
            }
        }
    }
    let _ = batches.partial_tail();
});
