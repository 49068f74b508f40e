//! Strict encoding against Kafka's rule, on derived structs: what a normal encode
//! drops silently, a strict one refuses with the field's path, at any depth and in
//! tagged sections; what it would not drop, both write the same.

use crate::{EncodeError, EncodeErrorKind, KafkaString, Message, UnknownTaggedFields, Uuid};

/// A topic: by name until version 1, by ID from version 2.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
struct Topic {
    /// Its name.
    #[kafka(versions = "0-1", ignorable)]
    name: KafkaString,
    /// Its ID.
    #[kafka(versions = "2+", ignorable)]
    topic_id: Uuid,
    /// Its partitions.
    #[kafka(versions = "0+")]
    partitions: Vec<i32>,
    /// A note, tagged, from version 1.
    #[kafka(versions = "1+", tag = 0, ignorable)]
    note: KafkaString,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    unknown: UnknownTaggedFields,
}

/// A broker.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
struct Broker {
    /// Its ID.
    #[kafka(versions = "0+")]
    id: i32,
    /// Its rack, in version 0 only.
    #[kafka(versions = "0", ignorable)]
    rack: KafkaString,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    unknown: UnknownTaggedFields,
}

/// Topics and brokers, in every shape a value can be nested in.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0-2", flexible = "1+")]
struct Catalog {
    /// The topics: an array of structs.
    #[kafka(versions = "0+")]
    topics: Vec<Topic>,
    /// The leader: a struct.
    #[kafka(versions = "0+")]
    leader: Broker,
    /// A standby: a nullable struct.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    standby: Option<Broker>,
    /// A hint: tagged, ignorable, from version 2.
    #[kafka(versions = "2+", tag = 0, ignorable)]
    hint: i32,
    /// A weight: tagged, not ignorable, from version 2.
    #[kafka(versions = "2+", tag = 1)]
    weight: i32,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    unknown: UnknownTaggedFields,
}

const ID: Uuid = Uuid::from_u64_pair(1, 2);

/// Asserts that the normal encode drops what the strict one refuses at `path`.
fn dropped_but_refused_strictly(catalog: &Catalog, version: i16, path: &str) -> EncodeError {
    assert!(catalog.encode(version).is_ok(), "a normal encode drops it");
    assert!(catalog.encoder(version).is_ok());
    let err = catalog.encode_strict(version).unwrap_err();
    assert_eq!(
        err.kind(),
        &EncodeErrorKind::IgnorableFieldDropped { version }
    );
    assert_eq!(err.path().to_string(), path);
    assert_eq!(catalog.check_strict(version).unwrap_err(), err);
    assert_eq!(catalog.encoder_strict(version).unwrap_err(), err);
    err
}

#[test]
fn an_ignorable_value_is_dropped_normally_and_refused_strictly() {
    let catalog = Catalog::default().with_topics(vec![
        Topic::default().with_topic_id(ID),
        Topic::default().with_name("orders".into()),
    ]);
    let err = dropped_but_refused_strictly(&catalog, 2, "Catalog.Topics[1].Name");
    assert_eq!(
        err.to_string(),
        "Catalog.Topics[1].Name: field is set but does not exist in version 2: it is \
         ignorable, so a non-strict encode would drop its value silently"
    );
    // What Kafka's rule sends: the name is gone.
    let sent = Catalog::decode(&catalog.encode(2).unwrap(), 2).unwrap();
    assert_eq!(sent.topics[1].name, "");
    // Version 1 has the name, and lacks the ID, which the second topic leaves at its
    // default, but the first does not.
    dropped_but_refused_strictly(&catalog, 1, "Catalog.Topics[0].TopicId");
}

#[test]
fn defaults_are_not_lost_so_strict_writes_the_same_bytes() {
    let catalog = Catalog::default()
        .with_topics(vec![Topic::default()
            .with_topic_id(ID)
            .with_partitions(vec![0, 1, 2])
            .with_note("n".into())])
        .with_leader(Broker::default().with_id(3))
        .with_standby(Some(Broker::default().with_id(4)))
        .with_hint(5)
        .with_weight(6);
    let normal = catalog.encode(2).unwrap();
    assert_eq!(catalog.encode_strict(2).unwrap(), normal);
    let encoder = catalog.encoder_strict(2).unwrap();
    assert_eq!(encoder.len(), normal.len());
    assert_eq!(encoder.to_bytes().unwrap(), normal);
    assert_eq!(Catalog::decode(&normal, 2).unwrap(), catalog);
    // Every version of an empty message loses nothing.
    for version in 0..=2 {
        let empty = Catalog::default();
        assert_eq!(
            empty.encode_strict(version).unwrap(),
            empty.encode(version).unwrap()
        );
    }
}

#[test]
fn nested_structs_are_looked_into() {
    let leader = Catalog::default().with_leader(Broker::default().with_rack("r1".into()));
    dropped_but_refused_strictly(&leader, 1, "Catalog.Leader.Rack");
    assert!(leader.check_strict(0).is_ok());

    let standby = Catalog::default().with_standby(Some(Broker::default().with_rack("r2".into())));
    dropped_but_refused_strictly(&standby, 2, "Catalog.Standby.Rack");
    assert!(Catalog::default()
        .with_standby(None)
        .check_strict(2)
        .is_ok());
}

#[test]
fn tagged_fields_follow_the_same_rule() {
    // A tagged field of the message, at a version before it exists.
    let hint = Catalog::default().with_hint(5);
    dropped_but_refused_strictly(&hint, 1, "Catalog.Hint");
    let sent = Catalog::decode(&hint.encode(1).unwrap(), 1).unwrap();
    assert_eq!(sent.hint, 0);
    // A tagged field of an array element, at the version before it exists.
    let note = Catalog::default().with_topics(vec![Topic::default().with_note("n".into())]);
    dropped_but_refused_strictly(&note, 0, "Catalog.Topics[0].Note");
    assert!(note.check_strict(1).is_ok());
}

#[test]
fn a_value_a_normal_encode_refuses_is_refused_the_same_way() {
    let weight = Catalog::default().with_weight(6);
    let normal = weight.encode(1).unwrap_err();
    assert_eq!(
        normal.kind(),
        &EncodeErrorKind::FieldNotInVersion { version: 1 }
    );
    assert_eq!(weight.check_strict(1).unwrap_err(), normal);
    assert_eq!(weight.encode_strict(1).unwrap_err(), normal);
}

#[test]
fn a_version_the_message_lacks_is_refused_first() {
    let err = Catalog::default().check_strict(3).unwrap_err();
    assert!(matches!(
        err.kind(),
        EncodeErrorKind::UnsupportedVersion { version: 3, .. }
    ));
    assert_eq!(err.path().to_string(), "Catalog");
}
