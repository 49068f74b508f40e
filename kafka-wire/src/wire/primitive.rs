//! Fixed-width values: `bool`, the integers and `float64`, all big-endian.

use super::{Cx, Sizes, Wire, Writer};
use crate::schema::TypeSchema;
use crate::{DecodeError, EncodeError, Reader};

impl Wire for bool {
    const TYPE: TypeSchema = TypeSchema::Bool;

    #[inline(always)]
    fn size(&self, _cx: Cx, _sizes: &mut Sizes) -> Result<usize, EncodeError> {
        Ok(1)
    }

    #[inline(always)]
    fn write(&self, w: &mut Writer, _cx: Cx, _sizes: &mut Sizes) -> Result<(), EncodeError> {
        w.put_u8(u8::from(*self));
        Ok(())
    }

    #[inline(always)]
    fn read(reader: &mut Reader<'_>, _cx: Cx) -> Result<Self, DecodeError> {
        // Kafka reads any non-zero byte as true.
        Ok(reader.read_u8()? != 0)
    }

    fn schema_default() -> Self {
        false
    }
}

macro_rules! fixed_width {
    ($($ty:ty => $schema:ident),* $(,)?) => {$(
        impl Wire for $ty {
            const TYPE: TypeSchema = TypeSchema::$schema;

            #[inline(always)]
            fn size(&self, _cx: Cx, _sizes: &mut Sizes) -> Result<usize, EncodeError> {
                Ok(std::mem::size_of::<$ty>())
            }

            #[inline(always)]
            fn write(&self, w: &mut Writer, _cx: Cx, _sizes: &mut Sizes) -> Result<(), EncodeError> {
                w.put_slice(&self.to_be_bytes());
                Ok(())
            }

            #[inline(always)]
            fn read(reader: &mut Reader<'_>, _cx: Cx) -> Result<Self, DecodeError> {
                Ok(<$ty>::from_be_bytes(reader.read_array()?))
            }

            fn schema_default() -> Self {
                0 as $ty
            }
        }
    )*};
}

fixed_width! {
    i8 => Int8,
    i16 => Int16,
    u16 => Uint16,
    i32 => Int32,
    u32 => Uint32,
    i64 => Int64,
    f64 => Float64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn round_trip<T: Wire + PartialEq + std::fmt::Debug>(value: T, expected: &[u8]) {
        let cx = Cx::new(0, false);
        let out = super::super::written(&value, cx);
        assert_eq!(out, expected);
        let input = Bytes::from(out);
        let mut reader = Reader::new(&input);
        assert_eq!(T::read(&mut reader, cx).unwrap(), value);
        assert_eq!(reader.remaining(), 0);
    }

    #[test]
    fn big_endian_everywhere() {
        round_trip(true, &[1]);
        round_trip(false, &[0]);
        round_trip(-2i8, &[0xfe]);
        round_trip(0x0102i16, &[1, 2]);
        round_trip(0xfffeu16, &[0xff, 0xfe]);
        round_trip(-1i32, &[0xff; 4]);
        round_trip(0x8000_0000u32, &[0x80, 0, 0, 0]);
        round_trip(1i64, &[0, 0, 0, 0, 0, 0, 0, 1]);
        round_trip(1.5f64, &1.5f64.to_be_bytes());
    }

    #[test]
    fn short_input_is_an_error() {
        let input = Bytes::from_static(&[0, 0, 0]);
        let err = i32::read(&mut Reader::new(&input), Cx::new(0, false)).unwrap_err();
        assert_eq!(err.offset(), 0);
    }
}
