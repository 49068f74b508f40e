//! Nested structs depend only on `kafka-wire`, take version and flexibility from
//! their parent, carry their own tagged fields, and may be nullable.

use kwire::{KafkaString, Message, UnknownTaggedFields, Wire};

/// A partition, with a tag of its own from version 2.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
pub struct Partition {
    /// The index.
    #[kafka(versions = "0+")]
    pub index: i32,
    /// The leader's epoch, tagged.
    #[kafka(versions = "2+", tag = 0, default = -1, ignorable)]
    pub leader_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic holding partitions: its tags come from inside.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[kafka(name = "TopicData")]
pub struct Topic {
    /// The name.
    #[kafka(versions = "0+")]
    pub name: KafkaString,
    /// The partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<Partition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A cursor, nullable as a whole.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
pub struct Cursor {
    /// The position.
    #[kafka(versions = "0+")]
    pub position: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The message: flexible from 1, so the nested tag from 2 is allowed.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0-2", flexible = "1+")]
pub struct Parent {
    /// The topics.
    #[kafka(versions = "0+")]
    pub topics: Vec<Topic>,
    /// Where to resume, or null.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub cursor: Option<Cursor>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn partition(index: i32, leader_epoch: i32) -> Partition {
    Partition {
        index,
        leader_epoch,
        ..Default::default()
    }
}

fn main() {
    // A nested struct's schema is reachable from its parent's, through arrays.
    let partitions = <Topic as Wire>::TYPE
        .struct_schema()
        .and_then(|topic| topic.field("Partitions"))
        .unwrap();
    let leader_epoch = partitions.ty.struct_schema().unwrap().field("LeaderEpoch").unwrap();
    assert_eq!(leader_epoch.tagged_versions.to_string(), "2+");

    let topics_field = Parent::SCHEMA.body.field("Topics").unwrap();
    assert_eq!(topics_field.ty.to_string(), "[]TopicData");
    let topic_schema = topics_field.ty.struct_schema().unwrap();
    assert_eq!(topic_schema.name, "TopicData");
    assert_eq!(
        topic_schema.field("Partitions").unwrap().ty.to_string(),
        "[]Partition"
    );

    let value = Parent {
        topics: vec![Topic {
            name: "t".into(),
            partitions: vec![partition(0, 5), partition(1, -1)],
            ..Default::default()
        }],
        cursor: Some(Cursor {
            position: 42,
            ..Default::default()
        }),
        ..Default::default()
    };
    let bytes = value.encode(2).unwrap();
    assert_eq!(Parent::decode(&bytes, 2).unwrap(), value);

    // Before version 2 the nested tagged field is ignorable: dropped, and read back
    // as its default.
    let bytes = value.encode(1).unwrap();
    let decoded = Parent::decode(&bytes, 1).unwrap();
    assert_eq!(decoded.topics[0].partitions[0].leader_epoch, -1);
    assert_eq!(decoded.topics[0].partitions[0].index, 0);

    // Only the non-default epoch costs tag + size + int32.
    let quiet = Parent {
        topics: vec![Topic {
            partitions: vec![partition(0, -1), partition(1, -1)],
            ..value.topics[0].clone()
        }],
        ..value.clone()
    };
    assert_eq!(
        value.encoded_size(2).unwrap(),
        quiet.encoded_size(2).unwrap() + 6
    );

    // A nullable struct: one marker byte, -1 for null.
    let null = Parent {
        cursor: None,
        ..quiet.clone()
    };
    let bytes = null.encode(0).unwrap();
    assert_eq!(bytes.last(), Some(&0xff));
    assert_eq!(Parent::decode(&bytes, 0).unwrap(), null);
    let present = quiet.encode(0).unwrap();
    assert_eq!(present.len(), bytes.len() + 8);
    assert_eq!(&present[present.len() - 9..], [1, 0, 0, 0, 0, 0, 0, 0, 42]);
}
