//! Walks a message's runtime schema over its bytes, reading them as the derived
//! decoder does, and records what each run of bytes is: a length, a value, an
//! array's count, a tagged field's header, an unknown tag.
//!
//! It makes the decoder's checks (null where the version allows none, lengths below
//! -1, strings over 32767 bytes, UTF-8, counts that cannot fit, tag order, known
//! tags outside their versions, declared tag sizes) so that it stops where decoding
//! stops; the command still decodes with the library afterwards and trusts that.

use std::ops::Range;

use kwire::schema::{FieldSchema, MessageSchema, StructSchema, TypeSchema};
use kwire::{Cx, DecodeError, DecodeErrorKind, Reader, Uuid, Wire};
use kwire_messages::ApiKey;
use kwire_messages::ErrorCode;

use crate::{names, records};

/// Kafka's limit on a string's length in bytes.
const MAX_STRING_LEN: usize = i16::MAX as usize;

/// One run of bytes and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Where the bytes are in the input.
    pub bytes: Range<usize>,
    /// What they are: `path = value`, or `path: what` for lengths and counts.
    pub text: String,
}

/// Why a walk stopped early.
#[derive(Debug)]
pub enum Stop {
    /// The bytes do not decode.
    Decode(DecodeError),
    /// A type this build of kwire does not know how to read (a newer runtime's).
    Unsupported {
        /// Where it was met.
        offset: usize,
        /// The type, as the schema names it.
        ty: String,
    },
}

impl Stop {
    /// The byte the walk stopped at.
    pub fn offset(&self) -> usize {
        match self {
            Stop::Decode(error) => error.offset(),
            Stop::Unsupported { offset, .. } => *offset,
        }
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Decode(error) => write!(f, "{error}"),
            Stop::Unsupported { offset, ty } => {
                write!(
                    f,
                    "kwire cannot read fields of type {ty} (at byte {offset})"
                )
            }
        }
    }
}

impl From<DecodeError> for Stop {
    fn from(error: DecodeError) -> Self {
        Stop::Decode(error)
    }
}

type Walked = Result<(), Stop>;

/// The width of a classic (non-flexible) length prefix.
#[derive(Debug, Clone, Copy)]
enum Width {
    /// Strings.
    Int16,
    /// Bytes, records and arrays.
    Int32,
}

/// A walk over one message at one version, adding to `lines`.
pub struct Walk<'l> {
    version: i16,
    lines: &'l mut Vec<Line>,
}

impl<'l> Walk<'l> {
    /// A walk at `version` that records into `lines`.
    pub fn new(version: i16, lines: &'l mut Vec<Line>) -> Self {
        Walk { version, lines }
    }

    /// Walks a whole message from the reader's position. Field paths start with
    /// `path` (`header`, `body`, or nothing for a bare body).
    pub fn message(
        &mut self,
        reader: &mut Reader<'_>,
        schema: &MessageSchema,
        path: &str,
    ) -> Walked {
        let flexible = schema.is_flexible(self.version);
        let label = if path.is_empty() { schema.name } else { path };
        self.structure(reader, &schema.body, flexible, path, label)
    }

    fn line(&mut self, bytes: Range<usize>, text: String) {
        self.lines.push(Line { bytes, text });
    }

    /// A struct's fields in order, then (in flexible versions) its tagged section.
    /// `label` names the struct in lines about the struct itself.
    fn structure(
        &mut self,
        reader: &mut Reader<'_>,
        schema: &StructSchema,
        flexible: bool,
        path: &str,
        label: &str,
    ) -> Walked {
        for field in schema.fields {
            if !field.versions.contains(self.version) || field.is_tagged_at(self.version) {
                continue;
            }
            let path = names::join(path, &field.json_name());
            self.value(reader, &field.ty, self.cx(field, flexible), &path, field)?;
        }
        if flexible {
            self.tagged_section(reader, schema, flexible, path, label)?;
        }
        Ok(())
    }

    /// The context a field is coded in: compact where the message is flexible
    /// unless the field overrides it, nullable where its versions say.
    fn cx(&self, field: &FieldSchema, flexible: bool) -> Cx {
        Cx::new(self.version, field.is_compact_at(self.version, flexible))
            .with_nullable(field.is_nullable_at(self.version))
    }

    fn value(
        &mut self,
        reader: &mut Reader<'_>,
        ty: &TypeSchema,
        cx: Cx,
        path: &str,
        field: &FieldSchema,
    ) -> Walked {
        let start = reader.position();
        let text = match ty {
            TypeSchema::Bool => bool::read(reader, cx)?.to_string(),
            TypeSchema::Int8 => i8::read(reader, cx)?.to_string(),
            TypeSchema::Int16 => with_note(i16::read(reader, cx)?, field),
            TypeSchema::Uint16 => u16::read(reader, cx)?.to_string(),
            TypeSchema::Int32 => i32::read(reader, cx)?.to_string(),
            TypeSchema::Uint32 => u32::read(reader, cx)?.to_string(),
            TypeSchema::Int64 => i64::read(reader, cx)?.to_string(),
            TypeSchema::Float64 => f64::read(reader, cx)?.to_string(),
            TypeSchema::Uuid => Uuid::read(reader, cx)?.to_string(),
            TypeSchema::String => return self.string(reader, cx, path),
            TypeSchema::Bytes => return self.bytes(reader, cx, path, false),
            TypeSchema::Records => return self.bytes(reader, cx, path, true),
            TypeSchema::Array(element) => return self.array(reader, element, cx, path, field),
            TypeSchema::Struct(schema) => return self.nested(reader, schema, cx, path),
            other => {
                return Err(Stop::Unsupported {
                    offset: start,
                    ty: other.to_string(),
                })
            }
        };
        self.line(start..reader.position(), format!("{path} = {text}"));
        Ok(())
    }

    /// Reads a length or count prefix; `None` is null, which is recorded here.
    fn length(
        &mut self,
        reader: &mut Reader<'_>,
        cx: Cx,
        width: Width,
        path: &str,
    ) -> Result<Option<usize>, Stop> {
        let start = reader.position();
        let raw: i64 = if cx.flexible {
            i64::from(reader.read_unsigned_varint()?) - 1
        } else {
            match width {
                Width::Int16 => i64::from(i16::from_be_bytes(reader.read_array()?)),
                Width::Int32 => i64::from(i32::from_be_bytes(reader.read_array()?)),
            }
        };
        match raw {
            -1 if cx.nullable => {
                self.line(start..reader.position(), format!("{path} = null"));
                Ok(None)
            }
            -1 => Err(reader
                .error(DecodeErrorKind::UnexpectedNull {
                    version: cx.version,
                })
                .into()),
            n if n < -1 => Err(DecodeError::new(DecodeErrorKind::InvalidLength(n), start).into()),
            // At most u32::MAX or i32::MAX: it fits a usize.
            n => Ok(Some(n as usize)),
        }
    }

    fn string(&mut self, reader: &mut Reader<'_>, cx: Cx, path: &str) -> Walked {
        let start = reader.position();
        let Some(len) = self.length(reader, cx, Width::Int16, path)? else {
            return Ok(());
        };
        if len > MAX_STRING_LEN {
            let kind = DecodeErrorKind::StringTooLong(len as u64);
            return Err(DecodeError::new(kind, start).into());
        }
        if len == 0 {
            self.line(start..reader.position(), format!("{path} = \"\""));
            return Ok(());
        }
        self.line(start..reader.position(), format!("{path}: length {len}"));
        let content = reader.position();
        let bytes = reader.read_slice(len)?;
        let text = std::str::from_utf8(bytes).map_err(|e| {
            DecodeError::new(DecodeErrorKind::InvalidUtf8, content + e.valid_up_to())
        })?;
        self.line(content..reader.position(), format!("{path} = {text:?}"));
        Ok(())
    }

    /// Bytes or records: the length, then the bytes (records batch by batch).
    fn bytes(&mut self, reader: &mut Reader<'_>, cx: Cx, path: &str, records: bool) -> Walked {
        let start = reader.position();
        let Some(len) = self.length(reader, cx, Width::Int32, path)? else {
            return Ok(());
        };
        if len == 0 {
            self.line(start..reader.position(), format!("{path} = 0 bytes"));
            return Ok(());
        }
        self.line(start..reader.position(), format!("{path}: length {len}"));
        let content = reader.position();
        let bytes = reader.read_bytes(len)?;
        if records {
            self.lines.extend(records::lines(path, bytes, content));
        } else {
            let len_text = names::count(len as u64, "byte");
            self.line(content..reader.position(), format!("{path} = {len_text}"));
        }
        Ok(())
    }

    fn array(
        &mut self,
        reader: &mut Reader<'_>,
        element: &TypeSchema,
        cx: Cx,
        path: &str,
        field: &FieldSchema,
    ) -> Walked {
        let start = reader.position();
        let Some(count) = self.length(reader, cx, Width::Int32, path)? else {
            return Ok(());
        };
        // The decoder's bound: a count its elements could not fit in the bytes left,
        // each at its smallest, is refused before any element is read (and a walk
        // over a lying count of empty elements would not end soon).
        let min_size = element.min_size(self.version, cx.flexible, false).max(1);
        let remaining = reader.remaining();
        if count.saturating_mul(min_size) > remaining {
            let kind = DecodeErrorKind::ArrayTooLong {
                count: count as u64,
                element_min_size: min_size,
                remaining,
            };
            return Err(DecodeError::new(kind, start).into());
        }
        let count_text = names::count(count as u64, "element");
        self.line(start..reader.position(), format!("{path}: {count_text}"));
        let cx = cx.with_nullable(false);
        for index in 0..count {
            self.value(reader, element, cx, &format!("{path}[{index}]"), field)?;
        }
        Ok(())
    }

    fn nested(
        &mut self,
        reader: &mut Reader<'_>,
        schema: &StructSchema,
        cx: Cx,
        path: &str,
    ) -> Walked {
        if cx.nullable {
            let start = reader.position();
            // Kafka takes any negative marker as null.
            let marker = reader.read_u8()? as i8;
            if marker < 0 {
                self.line(start..reader.position(), format!("{path} = null"));
                return Ok(());
            }
            self.line(start..reader.position(), format!("{path}: present"));
        }
        self.structure(reader, schema, cx.flexible, path, path)
    }

    fn tagged_section(
        &mut self,
        reader: &mut Reader<'_>,
        schema: &StructSchema,
        flexible: bool,
        path: &str,
        label: &str,
    ) -> Walked {
        let start = reader.position();
        let count = reader.read_unsigned_varint()?;
        let noun = if count == 1 {
            "tagged field"
        } else {
            "tagged fields"
        };
        self.line(start..reader.position(), format!("{label}: {count} {noun}"));
        let mut previous: Option<u32> = None;
        for _ in 0..count {
            let tag_at = reader.position();
            let tag = reader.read_unsigned_varint()?;
            if let Some(previous) = previous.filter(|&p| p >= tag) {
                let kind = DecodeErrorKind::TagsOutOfOrder { tag, previous };
                return Err(DecodeError::new(kind, tag_at).into());
            }
            previous = Some(tag);
            let size = reader.read_unsigned_varint()? as usize;
            let size_text = names::count(size as u64, "byte");
            match schema.fields.iter().find(|f| f.tag == Some(tag)) {
                Some(field) => {
                    let name = field.json_name();
                    let header = format!("{label}: tag {tag} ({name}), {size_text}");
                    self.line(tag_at..reader.position(), header);
                    self.known_tag(reader, field, flexible, &names::join(path, &name), size)?;
                }
                None => {
                    let header = format!("{label}: tag {tag} (unknown), {size_text}");
                    self.line(tag_at..reader.position(), header);
                    if !schema.keeps_unknown_tags {
                        return Err(reader.error(DecodeErrorKind::UnknownTagNotKept(tag)).into());
                    }
                    let data = reader.position();
                    reader.read_slice(size)?;
                    let text =
                        format!("{label}: unknown tag {tag} = {size_text}, kept as they are");
                    self.line(data..reader.position(), text);
                }
            }
        }
        Ok(())
    }

    /// The value of a tagged field this struct knows, which must fill exactly the
    /// `size` bytes its header declared.
    fn known_tag(
        &mut self,
        reader: &mut Reader<'_>,
        field: &FieldSchema,
        flexible: bool,
        path: &str,
        size: usize,
    ) -> Walked {
        let start = reader.position();
        let version = self.version;
        let cx = self.cx(field, flexible);
        let (walked, used) = reader.limited(size, |reader| {
            if !field.is_tagged_at(version) {
                let kind = DecodeErrorKind::TagNotInVersion {
                    tag: field.tag.unwrap_or_default(),
                    version,
                };
                return Ok(Err(reader.error(kind).into()));
            }
            Ok(self.value(reader, &field.ty, cx, path, field))
        })?;
        walked?;
        if used != size {
            let kind = DecodeErrorKind::TaggedFieldSize {
                tag: field.tag.unwrap_or_default(),
                declared: size,
                used,
            };
            return Err(DecodeError::new(kind, start).into());
        }
        Ok(())
    }
}

/// An int16 with what it stands for, where its field says: Kafka's error name for
/// an error code, the API's name for an API key.
fn with_note(value: i16, field: &FieldSchema) -> String {
    match field.name {
        "ErrorCode" => format!("{value} ({})", ErrorCode::from_code(value).name()),
        "RequestApiKey" | "ApiKey" => match ApiKey::from_i16(value) {
            Ok(api) => format!("{value} ({})", api.name()),
            Err(_) => value.to_string(),
        },
        _ => value.to_string(),
    }
}
