//! A `records` field shown batch by batch: each record batch's bytes on their own
//! line with its header's facts, then any partial batch at the end (a fetch may
//! cut the last one short) or the bytes that do not read as batches. What is
//! inside a batch is not a decode error of the message, so it is shown, not raised.

use std::ops::Range;

use bytes::Bytes;
use kwire::records::{Batches, RecordBatch};

use crate::lines::Line;
use crate::names;

/// The lines of a `records` field whose bytes `content` start at `start` in the input.
pub fn lines(path: &str, content: Bytes, start: usize) -> Vec<Line> {
    let total = content.len();
    let mut lines = Vec::new();
    let mut at = start;
    let mut batches = Batches::new(content);
    let mut index = 0;
    for batch in batches.by_ref() {
        match batch {
            Ok(batch) => {
                let range = at..at + batch.size();
                at = range.end;
                lines.push(line(
                    range,
                    format!("{path} batch {index} = {}", facts(&batch)),
                ));
                index += 1;
            }
            Err(error) => {
                let rest = names::count((start + total - at) as u64, "byte");
                let text = format!("{path}: {rest} not read as batches: {error}");
                lines.push(line(at..start + total, text));
                return lines;
            }
        }
    }
    if batches.partial_tail() > 0 {
        let tail = names::count(batches.partial_tail() as u64, "byte");
        let text = format!("{path}: a partial batch of {tail} (cut short, as a fetch may)");
        lines.push(line(at..start + total, text));
    }
    lines
}

fn line(bytes: Range<usize>, text: String) -> Line {
    Line { bytes, text }
}

/// What a batch's header says, and whether its CRC holds.
fn facts(batch: &RecordBatch) -> String {
    let mut facts = vec![
        format!("base offset {}", batch.base_offset()),
        names::count(u64::try_from(batch.records_count()).unwrap_or(0), "record"),
    ];
    match batch.compression() {
        Ok(codec) => facts.push(codec.name().to_owned()),
        Err(error) => facts.push(error.to_string()),
    }
    if batch.producer_id() >= 0 {
        facts.push(format!(
            "producer {} epoch {} sequence {}",
            batch.producer_id(),
            batch.producer_epoch(),
            batch.base_sequence()
        ));
    }
    if batch.is_transactional() {
        facts.push("transactional".to_owned());
    }
    if batch.is_control() {
        facts.push("control".to_owned());
    }
    facts.push(match batch.verify_crc() {
        Ok(()) => "CRC ok".to_owned(),
        Err(error) => error.to_string(),
    });
    facts.join(", ")
}
