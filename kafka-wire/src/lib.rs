//! Apache Kafka's wire protocol as plain Rust structs.
//!
//! Write a message as a struct, annotate it with `#[kafka(...)]` the way Kafka's JSON
//! schemas annotate fields, and derive [`Message`]: you get exact, version-conditional
//! encoding, decoding and sizing, runtime [schema] metadata, and compile errors for
//! schema mistakes (a tag outside the flexible versions, a nullable range outside the
//! field's versions, …).
//!
//! ```
//! use kafka_wire::{KafkaString, Message, UnknownTaggedFields};
//!
//! /// Announces a node.
//! #[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
//! #[kafka(kind = data, versions = "0-2", flexible = "2+")]
//! pub struct NodeAnnouncement {
//!     /// The node's ID.
//!     #[kafka(versions = "0+")]
//!     pub node_id: i32,
//!     /// Its rack, if known.
//!     #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
//!     pub rack: Option<KafkaString>,
//!     /// Its weight, only written when not the default.
//!     #[kafka(versions = "2+", tag = 0, default = 100)]
//!     pub weight: i32,
//!     /// Tags this code does not know.
//!     #[kafka(unknown_tagged)]
//!     pub unknown_tagged_fields: UnknownTaggedFields,
//! }
//!
//! let node = NodeAnnouncement { node_id: 7, weight: 5, ..Default::default() };
//! let bytes = node.encode(2).unwrap();
//! assert_eq!(&bytes[..], [0, 0, 0, 7, 0, 1, 0, 4, 0, 0, 0, 5]);
//! assert_eq!(NodeAnnouncement::decode(&bytes, 2).unwrap(), node);
//! // Version 0 has no tagged fields: the non-default weight cannot be written there.
//! assert!(node.encode(0).is_err());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod message;
pub mod schema;
mod version;
pub mod wire;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, FieldPath};
pub use message::{Message, Struct};
pub use version::{VersionRange, VersionRangeError};
pub use wire::reader::Reader;
pub use wire::{
    Cx, KafkaString, Nullable, RawTaggedField, Records, UnknownTaggedFields, Uuid, Wire,
};

/// Derives [`Message`] (and [`Struct`], [`Wire`], `Default`) for a top-level message.
pub use kafka_wire_derive::Message;
/// Derives [`Struct`] (and [`Wire`], `Default`) for a nested structure.
pub use kafka_wire_derive::Struct;

// `bytes` is part of the API (decoding takes `Bytes`); re-exported so users match versions.
pub use bytes;

/// A vector that holds its first few elements in place: Kafka's `[]T` for arrays that
/// are usually short, such as replica lists, whose decoding then allocates nothing.
/// Re-exported from the [`smallvec`](https://docs.rs/smallvec) crate so users match versions.
///
/// ```
/// use kafka_wire::{smallvec, Cx, SmallVec, Wire};
///
/// let replicas: SmallVec<[i32; 4]> = smallvec![1, 2, 3];
/// assert!(!replicas.spilled()); // three IDs fit in place: no heap allocation
/// let mut wire = Vec::new();
/// replicas.write(&mut wire, Cx::new(0, true)).unwrap(); // compact: count + 1, then the IDs
/// assert_eq!(wire, [4, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3]);
/// ```
pub use smallvec::{smallvec, SmallVec};
