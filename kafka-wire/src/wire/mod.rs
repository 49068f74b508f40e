//! The codec of every type in Kafka's schema language.
//!
//! One trait, [`Wire`], is implemented by each Rust type that can stand for a Kafka
//! type; its associated [`TYPE`](Wire::TYPE) is how the derive learns a field's Kafka
//! type from its Rust type (so type aliases work). Derived structs implement it too.

pub(crate) mod array;
pub(crate) mod budget;
pub(crate) mod bytes;
mod chunks;
pub(crate) mod length;
pub(crate) mod nullable;
pub(crate) mod primitive;
pub(crate) mod reader;
mod sizes;
pub(crate) mod string;
pub(crate) mod tagged;
mod uuid;
pub mod varint;
mod writer;

pub use self::bytes::Records;
pub use chunks::ChunkedBytes;
pub use nullable::Nullable;
pub use sizes::Sizes;
pub use string::KafkaString;
pub use tagged::{RawTaggedField, UnknownTaggedFields};
pub use uuid::{Uuid, UuidParseError};
pub use writer::Writer;

use crate::schema::TypeSchema;
use crate::{DecodeError, EncodeError, Reader};

/// The encoding context of one value: the version being written or read, whether
/// the value uses the compact (flexible) form there, and whether it may be null.
///
/// ```
/// use kwire::Cx;
///
/// let cx = Cx::new(3, true);
/// assert_eq!((cx.version, cx.flexible, cx.nullable), (3, true, false));
/// assert!(cx.with_nullable(true).nullable);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cx {
    /// The message version.
    pub version: i16,
    /// True when lengths are compact varints and structs end in a tagged-field section.
    pub flexible: bool,
    /// True when the value is in a nullable version of its field: only then do
    /// nullable structs carry their one-byte presence marker.
    pub nullable: bool,
}

impl Cx {
    /// A context for `version`, flexible or not, not nullable.
    #[inline]
    pub const fn new(version: i16, flexible: bool) -> Self {
        Cx {
            version,
            flexible,
            nullable: false,
        }
    }

    /// The same context, nullable or not.
    #[inline]
    pub const fn with_nullable(self, nullable: bool) -> Self {
        Cx { nullable, ..self }
    }
}

/// The bytes `value` encodes to at `cx`, sized first as an encode does.
#[cfg(test)]
pub(crate) fn written<T: Wire>(value: &T, cx: Cx) -> Vec<u8> {
    let mut sizes = Sizes::new();
    let size = value.size(cx, &mut sizes).expect("sized");
    let mut writer = Writer::contiguous(size);
    value.write(&mut writer, cx, &mut sizes).expect("written");
    let out = writer.into_buf().to_vec();
    assert_eq!(out.len(), size, "size and write disagree");
    out
}

/// A Rust type that stands for a Kafka type: its schema type and its codec.
///
/// Encoding is two passes, Kafka's way: [`size`](Wire::size) checks the value can be
/// written at `cx` and returns its exact size, recording in [`Sizes`] what writing
/// will need again, then [`write`](Wire::write) writes it, reading those records
/// back. Call `write` only after `size` succeeded for the same value, context and
/// `Sizes`; the message-level methods of [`Message`](crate::Message) do this for
/// you. An implementation must write exactly the bytes its `size` promised:
/// [`Message::encode`](crate::Message::encode) writes into a buffer of that size,
/// and a `write` that overruns it is a bug that panics (every implementation in this
/// crate and every derived one is tested for it).
///
/// ```
/// use kwire::wire::{Sizes, Writer};
/// use kwire::{Cx, KafkaString, Reader, Wire};
///
/// let cx = Cx::new(3, true); // flexible: compact string
/// let value = KafkaString::from_static("u03");
/// let mut sizes = Sizes::new();
/// assert_eq!(value.size(cx, &mut sizes).unwrap(), 4);
/// let mut out = Writer::contiguous(4);
/// value.write(&mut out, cx, &mut sizes).unwrap();
/// let input = out.into_buf().freeze();
/// assert_eq!(input[..], [0x04, b'u', b'0', b'3']);
/// assert_eq!(KafkaString::read(&mut Reader::new(&input), cx).unwrap(), "u03");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Kafka type",
    label = "no Kafka type is written as `{Self}`",
    note = "Kafka's types are written bool, i8, i16, u16, i32, u32, i64, f64, Uuid, KafkaString or String, Bytes, Records, Vec<T> or SmallVec<[T; N]>, and Option<T> where the field is nullable",
    note = "a nested struct derives `kwire::Struct`"
)]
pub trait Wire: Sized {
    /// The Kafka type this Rust type stands for.
    const TYPE: TypeSchema;
    /// True only for `Option<T>`: the field may be null.
    const IS_OPTION: bool = false;

    /// True when the value is null (only `Option::None` is).
    #[inline]
    fn is_null(&self) -> bool {
        false
    }

    /// Checks the value can be written at `cx` and returns its exact encoded size.
    fn size(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError>;

    /// Writes the value. Requires a prior successful [`size`](Wire::size) of the same
    /// value at the same `cx`, into the same `sizes`.
    ///
    /// One concrete [`Writer`] rather than any `BufMut`: each struct's writer is
    /// compiled once, where the struct is defined, and a vectored writer can attach
    /// records instead of copying them.
    fn write(&self, w: &mut Writer, cx: Cx, sizes: &mut Sizes) -> Result<(), EncodeError>;

    /// Strict encoding's pass ([`Message::encode_strict`](crate::Message::encode_strict)):
    /// fails when writing the value at `cx` would silently drop something set
    /// inside it, an ignorable field of a nested struct that the version lacks.
    /// Types that hold no struct have nothing to drop, which is the provided
    /// answer; arrays, `Option` and derived structs look inside. Nothing else is
    /// checked here: [`size`](Wire::size) still checks the rest.
    ///
    /// ```
    /// use kwire::{Cx, KafkaString, Wire};
    ///
    /// // A string holds no fields, so nothing in it can be dropped.
    /// let name = KafkaString::from_static("topic");
    /// assert!(name.check_lossless(Cx::new(0, false)).is_ok());
    /// ```
    #[inline]
    fn check_lossless(&self, cx: Cx) -> Result<(), EncodeError> {
        let _ = cx;
        Ok(())
    }

    /// The heap bytes this value holds of its own: what keeping it costs beyond
    /// its `size_of`, so that a server can admit a decoded request into a queue,
    /// or refuse it, by the memory it holds. Arrays count their capacity times
    /// their element's size, and what each element holds; an owned `String` its
    /// capacity; options and structs what their value and fields hold; a struct's
    /// unknown tagged fields their list.
    ///
    /// Strings, bytes and records decoded from a frame are slices of it
    /// ([`KafkaString`], `Bytes`, [`Records`]) and hold nothing of their own: they
    /// count zero here, and what they retain is the frame itself, which a server
    /// counts once, as it reads it.
    ///
    /// Scalars hold nothing, which is the provided answer; derived structs sum
    /// their fields.
    ///
    /// ```
    /// use kwire::Wire;
    ///
    /// let replicas: Vec<i32> = Vec::with_capacity(8);
    /// assert_eq!(replicas.retained_size(), 8 * 4);
    /// let names: Vec<String> = vec![String::with_capacity(10)];
    /// assert_eq!(names.retained_size(), std::mem::size_of::<String>() + 10);
    /// assert_eq!(7i64.retained_size(), 0);
    /// ```
    #[inline]
    fn retained_size(&self) -> usize {
        0
    }

    /// Reads a value.
    fn read(reader: &mut Reader<'_>, cx: Cx) -> Result<Self, DecodeError>;

    /// Reads a value into `self`, which holds the field's default: on success the
    /// same as `*self = Self::read(reader, cx)?`; on error `self` is unspecified.
    /// Arrays fill themselves where they are instead of travelling back through the
    /// return value, whose copy would stall on the stores that just wrote it.
    #[doc(hidden)]
    #[inline]
    fn read_in_place(&mut self, reader: &mut Reader<'_>, cx: Cx) -> Result<(), DecodeError> {
        *self = Self::read(reader, cx)?;
        Ok(())
    }

    /// The value of a field of this type that has no explicit `default`, as Kafka's
    /// generator defines it: zero, false or empty, and for a nullable field the empty
    /// value rather than null (records excepted, which start out null).
    fn schema_default() -> Self;

    /// True when the value equals [`schema_default`](Wire::schema_default).
    /// Arrays answer from their length, without building and dropping an empty one
    /// for each tagged array field sized.
    #[doc(hidden)]
    #[inline]
    fn is_schema_default(&self) -> bool
    where
        Self: PartialEq,
    {
        *self == Self::schema_default()
    }
}
