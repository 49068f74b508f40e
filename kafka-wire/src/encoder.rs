//! A message checked and sized for one version, ready to be written once.

use bytes::{Bytes, BytesMut};

use crate::schema::MessageSchema;
use crate::wire::{ChunkedBytes, Cx, Sizes, Writer};
use crate::{EncodeError, EncodeErrorKind, Message, Wire};

/// A message checked and sized at one version: its exact length is known, and
/// writing it works nothing out again (see [`Sizes`]). Made by
/// [`Message::encoder`]; framing uses it to write a length prefix, a header and a
/// body with each sized once.
///
/// ```
/// use kwire::{Message, UnknownTaggedFields};
///
/// /// A counter.
/// #[derive(Debug, Clone, PartialEq, kwire::Message)]
/// #[kafka(kind = data, versions = "0-1", flexible = "1+")]
/// struct Counter {
///     /// Its value.
///     #[kafka(versions = "0+")]
///     value: i64,
///     /// Tags we do not know.
///     #[kafka(unknown_tagged)]
///     unknown: UnknownTaggedFields,
/// }
///
/// let counter = Counter::default().with_value(3);
/// let encoder = counter.encoder(1).unwrap();
/// assert_eq!(encoder.len(), 9);
/// assert_eq!(encoder.to_bytes().unwrap(), counter.encode(1).unwrap());
/// ```
#[must_use = "an encoder writes nothing until `write_into` or `to_bytes`"]
pub struct Encoder<'a> {
    message: &'a dyn DynWire,
    schema: &'static MessageSchema,
    cx: Cx,
    size: usize,
    sizes: Sizes,
}

impl std::fmt::Debug for Encoder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoder")
            .field("message", &self.schema.name)
            .field("version", &self.cx.version)
            .field("size", &self.size)
            .field("zero_copy", &self.sizes.zero_copy())
            .finish()
    }
}

impl<'a> Encoder<'a> {
    /// Checks `message`, of the type `schema` describes, can be written at
    /// `version` and sizes it.
    pub(crate) fn new(
        message: &'a dyn DynWire,
        schema: &'static MessageSchema,
        version: i16,
    ) -> Result<Self, EncodeError> {
        let (cx, size, sizes) = sized(message, schema, version)?;
        Ok(Encoder {
            message,
            schema,
            cx,
            size,
            sizes,
        })
    }

    /// The exact number of bytes the message takes.
    pub fn len(&self) -> usize {
        self.size
    }

    /// True for a message of no bytes (a data schema whose version has no fields).
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// How many of the message's bytes are zero-copy values (records, `zero_copy`
    /// bytes), which a vectored encode attaches rather than copies: Kafka's
    /// `sizeExcludingZeroCopy` is [`len`](Self::len) less this.
    pub fn zero_copy_len(&self) -> usize {
        self.sizes.zero_copy()
    }

    /// How many zero-copy values the message holds: the most chunks a vectored
    /// encode attaches.
    pub fn zero_copy_values(&self) -> usize {
        self.sizes.zero_copy_values()
    }

    /// The version the message is written at.
    pub fn version(&self) -> i16 {
        self.cx.version
    }

    /// The schema of the message being written.
    pub fn schema(&self) -> &'static MessageSchema {
        self.schema
    }

    /// Appends the message to `buf`, every byte copied in; grows it once if it has
    /// no room for [`len`](Self::len) more bytes.
    pub fn write_into(self, buf: &mut BytesMut) -> Result<(), EncodeError> {
        write_appending(
            self.message,
            self.schema,
            buf,
            self.cx,
            self.size,
            self.sizes,
        )
    }

    /// Writes the message into `writer`, contiguous or vectored (for framing: a
    /// length prefix and a header, then the body, into one writer).
    pub fn write_to(mut self, writer: &mut Writer) -> Result<(), EncodeError> {
        write_sized(self.message, self.schema, writer, self.cx, &mut self.sizes)
    }

    /// Writes the message into a new buffer of exactly its length.
    pub fn to_bytes(mut self) -> Result<Bytes, EncodeError> {
        to_bytes(
            self.message,
            self.schema,
            self.size,
            self.cx,
            &mut self.sizes,
        )
    }

    /// Writes the message as chunks: one buffer of its ordinary fields, and each
    /// zero-copy value as a chunk of its own, not copied.
    pub fn to_chunks(mut self) -> Result<ChunkedBytes, EncodeError> {
        to_chunks(
            self.message,
            self.schema,
            self.size,
            self.cx,
            &mut self.sizes,
        )
    }
}

/// A value's codec behind a `dyn`, for the encoder's core below: one copy of it
/// for every message, where generic code would be compiled again for each message
/// in every program that encodes them all. The messages' own size and write are
/// compiled once, where they are defined; this adds one indirect call per encode.
pub(crate) trait DynWire {
    /// [`Wire::size`].
    fn size_dyn(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError>;
    /// [`Wire::write`].
    fn write_dyn(&self, w: &mut Writer, cx: Cx, sizes: &mut Sizes) -> Result<(), EncodeError>;
}

impl<T: Wire> DynWire for T {
    #[inline]
    fn size_dyn(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError> {
        self.size(cx, sizes)
    }

    #[inline]
    fn write_dyn(&self, w: &mut Writer, cx: Cx, sizes: &mut Sizes) -> Result<(), EncodeError> {
        self.write(w, cx, sizes)
    }
}

/// The context of a message at `version`, if the message has that version.
pub(crate) fn cx_for(schema: &'static MessageSchema, version: i16) -> Result<Cx, EncodeError> {
    if !schema.valid_versions.contains(version) {
        return Err(EncodeError::new(EncodeErrorKind::UnsupportedVersion {
            version,
            valid: schema.valid_versions,
        })
        .within(schema.name));
    }
    Ok(Cx::new(version, schema.is_flexible(version)))
}

/// Checks `message` has `version` and sizes it there: its context, size and
/// what writing needs again.
pub(crate) fn sized(
    message: &dyn DynWire,
    schema: &'static MessageSchema,
    version: i16,
) -> Result<(Cx, usize, Sizes), EncodeError> {
    let cx = cx_for(schema, version)?;
    let mut sizes = Sizes::new();
    let size = size_of(message, schema, cx, &mut sizes)?;
    Ok((cx, size, sizes))
}

/// Strict encoding's pass over `message` at `version`: fails where a normal
/// encode would silently drop a value that was set. Generic, unlike the rest:
/// the pass is compiled only in programs that encode strictly, for the messages
/// they do.
pub(crate) fn check_lossless<M: Message>(message: &M, version: i16) -> Result<(), EncodeError> {
    let cx = cx_for(&M::SCHEMA, version)?;
    message
        .check_lossless(cx)
        .map_err(|e| e.within(M::SCHEMA.name))
}

/// Sizes `message`, recording into `sizes`.
pub(crate) fn size_of(
    message: &dyn DynWire,
    schema: &'static MessageSchema,
    cx: Cx,
    sizes: &mut Sizes,
) -> Result<usize, EncodeError> {
    message
        .size_dyn(cx, sizes)
        .map_err(|e| e.within(schema.name))
}

/// Writes `message`, sized into `sizes` at `cx`, into `writer`.
pub(crate) fn write_sized(
    message: &dyn DynWire,
    schema: &'static MessageSchema,
    writer: &mut Writer,
    cx: Cx,
    sizes: &mut Sizes,
) -> Result<(), EncodeError> {
    message
        .write_dyn(writer, cx, sizes)
        .map_err(|e| e.within(schema.name))?;
    debug_assert!(sizes.is_used_up(), "size and write disagree");
    Ok(())
}

/// Appends `message`, `size` bytes when sized into `sizes` at `cx`, to `buf`.
pub(crate) fn write_appending(
    message: &dyn DynWire,
    schema: &'static MessageSchema,
    buf: &mut BytesMut,
    cx: Cx,
    size: usize,
    mut sizes: Sizes,
) -> Result<(), EncodeError> {
    buf.reserve(size);
    let mut writer = Writer::appending(std::mem::take(buf));
    let written = write_sized(message, schema, &mut writer, cx, &mut sizes);
    *buf = writer.into_buf();
    written
}

/// Writes `message`, `size` bytes when sized into `sizes` at `cx`, into a new
/// buffer of exactly that length.
pub(crate) fn to_bytes(
    message: &dyn DynWire,
    schema: &'static MessageSchema,
    size: usize,
    cx: Cx,
    sizes: &mut Sizes,
) -> Result<Bytes, EncodeError> {
    let mut writer = Writer::contiguous(size);
    write_sized(message, schema, &mut writer, cx, sizes)?;
    let buf = writer.into_buf();
    debug_assert_eq!(buf.len(), size, "size and write disagree");
    Ok(buf.freeze())
}

/// Writes `message`, sized into `sizes` at `cx`, as chunks: a buffer of exactly
/// the bytes that are not zero-copy, and the zero-copy values between them.
pub(crate) fn to_chunks(
    message: &dyn DynWire,
    schema: &'static MessageSchema,
    size: usize,
    cx: Cx,
    sizes: &mut Sizes,
) -> Result<ChunkedBytes, EncodeError> {
    let mut writer = Writer::vectored(size - sizes.zero_copy(), sizes.zero_copy_values());
    write_sized(message, schema, &mut writer, cx, sizes)?;
    debug_assert_eq!(writer.len(), size, "size and write disagree");
    Ok(writer.into_chunks())
}
