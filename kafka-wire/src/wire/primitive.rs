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

/// A fixed-width value as the bytes Kafka writes: what lets the derive write a run
/// of such fields that every version in a range has (a partition's error code,
/// index, leader and epoch) as one array and one copy into the buffer, instead of
/// one bounds-checked append each. Not a public API.
#[doc(hidden)]
pub trait FixedWidth: Wire + Copy {
    /// Bytes on the wire.
    const WIDTH: usize;
    /// Writes the value into `dst`, exactly [`WIDTH`](FixedWidth::WIDTH) bytes long.
    fn put_be(self, dst: &mut [u8]);
}

impl FixedWidth for bool {
    const WIDTH: usize = 1;

    #[inline(always)]
    fn put_be(self, dst: &mut [u8]) {
        dst[0] = u8::from(self);
    }
}

macro_rules! fixed_width_runs {
    ($($ty:ty),* $(,)?) => {$(
        impl FixedWidth for $ty {
            const WIDTH: usize = std::mem::size_of::<$ty>();

            #[inline(always)]
            fn put_be(self, dst: &mut [u8]) {
                dst.copy_from_slice(&self.to_be_bytes());
            }
        }
    )*};
}

fixed_width_runs!(i8, i16, u16, i32, u32, i64, f64);

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

    /// Fixed-width fields one after another are written as runs, one per stretch
    /// of versions with the same fields (here v0, v1-2, v3, v4+), with a string
    /// ending the first group and a shadowed scalar name in the second.
    #[test]
    fn runs_of_fixed_width_fields_write_each_version_field_by_field() {
        use crate::{KafkaString, Message};

        #[allow(non_camel_case_types)]
        type f64 = i64;

        #[derive(Debug, Clone, PartialEq, kwire::Message)]
        #[kafka(kind = data, versions = "0-5")]
        struct Runs {
            /// Always.
            #[kafka(versions = "0+")]
            a: i16,
            /// From version 1; dropped where absent.
            #[kafka(versions = "1+", ignorable)]
            b: i32,
            /// Until version 3.
            #[kafka(versions = "0-3", ignorable)]
            c: bool,
            /// Ends the run.
            #[kafka(versions = "0+")]
            name: KafkaString,
            /// From version 4.
            #[kafka(versions = "4+", ignorable)]
            d: i64,
            /// An `i64` under a scalar's name: written as what it is.
            #[kafka(versions = "0+")]
            e: f64,
        }

        let value = Runs {
            a: 0x0102,
            b: 0x0304_0506,
            c: true,
            name: KafkaString::from_static("n"),
            d: 7,
            e: -1,
        };
        for version in 0..=5i16 {
            let mut expected = vec![1, 2];
            if version >= 1 {
                expected.extend([3, 4, 5, 6]);
            }
            if version <= 3 {
                expected.push(1);
            }
            expected.extend([0, 1, b'n']);
            if version >= 4 {
                expected.extend(7i64.to_be_bytes());
            }
            expected.extend([0xff; 8]);
            let encoded = value.encode(version).unwrap();
            assert_eq!(encoded[..], expected[..], "version {version}");
            let absent = |v| (v < 1, v > 3, v < 4);
            let decoded = Runs::decode(&encoded, version).unwrap();
            let (no_b, no_c, no_d) = absent(version);
            assert_eq!(decoded.b, if no_b { 0 } else { value.b });
            assert_eq!(decoded.c, !no_c);
            assert_eq!(decoded.d, if no_d { 0 } else { value.d });
        }
    }
}
