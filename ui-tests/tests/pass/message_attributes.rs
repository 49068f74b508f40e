//! Every struct-level attribute, and all four kinds, land in the schema metadata and
//! in the `Message` methods.

use kwire::schema::MessageKind;
use kwire::{Message, UnknownTaggedFields, VersionRange};

/// Fetches a snapshot.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(name = "FetchSnapshotRequest", api_key = 59, kind = request, versions = "0-2",
        flexible = "1+", listeners = "broker, controller", latest_version_unstable)]
pub struct SnapshotRequest {
    /// The replica asking.
    #[kafka(versions = "0+")]
    pub replica_id: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The snapshot's answer.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 59, kind = response, versions = "0-3", flexible = "none")]
pub struct SnapshotResponse {
    /// The error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
}

/// A header.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = header, versions = "0-1", flexible = "1+")]
pub struct Header {
    /// The correlation ID.
    #[kafka(versions = "0+")]
    pub correlation_id: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A stored record.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0")]
pub struct Record {
    /// The value.
    #[kafka(versions = "0+")]
    pub value: i64,
}

fn main() {
    let request = SnapshotRequest::SCHEMA;
    assert_eq!(request.name, "FetchSnapshotRequest");
    assert_eq!(request.body.name, "FetchSnapshotRequest");
    assert_eq!(request.kind, MessageKind::Request);
    assert_eq!(request.api_key, Some(59));
    assert_eq!(request.valid_versions, VersionRange::new(0, 2));
    assert_eq!(request.flexible_versions, VersionRange::at_least(1));
    assert_eq!(request.listeners, ["broker", "controller"]);
    assert!(request.latest_version_unstable);
    assert_eq!(request.about, "Fetches a snapshot.");
    assert_eq!(request.max_version(), 2);

    let response = SnapshotResponse::SCHEMA;
    assert_eq!(response.name, "SnapshotResponse");
    assert_eq!(response.kind, MessageKind::Response);
    assert_eq!(response.api_key, Some(59));
    assert!(response.flexible_versions.is_empty());
    assert!(response.listeners.is_empty());
    assert!(!response.latest_version_unstable);

    assert_eq!(Header::SCHEMA.kind, MessageKind::Header);
    assert_eq!(Header::SCHEMA.api_key, None);
    assert_eq!(Record::SCHEMA.kind, MessageKind::Data);
    assert_eq!(Record::SCHEMA.valid_versions, VersionRange::new(0, 0));

    let message = SnapshotRequest {
        replica_id: 3,
        ..Default::default()
    };
    assert_eq!(message.name(), "FetchSnapshotRequest");
    assert_eq!(message.api_key(), Some(59));
    assert_eq!(message.kind(), MessageKind::Request);
    assert_eq!(message.valid_versions(), VersionRange::new(0, 2));
    // Version 0 is not flexible; version 1 ends in an empty tagged section.
    assert_eq!(&message.encode(0).unwrap()[..], [0, 0, 0, 3]);
    assert_eq!(&message.encode(1).unwrap()[..], [0, 0, 0, 3, 0]);
    assert_eq!(message.encoded_size(1).unwrap(), 5);
    assert!(message.encode(3).is_err(), "version 3 does not exist");
    let bytes = message.encode(2).unwrap();
    assert_eq!(SnapshotRequest::decode(&bytes, 2).unwrap(), message);
    assert!(SnapshotRequest::decode(&bytes, 3).is_err());

    let header = Header {
        correlation_id: 9,
        ..Default::default()
    };
    assert_eq!(&header.encode(1).unwrap()[..], [0, 0, 0, 9, 0]);
    let record = Record { value: -1 };
    assert_eq!(&record.encode(0).unwrap()[..], [0xff; 8]);
}
