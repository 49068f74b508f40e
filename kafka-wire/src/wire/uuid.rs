//! Kafka's `uuid`: sixteen raw bytes.

use std::fmt;

use bytes::BufMut;

use super::{Cx, Wire};
use crate::schema::TypeSchema;
use crate::{DecodeError, EncodeError, Reader};

/// A Kafka UUID (topic IDs, directory IDs): 16 bytes, written as they are.
///
/// ```
/// use kafka_wire::Uuid;
///
/// let id = Uuid::from_u64_pair(1, 2);
/// assert_eq!(id.as_bytes()[7], 1);
/// assert_eq!(Uuid::ZERO.to_string(), "00000000-0000-0000-0000-000000000000");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Uuid([u8; 16]);

impl Uuid {
    /// The all-zero UUID, Kafka's default and "no topic ID".
    pub const ZERO: Uuid = Uuid([0; 16]);

    /// From raw bytes.
    pub const fn from_bytes(bytes: [u8; 16]) -> Self {
        Uuid(bytes)
    }

    /// From the most and least significant halves, as Java's `Uuid` holds them.
    pub const fn from_u64_pair(most: u64, least: u64) -> Self {
        let m = most.to_be_bytes();
        let l = least.to_be_bytes();
        Uuid([
            m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], l[0], l[1], l[2], l[3], l[4], l[5],
            l[6], l[7],
        ])
    }

    /// The raw bytes.
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                f.write_str("-")?;
            }
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uuid({self})")
    }
}

impl From<[u8; 16]> for Uuid {
    fn from(bytes: [u8; 16]) -> Self {
        Uuid(bytes)
    }
}

impl Wire for Uuid {
    const TYPE: TypeSchema = TypeSchema::Uuid;
    const MIN_SIZE: usize = 16;

    #[inline]
    fn size(&self, _cx: Cx) -> Result<usize, EncodeError> {
        Ok(16)
    }

    #[inline]
    fn write<B: BufMut>(&self, buf: &mut B, _cx: Cx) -> Result<(), EncodeError> {
        buf.put_slice(&self.0);
        Ok(())
    }

    #[inline]
    fn read(reader: &mut Reader<'_>, _cx: Cx) -> Result<Self, DecodeError> {
        Ok(Uuid(reader.read_array()?))
    }

    fn schema_default() -> Self {
        Uuid::ZERO
    }
}
