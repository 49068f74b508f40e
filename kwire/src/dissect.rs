//! `kwire dissect`: every byte of a frame or body with the field it belongs to.

use std::io::Write;

use bytes::Bytes;
use kwire::{DecodeError, Message, Reader};
use kwire_messages::frame::PREFIX_LEN;
use kwire_messages::{RequestHeader, ResponseHeader};

use crate::cli::ReadArgs;
use crate::error::CliError;
use crate::layout::{Layout, Prefix};
use crate::lines::{self, Line};
use crate::read::{self, ReadError};
use crate::render;
use crate::target::{Side, Target};
use crate::{input, names};

/// Bytes shown after the point where decoding failed.
const SHOWN_AFTER_ERROR: usize = 16;

/// Runs the command: prints what the input was read as and the annotated table;
/// when the bytes do not decode, the table ends at the failing byte and the
/// error is returned.
pub fn run(args: &ReadArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let input = input::bytes(&args.input)?;
    let layout = Layout::of(&input, Target::from_args(&args.message)?)?;
    let mut lines = Vec::new();
    let walked = walk(&input, &layout, &mut lines);
    // The library decides; the walk explains.
    let verdict = read::read(&input, &layout).map(drop);
    let failure = match (walked, verdict) {
        (Ok(_), Ok(())) => None,
        (Ok(end), Err(error)) if end < input.len() => {
            lines.push(Line {
                bytes: end..input.len(),
                text: format!(
                    "trailing: {} after the message",
                    names::count((input.len() - end) as u64, "byte")
                ),
            });
            Some(error.into_cli(&layout))
        }
        (walked, Err(error)) => {
            let offset = match &error {
                ReadError::Decode(e) => Some(e.offset()),
                ReadError::Other(_) => walked.as_ref().err().map(DecodeError::offset),
            };
            let error = error.into_cli(&layout);
            if let Some(offset) = offset {
                lines.push(pointer(&input, offset, &error));
            }
            Some(error)
        }
        // The library read what the walk could not: say so rather than guess.
        (Err(stop), Ok(())) => {
            let error = CliError::new(format!("kwire's dissection stopped: {stop}"));
            lines.push(pointer(&input, stop.offset(), &error));
            Some(error)
        }
    };
    let written = writeln!(out, "{}", layout.describe(input.len()))
        .and_then(|()| render::table(out, &input, &lines));
    written.map_err(|e| CliError::new(format!("cannot write the output: {e}")))?;
    failure.map_or(Ok(()), Err)
}

/// The line that points at the byte where decoding failed, showing the first
/// bytes from there.
fn pointer(input: &[u8], offset: usize, error: &CliError) -> Line {
    let end = input.len().min(offset.saturating_add(SHOWN_AFTER_ERROR));
    let unread = input.len().saturating_sub(offset);
    let text = if unread == 0 {
        format!("^ the input ends here: {error}")
    } else {
        let unread = names::count(unread as u64, "byte");
        format!("^ decoding stops here, {unread} unread: {error}")
    };
    Line {
        bytes: offset.min(end)..end,
        text,
    }
}

/// Walks the prefix, header and body; returns where the walk ended.
fn walk(input: &Bytes, layout: &Layout, lines: &mut Vec<Line>) -> Result<usize, DecodeError> {
    let mut reader = Reader::new(input);
    let body_prefix = match layout.frame {
        None => "",
        Some(frame) => {
            if frame.prefix == Prefix::Present {
                let length = i32::from_be_bytes(reader.read_array()?);
                lines.push(Line {
                    bytes: 0..PREFIX_LEN,
                    text: format!("length = {length}"),
                });
            }
            let header = match layout.side {
                Side::Request => &RequestHeader::SCHEMA,
                Side::Response => &ResponseHeader::SCHEMA,
            };
            lines::message(&mut reader, header, frame.header_version, "header", lines)?;
            "body"
        }
    };
    let schema = layout.side.schema(layout.api);
    lines::message(&mut reader, schema, layout.version, body_prefix, lines)?;
    Ok(reader.position())
}
