//! The lines of a dissection: the runtime's schema walk ([`kwire::walk`], which
//! reads as the decoder reads, through the decoder's own rules) turned into rows of
//! `path = value`, with paths in Kafka's JSON names and notes on error codes and
//! API keys. Nothing here reads bytes by itself except record batches, which
//! [`records`] shows batch by batch.

use std::ops::Range;

use kwire::schema::{FieldSchema, MessageSchema};
use kwire::walk::{self, Item, Span, Step, Value};
use kwire::{DecodeError, Reader};
use kwire_messages::{ApiKey, ErrorCode};

use crate::{names, records};

/// One run of bytes and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Where the bytes are in the input.
    pub bytes: Range<usize>,
    /// What they are: `path = value`, or `path: what` for lengths and counts.
    pub text: String,
}

/// Walks one message at `version` from the reader's position, adding its lines to
/// `lines`. Paths start with `prefix` (`header`, `body`, or nothing for a bare
/// body). Fails where decoding fails, with the decoder's error.
pub fn message(
    reader: &mut Reader<'_>,
    schema: &MessageSchema,
    version: i16,
    prefix: &'static str,
    lines: &mut Vec<Line>,
) -> Result<(), DecodeError> {
    let mut visitor = Lines {
        prefix,
        message: schema.name,
        lines,
    };
    walk::walk(schema, version, reader, &mut |span: Span<'_>| {
        visitor.add(span)
    })
}

struct Lines<'l> {
    prefix: &'static str,
    message: &'static str,
    lines: &'l mut Vec<Line>,
}

impl Lines<'_> {
    fn add(&mut self, span: Span<'_>) {
        let path = self.path(span.path);
        // Lines about a struct itself (its tagged section) name the struct.
        let label = match (path.is_empty(), self.prefix.is_empty()) {
            (false, _) => path.clone(),
            (true, false) => self.prefix.to_owned(),
            (true, true) => self.message.to_owned(),
        };
        let text = match span.item {
            Item::Value(Value::Records(bytes)) if !bytes.is_empty() => {
                let start = span.bytes.start;
                self.lines.extend(records::lines(&path, bytes, start));
                return;
            }
            Item::Value(Value::Int16(value)) => {
                format!("{path} = {}", with_note(value, span.field()))
            }
            Item::Value(value) => format!("{path} = {value}"),
            Item::Null => format!("{path} = null"),
            Item::Length(len) => format!("{path}: length {len}"),
            Item::Count(count) => format!("{path}: {}", names::count(count as u64, "element")),
            Item::Present => format!("{path}: present"),
            Item::TaggedFields(1) => format!("{label}: 1 tagged field"),
            Item::TaggedFields(count) => format!("{label}: {count} tagged fields"),
            Item::Tag { tag, size, field } => {
                let name =
                    field.map_or_else(|| "unknown".to_owned(), |f| f.json_name().to_string());
                let size = names::count(size as u64, "byte");
                format!("{label}: tag {tag} ({name}), {size}")
            }
            Item::UnknownTag { tag, data } => {
                let size = names::count(data.len() as u64, "byte");
                format!("{label}: unknown tag {tag} = {size}, kept as they are")
            }
            other => format!("{path}: {other:?}"),
        };
        self.lines.push(Line {
            bytes: span.bytes,
            text,
        });
    }

    /// `prefix.field[index].field`, in Kafka's JSON names.
    fn path(&self, steps: &[Step]) -> String {
        let mut path = self.prefix.to_owned();
        for step in steps {
            match step {
                Step::Field(field) => path = names::join(&path, &field.json_name()),
                Step::Index(index) => path.push_str(&format!("[{index}]")),
            }
        }
        path
    }
}

/// An int16 with what it stands for, where its field says: Kafka's error name for
/// an error code, the API's name for an API key.
fn with_note(value: i16, field: Option<&FieldSchema>) -> String {
    match field.map(|f| f.name) {
        Some("ErrorCode") => format!("{value} ({})", ErrorCode::from_code(value).name()),
        Some("RequestApiKey" | "ApiKey") => match ApiKey::from_i16(value) {
            Ok(api) => format!("{value} ({})", api.name()),
            Err(_) => value.to_string(),
        },
        _ => value.to_string(),
    }
}
