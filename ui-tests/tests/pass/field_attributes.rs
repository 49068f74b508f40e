//! Every field-level attribute lands in the schema metadata and drives encoding.

use kwire::bytes::Bytes;
use kwire::{KafkaString, Message, UnknownTaggedFields, VersionRange};

/// A topic of the request.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
pub struct Topic {
    /// The topic name.
    #[kafka(versions = "0+", map_key, entity_type = "topicName")]
    pub name: KafkaString,
    /// The partition indexes.
    #[kafka(versions = "0+")]
    pub partitions: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// Exercises every field attribute.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = request, versions = "0-4", flexible = "2+", listeners = "broker")]
pub struct FieldsRequest {
    /// Present in every version.
    #[kafka(versions = "0+")]
    pub id: i32,
    /// Added in version 1; dropped silently before.
    #[kafka(versions = "1+", ignorable)]
    pub added_later: i64,
    /// May be null from version 3.
    #[kafka(versions = "0+", nullable = "3+")]
    pub rack: Option<KafkaString>,
    /// A body field in version 2, tagged from version 3.
    #[kafka(versions = "2+", tag = 0, tagged = "3+")]
    pub hint: i32,
    /// Tagged in all its versions.
    #[kafka(versions = "2+", tag = 1, ignorable)]
    pub note: KafkaString,
    /// The topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<Topic>,
    /// A name the PascalCase rule would not give.
    #[kafka(
        versions = "0+",
        name = "TransactionalID",
        entity_type = "transactionalId",
        nullable = "0+"
    )]
    pub transactional_id: Option<KafkaString>,
    /// The producer.
    #[kafka(versions = "0+", entity_type = "producerId")]
    pub producer_id: i64,
    /// The replicas.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub replicas: Vec<i32>,
    /// The group.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: String,
    /// Anything.
    #[kafka(versions = "0+", entity_type = "unknown")]
    pub other: i8,
    /// Handed out as a slice of the input.
    #[kafka(versions = "4+", zero_copy, ignorable)]
    pub payload: Bytes,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {
    let body = FieldsRequest::SCHEMA.body;
    let names: Vec<&str> = body.fields.iter().map(|f| f.name).collect();
    assert_eq!(
        names,
        [
            "Id",
            "AddedLater",
            "Rack",
            "Hint",
            "Note",
            "Topics",
            "TransactionalID",
            "ProducerId",
            "Replicas",
            "GroupId",
            "Other",
            "Payload"
        ]
    );
    let field = |name| body.field(name).unwrap();
    assert_eq!(field("Id").versions, VersionRange::at_least(0));
    assert_eq!(field("Id").about, "Present in every version.");
    assert_eq!(field("AddedLater").versions, VersionRange::at_least(1));
    assert!(field("AddedLater").ignorable && !field("Id").ignorable);
    assert_eq!(field("Rack").nullable_versions, VersionRange::at_least(3));
    assert!(field("Id").nullable_versions.is_empty());
    assert_eq!(field("Hint").tag, Some(0));
    assert_eq!(field("Hint").tagged_versions, VersionRange::at_least(3));
    assert_eq!(field("Note").tag, Some(1));
    assert_eq!(field("Note").tagged_versions, VersionRange::at_least(2));
    assert_eq!(field("Id").tag, None);
    assert!(field("Id").tagged_versions.is_empty());
    assert_eq!(
        field("TransactionalID").entity_type,
        Some("transactionalId")
    );
    assert_eq!(field("ProducerId").entity_type, Some("producerId"));
    assert_eq!(field("Replicas").entity_type, Some("brokerId"));
    assert_eq!(field("GroupId").entity_type, Some("groupId"));
    assert_eq!(field("Other").entity_type, Some("unknown"));
    assert_eq!(field("Id").entity_type, None);
    assert!(field("Payload").zero_copy && !field("Id").zero_copy);
    let topic_schema = <Topic as kwire::Struct>::STRUCT_SCHEMA;
    assert!(topic_schema.field("Name").unwrap().map_key);
    assert!(!topic_schema.field("Partitions").unwrap().map_key);
    assert_eq!(
        topic_schema.field("Name").unwrap().entity_type,
        Some("topicName")
    );

    let full = FieldsRequest {
        id: 1,
        added_later: 2,
        rack: Some("r1".into()),
        hint: 5,
        note: "n".into(),
        topics: vec![Topic {
            name: "t".into(),
            partitions: vec![0, 1],
            ..Default::default()
        }],
        transactional_id: None,
        producer_id: 7,
        replicas: vec![1, 2, 3],
        group_id: "g".into(),
        other: -3,
        payload: Bytes::from_static(b"xyz"),
        ..Default::default()
    };
    for version in 2..=4 {
        let mut expected = full.clone();
        if version < 4 {
            expected.payload = Bytes::new();
        }
        let bytes = full.encode(version).unwrap();
        assert_eq!(full.encoded_size(version).unwrap(), bytes.len());
        assert_eq!(
            FieldsRequest::decode(&bytes, version).unwrap(),
            expected,
            "v{version}"
        );
    }

    // Zero copy: the decoded payload points into the input.
    let bytes = full.encode(4).unwrap();
    let decoded = FieldsRequest::decode(&bytes, 4).unwrap();
    let start = bytes.as_ptr() as usize;
    let payload = decoded.payload.as_ptr() as usize;
    assert!(payload >= start && payload < start + bytes.len());

    // Hint is a body field in version 2 (always 4 bytes) and tagged from version 3
    // (absent when default, else tag + size + 4 bytes).
    let quiet = FieldsRequest {
        hint: 0,
        ..full.clone()
    };
    let size = |m: &FieldsRequest, v| m.encoded_size(v).unwrap();
    assert_eq!(size(&full, 2), size(&quiet, 2));
    assert_eq!(size(&full, 3), size(&quiet, 3) + 6);

    // Version 0: the non-ignorable tagged field holds a value it cannot carry.
    let error = full.encode(0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "FieldsRequest.Hint: field is set but does not exist in version 0 and is not ignorable"
    );
    // Without it, the ignorable fields are dropped and the rest round-trips.
    let old = FieldsRequest {
        hint: 0,
        note: KafkaString::default(),
        ..full.clone()
    };
    let bytes = old.encode(0).unwrap();
    let decoded = FieldsRequest::decode(&bytes, 0).unwrap();
    assert_eq!(decoded.added_later, 0);
    assert_eq!(decoded.payload, Bytes::new());
    assert_eq!(decoded.topics, old.topics);
    assert_eq!(decoded.rack, old.rack);

    // Null only where nullable.
    let null_rack = FieldsRequest {
        rack: None,
        ..old.clone()
    };
    assert!(null_rack.encode(2).is_err());
    let bytes = null_rack.encode(3).unwrap();
    assert_eq!(FieldsRequest::decode(&bytes, 3).unwrap().rack, None);
}
