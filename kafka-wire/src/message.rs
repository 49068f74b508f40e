//! The traits derived structs and messages implement.

use bytes::{BufMut, Bytes};

use crate::encoder::{self, Encoder};
use crate::schema::{MessageKind, MessageSchema, StructSchema};
use crate::wire::{Cx, Sizes, Wire};
use crate::{DecodeError, DecodeErrorKind, EncodeError, Reader, VersionRange};

/// A struct with a Kafka schema: a message body or a nested structure.
///
/// Derived with `#[derive(kafka_wire::Message)]` or `#[derive(kafka_wire::Struct)]`.
pub trait Struct: Wire + Default {
    /// The struct's name and fields.
    const STRUCT_SCHEMA: StructSchema;
}

/// A top-level Kafka message: a request, response, header or data structure.
///
/// Everything but [`SCHEMA`](Message::SCHEMA) is provided: encoding checks the whole
/// value against the version first (sizing it exactly) and then writes it once.
///
/// ```
/// use kafka_wire::{KafkaString, Message, UnknownTaggedFields};
///
/// /// Says hello.
/// #[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
/// #[kafka(kind = data, versions = "0-1", flexible = "1+")]
/// struct Hello {
///     /// Who to greet.
///     #[kafka(versions = "0+")]
///     name: KafkaString,
///     /// Tags we do not know.
///     #[kafka(unknown_tagged)]
///     unknown: UnknownTaggedFields,
/// }
///
/// let hello = Hello { name: "kafka".into(), ..Default::default() };
/// let bytes = hello.encode(1).unwrap();
/// assert_eq!(&bytes[..], b"\x06kafka\x00");
/// assert_eq!(Hello::decode(&bytes, 1).unwrap(), hello);
/// assert_eq!(Hello::SCHEMA.name, "Hello");
/// ```
pub trait Message: Struct {
    /// The message's schema, field for field.
    const SCHEMA: MessageSchema;

    /// The message's name, e.g. `ApiVersionsRequest`.
    fn name(&self) -> &'static str {
        Self::SCHEMA.name
    }

    /// The API key, for requests and responses.
    fn api_key(&self) -> Option<i16> {
        Self::SCHEMA.api_key
    }

    /// Request, response, header or data.
    fn kind(&self) -> MessageKind {
        Self::SCHEMA.kind
    }

    /// The versions that exist.
    fn valid_versions(&self) -> VersionRange {
        Self::SCHEMA.valid_versions
    }

    /// Checks the message can be written at `version` and sizes it, once: the
    /// [`Encoder`] then knows the exact length (for a length prefix, say) and writes
    /// the message without working anything out again.
    ///
    /// ```
    /// use kafka_wire::{KafkaString, Message, UnknownTaggedFields};
    ///
    /// /// Says hello.
    /// #[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
    /// #[kafka(kind = data, versions = "0-1", flexible = "1+")]
    /// struct Hello {
    ///     /// Who to greet.
    ///     #[kafka(versions = "0+")]
    ///     name: KafkaString,
    ///     /// Tags we do not know.
    ///     #[kafka(unknown_tagged)]
    ///     unknown: UnknownTaggedFields,
    /// }
    ///
    /// let hello = Hello::default().with_name("kafka".into());
    /// let encoder = hello.encoder(1).unwrap();
    /// let mut frame = Vec::new();
    /// frame.extend_from_slice(&(encoder.len() as i32).to_be_bytes());
    /// encoder.write_into(&mut frame).unwrap();
    /// assert_eq!(frame, b"\0\0\0\x07\x06kafka\0");
    /// ```
    fn encoder(&self, version: i16) -> Result<Encoder<'_, Self>, EncodeError> {
        Encoder::new(self, version)
    }

    /// The exact number of bytes [`encode`](Message::encode) would write at `version`,
    /// after checking the value can be written there at all.
    fn encoded_size(&self, version: i16) -> Result<usize, EncodeError> {
        let cx = encoder::cx_of::<Self>(version)?;
        encoder::size_of(self, cx, &mut Sizes::new())
    }

    /// Writes the message at `version` into `buf`; returns the bytes written.
    /// Nothing is written when the value cannot be encoded.
    fn encode_into<B: BufMut>(&self, buf: &mut B, version: i16) -> Result<usize, EncodeError> {
        let cx = encoder::cx_of::<Self>(version)?;
        let mut sizes = Sizes::new();
        let size = encoder::size_of(self, cx, &mut sizes)?;
        encoder::write_sized(self, buf, cx, &mut sizes)?;
        Ok(size)
    }

    /// Encodes the message at `version` into a buffer of exactly the right size.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use kafka_wire::{Message, Records};
    ///
    /// /// Carries records.
    /// #[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
    /// #[kafka(kind = data, versions = "0")]
    /// struct Batch {
    ///     /// The records.
    ///     #[kafka(versions = "0+", nullable = "0+")]
    ///     records: Option<Records>,
    /// }
    ///
    /// // Small and large messages take different paths to the same result.
    /// for len in [10, 100_000] {
    ///     let batch = Batch { records: Some(Records(Bytes::from(vec![7; len]))) };
    ///     let bytes = batch.encode(0).unwrap();
    ///     assert_eq!(bytes.len(), 4 + len);
    ///     assert_eq!(Batch::decode(&bytes, 0).unwrap(), batch);
    /// }
    /// ```
    fn encode(&self, version: i16) -> Result<Bytes, EncodeError> {
        // Sized and written here, not through an `Encoder`, which would move the
        // record of sizes out of this frame and back.
        let cx = encoder::cx_of::<Self>(version)?;
        let mut sizes = Sizes::new();
        let size = encoder::size_of(self, cx, &mut sizes)?;
        encoder::to_bytes(self, size, cx, &mut sizes)
    }

    /// Reads the message at `version` from the reader's position, leaving the reader
    /// after it (for framing: a header, then a body).
    fn read_from(reader: &mut Reader<'_>, version: i16) -> Result<Self, DecodeError> {
        let schema = &Self::SCHEMA;
        if !schema.valid_versions.contains(version) {
            return Err(reader.error(DecodeErrorKind::UnsupportedVersion {
                version,
                valid: schema.valid_versions,
            }));
        }
        let cx = Cx::new(version, schema.is_flexible(version));
        Self::read(reader, cx).map_err(|e| e.within(schema.name))
    }

    /// Decodes a whole message at `version`: every byte of `input` must belong to it.
    /// Strings, bytes and records in the result share `input`'s buffer.
    fn decode(input: &Bytes, version: i16) -> Result<Self, DecodeError> {
        let mut reader = Reader::new(input);
        let message = Self::read_from(&mut reader, version)?;
        reader
            .expect_end()
            .map_err(|e| e.within(Self::SCHEMA.name))?;
        Ok(message)
    }
}
