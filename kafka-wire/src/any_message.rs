//! A message of any type behind a reference: what the message enums and framing
//! hand around, so that encoding any message is one copy of code, not one per type.

use bytes::{Bytes, BytesMut};

use crate::encoder::{self, DynWire, Encoder};
use crate::schema::MessageSchema;
use crate::wire::ChunkedBytes;
use crate::{EncodeError, Message};

/// A message of any type, by reference, with its schema: what [`Message`] offers
/// for encoding, without the type (strict encoding excepted, whose pass is
/// compiled only where it is used, per type). The message enums give
/// one for whichever message they hold
/// ([`MessageEnum::as_message`](crate::MessageEnum::as_message)); framing takes
/// them. The message's own codec is reached through one indirect call, so code
/// written over `AnyMessage` is compiled once for every message type, however
/// many a program encodes.
///
/// ```
/// use kwire::{AnyMessage, Message};
///
/// /// A counter.
/// #[derive(Debug, Clone, PartialEq, kwire::Message)]
/// #[kafka(kind = data, versions = "0")]
/// struct Counter {
///     /// Its value.
///     #[kafka(versions = "0+")]
///     value: i64,
/// }
///
/// let counter = Counter::default().with_value(3);
/// let any = AnyMessage::new(&counter);
/// assert_eq!(any.schema().name, "Counter");
/// assert_eq!(any.encode(0).unwrap(), counter.encode(0).unwrap());
/// assert_eq!(any.encoder(0).unwrap().len(), 8);
/// ```
#[derive(Clone, Copy)]
pub struct AnyMessage<'a> {
    message: &'a dyn DynWire,
    schema: &'static MessageSchema,
}

impl std::fmt::Debug for AnyMessage<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("AnyMessage")
            .field(&self.schema.name)
            .finish()
    }
}

impl<'a> AnyMessage<'a> {
    /// `message`, its type forgotten.
    #[inline]
    pub fn new<M: Message>(message: &'a M) -> Self {
        AnyMessage {
            message,
            schema: &M::SCHEMA,
        }
    }

    /// The message's schema.
    #[inline]
    pub fn schema(self) -> &'static MessageSchema {
        self.schema
    }

    /// [`Message::encoder`]: checked and sized at `version`, ready to write.
    pub fn encoder(self, version: i16) -> Result<Encoder<'a>, EncodeError> {
        Encoder::new(self.message, self.schema, version)
    }

    /// [`Message::encoded_size`].
    pub fn encoded_size(self, version: i16) -> Result<usize, EncodeError> {
        encoder::sized(self.message, self.schema, version).map(|(_, size, _)| size)
    }

    /// [`Message::encode`].
    pub fn encode(self, version: i16) -> Result<Bytes, EncodeError> {
        let (cx, size, mut sizes) = encoder::sized(self.message, self.schema, version)?;
        encoder::to_bytes(self.message, self.schema, size, cx, &mut sizes)
    }

    /// [`Message::encode_into`].
    pub fn encode_into(self, buf: &mut BytesMut, version: i16) -> Result<usize, EncodeError> {
        let encoder = self.encoder(version)?;
        let size = encoder.len();
        encoder.write_into(buf)?;
        Ok(size)
    }

    /// [`Message::encode_vectored`].
    pub fn encode_vectored(self, version: i16) -> Result<ChunkedBytes, EncodeError> {
        let (cx, size, mut sizes) = encoder::sized(self.message, self.schema, version)?;
        encoder::to_chunks(self.message, self.schema, size, cx, &mut sizes)
    }
}
