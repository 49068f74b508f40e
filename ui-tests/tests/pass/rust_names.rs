//! Rust-side freedom the schema does not see: private nested structs, raw
//! identifiers, and names the PascalCase rule turns into Kafka's.

use kwire::{Message, Struct};

/// Private to this module, used by a public message.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
struct Entry {
    /// `type` is a keyword in Rust.
    #[kafka(versions = "0+")]
    r#type: i8,
    /// Digits stay attached.
    #[kafka(versions = "0+")]
    ipv4_address: u32,
}

/// Holds private entries.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0")]
pub struct Registry {
    /// The entries.
    #[kafka(versions = "0+")]
    entries: Vec<Entry>,
}

fn main() {
    let names: Vec<&str> = Entry::STRUCT_SCHEMA.fields.iter().map(|f| f.name).collect();
    assert_eq!(names, ["Type", "Ipv4Address"]);
    let value = Registry {
        entries: vec![Entry {
            r#type: 2,
            ipv4_address: 0x7f00_0001,
        }],
    };
    let bytes = value.encode(0).unwrap();
    assert_eq!(&bytes[..], [0, 0, 0, 1, 2, 0x7f, 0, 0, 1]);
    assert_eq!(Registry::decode(&bytes, 0).unwrap(), value);
}
