//! `Option<T>`: the nullable form of strings, bytes, records, arrays and structs.

use super::{Cx, Sizes, Wire, Writer};
use crate::schema::TypeSchema;
use crate::{DecodeError, EncodeError, EncodeErrorKind, Reader};

/// A Kafka type that has a null form on the wire.
///
/// Only strings, bytes, records, arrays and structs do; `Option<i32>` therefore does
/// not compile as a field type.
///
/// ```
/// use kwire::{Cx, KafkaString, Wire};
///
/// let none: Option<KafkaString> = None;
/// let mut out = kwire::wire::Writer::contiguous(2);
/// let cx = Cx::new(0, false).with_nullable(true);
/// none.write(&mut out, cx, &mut kwire::wire::Sizes::new()).unwrap();
/// assert_eq!(out.into_buf()[..], [0xff, 0xff]); // int16 -1
/// // Where the version does not allow null, sizing refuses it.
/// let strict = Cx::new(0, false);
/// assert!(none.size(strict, &mut kwire::wire::Sizes::new()).is_err());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be null in Kafka's protocol",
    label = "only strings, bytes, records, arrays and structs are nullable",
    note = "write the field as `{Self}`, without the `Option` (and without `nullable` versions)"
)]
pub trait Nullable: Wire {
    /// Size of the null marker.
    fn null_size(cx: Cx) -> usize;
    /// Writes the null marker.
    fn write_null(w: &mut Writer, cx: Cx);
    /// Reads a value or the null marker.
    fn read_nullable(reader: &mut Reader<'_>, cx: Cx) -> Result<Option<Self>, DecodeError>;
    /// True when a nullable field of this type without a `default` starts out null
    /// (records); otherwise it starts out as the type's empty value.
    #[inline]
    fn starts_null() -> bool {
        false
    }
    /// Size of the marker a present value carries in nullable versions (structs: 1).
    #[inline]
    fn present_marker_size() -> usize {
        0
    }
    /// Writes that marker.
    #[inline]
    fn write_present_marker(_w: &mut Writer) {}
}

impl<T: Nullable> Wire for Option<T> {
    const TYPE: TypeSchema = T::TYPE;
    const IS_OPTION: bool = true;

    #[inline]
    fn is_null(&self) -> bool {
        self.is_none()
    }

    #[inline]
    fn size(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError> {
        match self {
            Some(value) if cx.nullable => Ok(T::present_marker_size() + value.size(cx, sizes)?),
            Some(value) => value.size(cx, sizes),
            None if cx.nullable => Ok(T::null_size(cx)),
            None => Err(null_not_allowed(cx)),
        }
    }

    #[inline]
    fn write(&self, w: &mut Writer, cx: Cx, sizes: &mut Sizes) -> Result<(), EncodeError> {
        match self {
            Some(value) => {
                if cx.nullable {
                    T::write_present_marker(w);
                }
                value.write(w, cx, sizes)
            }
            None => {
                T::write_null(w, cx);
                Ok(())
            }
        }
    }

    #[inline]
    fn retained_size(&self) -> usize {
        self.as_ref().map_or(0, Wire::retained_size)
    }

    #[inline]
    fn check_lossless(&self, cx: Cx) -> Result<(), EncodeError> {
        match self {
            Some(value) => value.check_lossless(cx),
            None => Ok(()),
        }
    }

    #[inline]
    fn read(reader: &mut Reader<'_>, cx: Cx) -> Result<Self, DecodeError> {
        // In a version where the field is not nullable a null marker is an error,
        // which the plain read reports.
        if cx.nullable {
            T::read_nullable(reader, cx)
        } else {
            T::read(reader, cx).map(Some)
        }
    }

    fn schema_default() -> Self {
        if T::starts_null() {
            None
        } else {
            Some(T::schema_default())
        }
    }
}

/// The null marker of a nullable struct.
pub fn write_struct_null(w: &mut Writer) {
    w.put_i8(-1);
}

/// The presence marker of a nullable struct.
pub fn write_struct_present(w: &mut Writer) {
    w.put_i8(1);
}

/// Kafka's refusal of null where the version does not allow it, found while
/// sizing (the field's name is added by the struct around it).
#[cold]
#[inline(never)]
fn null_not_allowed(cx: Cx) -> EncodeError {
    EncodeError::new(EncodeErrorKind::NullNotAllowed {
        version: cx.version,
    })
}

/// Reads a nullable struct: its marker, then the struct unless the marker says null.
#[inline]
pub fn read_nullable_struct<T: Wire>(
    reader: &mut Reader<'_>,
    cx: Cx,
) -> Result<Option<T>, DecodeError> {
    if !read_struct_marker(reader)? {
        return Ok(None);
    }
    T::read(reader, cx).map(Some)
}

/// Reads a nullable struct's one-byte marker: `false` for null, which Kafka takes
/// any negative byte to be. The decoder and the [schema walker](crate::walk) both
/// read markers here.
#[inline(always)]
pub(crate) fn read_struct_marker(reader: &mut Reader<'_>) -> Result<bool, DecodeError> {
    Ok((reader.read_u8()? as i8) >= 0)
}
