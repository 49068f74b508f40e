//! Prints annotated lines as a table: offset, the bytes in hex (16 to a row, so
//! long values wrap onto rows of their own) and what they are.

use std::io::{self, Write};

use crate::hex;
use crate::lines::Line;

/// Bytes shown on one row.
const ROW: usize = 16;
/// The width of a full row of hex pairs with spaces between them.
const HEX_WIDTH: usize = ROW * 3 - 1;

/// Writes the column headings, then every line; offsets are decimal, as decode
/// errors give them (`at byte 20`).
pub fn table(out: &mut dyn Write, input: &[u8], lines: &[Line]) -> io::Result<()> {
    let width = input.len().to_string().len().max(6);
    writeln!(
        out,
        "{:>width$}  {:<HEX_WIDTH$}  field = value",
        "offset", "bytes"
    )?;
    for line in lines {
        let bytes = input.get(line.bytes.clone()).unwrap_or_default();
        if bytes.is_empty() {
            writeln!(
                out,
                "{:>width$}  {:<HEX_WIDTH$}  {}",
                line.bytes.start, "", line.text
            )?;
            continue;
        }
        for (row, chunk) in bytes.chunks(ROW).enumerate() {
            let offset = line.bytes.start + row * ROW;
            let text = if row == 0 { line.text.as_str() } else { "" };
            let hex = hex::spaced(chunk);
            // No trailing spaces on continuation rows.
            let row = format!("{offset:>width$}  {hex:<HEX_WIDTH$}  {text}");
            writeln!(out, "{}", row.trim_end())?;
        }
    }
    Ok(())
}
