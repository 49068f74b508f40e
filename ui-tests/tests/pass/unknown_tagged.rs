//! Tags this code does not know are kept in order and written back unchanged.

use kwire::bytes::Bytes;
use kwire::{Message, UnknownTaggedFields};

/// A message with one known tag.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0", flexible = "0+")]
pub struct Tagged {
    /// A body field.
    #[kafka(versions = "0+")]
    pub id: i16,
    /// The known tag.
    #[kafka(versions = "0+", tag = 0)]
    pub known: i16,
    /// The others.
    #[kafka(unknown_tagged)]
    pub others: UnknownTaggedFields,
}

fn main() {
    // id = 7; tagged section of 3: tag 0 (2 bytes), tag 3 (1 byte), tag 9 (0 bytes).
    let input = Bytes::from_static(b"\x00\x07\x03\x00\x02\x00\x05\x03\x01\xab\x09\x00");
    let decoded = Tagged::decode(&input, 0).unwrap();
    assert_eq!(decoded.id, 7);
    assert_eq!(decoded.known, 5);
    let unknown: Vec<(u32, &[u8])> = decoded
        .others
        .iter()
        .map(|f| (f.tag, &f.data[..]))
        .collect();
    assert_eq!(unknown, [(3, &[0xab][..]), (9, &[][..])]);
    assert_eq!(decoded.encode(0).unwrap(), input);

    // Unknown tags merge with known ones in tag order.
    let mut value = Tagged {
        id: 1,
        known: 0,
        ..Default::default()
    };
    value.others.insert(1, Bytes::from_static(b"z"));
    assert_eq!(&value.encode(0).unwrap()[..], b"\x00\x01\x01\x01\x01z");
    value.known = 2;
    assert_eq!(
        &value.encode(0).unwrap()[..],
        b"\x00\x01\x02\x00\x02\x00\x02\x01\x01z"
    );
    // A known tag among the unknown ones is refused rather than written twice.
    value.others.insert(0, Bytes::from_static(b"?"));
    assert!(value.encode(0).is_err());
}
