//! Decodes the input with the library, as laid out: the authority on whether the
//! bytes are a message (the dissection only explains them). Every byte must belong
//! to the message, as `Message::decode` requires.

use bytes::Bytes;
use kwire::{
    DecodeError, DecodeErrorKind, DispatchError, Message, MessageEnum, PathSegment, Reader,
};
use kwire_messages::{Request, RequestHeader, Response, ResponseHeader};

use crate::error::CliError;
use crate::layout::Layout;
use crate::names;
use crate::target::Side;

/// A decoded header.
#[derive(Debug)]
pub enum Header {
    /// A request header.
    Request(RequestHeader),
    /// A response header.
    Response(ResponseHeader),
}

/// A decoded body.
#[derive(Debug)]
pub enum Body {
    /// A request body.
    Request(Request),
    /// A response body.
    Response(Response),
}

/// What the input decoded to.
#[derive(Debug)]
pub struct Decoded {
    /// The header, for a frame.
    pub header: Option<Header>,
    /// The body.
    pub body: Body,
}

/// Why the input did not decode.
#[derive(Debug)]
pub enum ReadError {
    /// The bytes are not the message: at a byte offset of the input.
    Decode(DecodeError),
    /// Anything else (the dispatch enums' own errors).
    Other(CliError),
}

impl From<DecodeError> for ReadError {
    fn from(error: DecodeError) -> Self {
        ReadError::Decode(error)
    }
}

impl From<DispatchError> for ReadError {
    fn from(error: DispatchError) -> Self {
        match error {
            DispatchError::Decode(error) => ReadError::Decode(error),
            other => ReadError::Other(CliError::from_error("cannot decode", &other)),
        }
    }
}

impl ReadError {
    /// The error for the command line, its field path written as kwire's tables
    /// and Kafka's JSON form write it (`body.topics[0].name`, not the library's
    /// `MetadataRequest.Topics[0].Name`), so that it names a row of `dissect`.
    pub fn into_cli(self, layout: &Layout) -> CliError {
        match self {
            ReadError::Decode(error) => CliError::new(describe(&error, layout)),
            ReadError::Other(error) => error,
        }
    }
}

/// `path: what at byte N`, with the path in the JSON form's names.
fn describe(error: &DecodeError, layout: &Layout) -> String {
    let what = format!("{} at byte {}", error.kind(), error.offset());
    if matches!(error.kind(), DecodeErrorKind::TrailingBytes(_)) {
        // About the input, not a field: the path would only name the message.
        return what;
    }
    let mut path = String::new();
    for (i, segment) in error.path().segments().enumerate() {
        match segment {
            // The outermost name is the header's or the body's message.
            PathSegment::Name(name) if i == 0 => {
                if layout.frame.is_some() {
                    let part = if name == layout.side.schema(layout.api).name {
                        "body"
                    } else {
                        "header"
                    };
                    path.push_str(part);
                }
            }
            PathSegment::Name(name) => {
                let name = kwire::schema::json_name(name);
                path = names::join(&path, &name);
            }
            PathSegment::Index(index) => path.push_str(&format!("[{index}]")),
            // A segment kind this kwire does not know: shown as the library shows it.
            _ => return error.to_string(),
        }
    }
    if path.is_empty() {
        what
    } else {
        format!("{path}: {what}")
    }
}

/// Decodes `input` laid out as `layout`. Offsets in errors count from the start of
/// the input, length prefix included.
pub fn read(input: &Bytes, layout: &Layout) -> Result<Decoded, ReadError> {
    let mut reader = Reader::new(input);
    // Skipped by reading: the layout has checked the prefix already.
    reader.read_slice(layout.header_start())?;
    let header = match layout.frame {
        None => None,
        Some(frame) => Some(match layout.side {
            Side::Request => {
                Header::Request(RequestHeader::read_from(&mut reader, frame.header_version)?)
            }
            Side::Response => Header::Response(ResponseHeader::read_from(
                &mut reader,
                frame.header_version,
            )?),
        }),
    };
    let key = layout.api.key();
    let body = match layout.side {
        Side::Request => Body::Request(Request::read_from(key, layout.version, &mut reader)?),
        Side::Response => Body::Response(Response::read_from(key, layout.version, &mut reader)?),
    };
    let name = layout.side.schema(layout.api).name;
    reader.expect_end().map_err(|e| e.within(name))?;
    Ok(Decoded { header, body })
}
