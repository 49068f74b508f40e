//! Where the parts of the input are: the length prefix (if the input has one), the
//! header and the body, and which API and version the body is.
//!
//! A frame is accepted with its 4-byte length prefix or without it (as a capture
//! tool may print it): the prefix is taken to be there when it states exactly the
//! bytes that follow it. A request whose header then names no API or version is
//! tried the other way, so a truncated frame is told as such rather than as a
//! nonsense header.

use kwire_messages::frame::{frame_contents, FrameLengthError, PREFIX_LEN};
use kwire_messages::ApiKey;

use crate::error::CliError;
use crate::names;
use crate::target::{self, Side, Target};

/// How the input is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Request or response.
    pub side: Side,
    /// The body's API.
    pub api: ApiKey,
    /// The body's version.
    pub version: i16,
    /// The frame around the body, if the input is a frame.
    pub frame: Option<Frame>,
}

/// The frame parts of an input that is a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// The length prefix, when the input starts with one.
    pub prefix: Prefix,
    /// The header's version.
    pub header_version: i16,
}

/// Whether the input starts with its length prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefix {
    /// The first 4 bytes state the length of what follows them.
    Present,
    /// They do not: the input is the frame's contents, header first. Holds what
    /// those bytes would have stated, if there are 4 of them.
    Absent(Option<i32>),
}

impl Layout {
    /// Works out the layout of `input` for what the options say it is.
    pub fn of(input: &[u8], target: Target) -> Result<Layout, CliError> {
        match target {
            Target::Body(side, api, version) => Ok(Layout {
                side,
                api,
                version,
                frame: None,
            }),
            Target::ResponseFrame(api, version) => Ok(Layout {
                side: Side::Response,
                api,
                version,
                frame: Some(Frame {
                    prefix: prefix_of(input),
                    header_version: Side::Response.header_version(api, version),
                }),
            }),
            Target::RequestFrame(named) => request_frame(input, named),
        }
    }

    /// Where the header starts (or the body, for a bare body).
    pub fn header_start(&self) -> usize {
        match self.frame {
            Some(Frame {
                prefix: Prefix::Present,
                ..
            }) => PREFIX_LEN,
            _ => 0,
        }
    }

    /// One line saying what the input was read as.
    pub fn describe(&self, input_len: usize) -> String {
        let schema = self.side.schema(self.api);
        let Some(frame) = self.frame else {
            return format!(
                "{} v{}: a bare {} body of {}",
                schema.name,
                self.version,
                self.side.name(),
                names::count(input_len as u64, "byte")
            );
        };
        let prefix = match frame.prefix {
            Prefix::Present => format!(
                "length prefix {} matches the bytes after it",
                input_len.saturating_sub(PREFIX_LEN)
            ),
            Prefix::Absent(Some(stated)) => format!(
                "no length prefix: read as the frame's contents, since the first 4 bytes, as a prefix, would say {stated}, not {}",
                input_len - PREFIX_LEN
            ),
            Prefix::Absent(None) => "no length prefix".to_owned(),
        };
        format!(
            "{} v{} in a {} frame of {} ({prefix}; {} header v{})",
            schema.name,
            self.version,
            self.side.name(),
            names::count(input_len as u64, "byte"),
            self.side.name(),
            frame.header_version
        )
    }
}

/// Whether `input` starts with a prefix stating the length of the rest.
fn prefix_of(input: &[u8]) -> Prefix {
    match frame_contents(input) {
        Ok(_) => Prefix::Present,
        Err(FrameLengthError::Mismatch { declared, .. }) => Prefix::Absent(Some(declared)),
        Err(_) => Prefix::Absent(None),
    }
}

/// The API key and version that start a request header at `start`.
fn key_and_version(input: &[u8], start: usize) -> Option<(i16, i16)> {
    let header = input.get(start..)?;
    let (key, rest) = header.split_first_chunk::<2>()?;
    let (version, _) = rest.split_first_chunk::<2>()?;
    Some((i16::from_be_bytes(*key), i16::from_be_bytes(*version)))
}

/// The API and version a request header names, checked against the table.
fn named_request(key: i16, version: i16) -> Result<(ApiKey, i16), CliError> {
    let api = ApiKey::from_i16(key).map_err(|e| CliError::new(format!("request header: {e}")))?;
    target::check_version(api.request_schema(), version)?;
    Ok((api, version))
}

/// True when the bytes after the first 4 start like a request header: a known API
/// key, then one of its versions (if the input goes that far). Then the first 4
/// bytes are a length prefix that does not match, not a header.
fn header_after_prefix(input: &[u8]) -> bool {
    let Some(key) = input.get(4..6).and_then(|b| b.try_into().ok()) else {
        return false;
    };
    let Ok(api) = ApiKey::from_i16(i16::from_be_bytes(key)) else {
        return false;
    };
    match input.get(6..8).and_then(|b| b.try_into().ok()) {
        Some(version) => api
            .request_schema()
            .valid_versions
            .contains(i16::from_be_bytes(version)),
        None => true,
    }
}

fn request_frame(input: &[u8], named: Option<(ApiKey, i16)>) -> Result<Layout, CliError> {
    let prefix = prefix_of(input);
    if let Prefix::Absent(Some(stated)) = prefix {
        // Read without a prefix, the header makes no sense; read after one, it
        // does: the frame is cut short (or too long), and that is the error to give.
        let unprefixed = key_and_version(input, 0).map(|(k, v)| named_request(k, v));
        if !matches!(unprefixed, Some(Ok(_))) && header_after_prefix(input) {
            let length = FrameLengthError::Mismatch {
                declared: stated,
                actual: input.len() - PREFIX_LEN,
            };
            return Err(CliError::new(length.to_string()));
        }
    }
    let start = if prefix == Prefix::Present {
        PREFIX_LEN
    } else {
        0
    };
    let (key, version) = key_and_version(input, start).ok_or_else(|| {
        CliError::new(format!(
            "a request frame starts with its 4-byte API key and version; the input has {}",
            names::count(input.len() as u64, "byte")
        ))
    })?;
    let read = named_request(key, version).map_err(|error| match prefix {
        // Say how the header came to be read from the first byte.
        Prefix::Absent(Some(stated)) => CliError::new(format!(
            "{error} (read as a frame without its length prefix: as a prefix, the first 4 bytes would say {stated}, not {})",
            input.len() - PREFIX_LEN
        )),
        _ => error,
    })?;
    if let Some((api, version)) = named {
        if (api, version) != read {
            return Err(CliError::new(format!(
                "the request header says {} v{}, the options {} v{}",
                read.0.name(),
                read.1,
                api.name(),
                version
            )));
        }
    }
    let (api, version) = read;
    Ok(Layout {
        side: Side::Request,
        api,
        version,
        frame: Some(Frame {
            prefix,
            header_version: Side::Request.header_version(api, version),
        }),
    })
}
