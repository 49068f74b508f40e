//! The binary codec against the presence rule it shares with the JSON form: the
//! derive works out each field's versions when the program compiles, the runtime
//! asks the schema ([`presence`](super::presence)) at run time, and both must give
//! the same answer for every field and version.

use super::presence::{self, Refusal};
use crate::{EncodeErrorKind, KafkaString, Message, UnknownTaggedFields};

/// One field of each kind the rule treats differently.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0-5", flexible = "3+")]
struct Shapes {
    /// In every version.
    #[kafka(versions = "0+")]
    always: i32,
    /// From version 2, not ignorable, schema default.
    #[kafka(versions = "2+")]
    late: i32,
    /// Until version 2, not ignorable, explicit default.
    #[kafka(versions = "0-2", default = -1)]
    early: i32,
    /// In versions 1 to 3 only, ignorable.
    #[kafka(versions = "1-3", ignorable)]
    window: KafkaString,
    /// From version 4, nullable there, default null.
    #[kafka(versions = "4+", nullable = "4+", default = null)]
    note: Option<KafkaString>,
    /// Tagged from version 4, not ignorable.
    #[kafka(versions = "4+", tag = 0)]
    hint: i64,
    /// In the body from 1, tagged from 3.
    #[kafka(versions = "1+", tag = 1, tagged = "3+")]
    moved: i16,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    unknown: UnknownTaggedFields,
}

/// `Shapes` with field `index` set to a value other than its default.
fn with_set(index: usize) -> Shapes {
    let shapes = Shapes::default();
    match index {
        0 => shapes.with_always(7),
        1 => shapes.with_late(7),
        2 => shapes.with_early(7),
        3 => shapes.with_window("w".into()),
        4 => shapes.with_note(Some("n".into())),
        5 => shapes.with_hint(7),
        6 => shapes.with_moved(7),
        _ => unreachable!("Shapes has seven fields"),
    }
}

#[test]
fn presence_rules_agree() {
    let fields = Shapes::SCHEMA.body.fields;
    assert_eq!(fields.len(), 7);
    for (index, field) in fields.iter().enumerate() {
        let value = with_set(index);
        for version in 0..=5 {
            let rule = presence::in_version(field, version, || false);
            let encoded = value.encode(version);
            match rule {
                Err(Refusal::NotInVersion) => {
                    let err = encoded.expect_err("the rule refuses it");
                    assert_eq!(err.kind(), &EncodeErrorKind::FieldNotInVersion { version });
                    assert_eq!(err.path().to_string(), format!("Shapes.{}", field.name));
                }
                Err(Refusal::NullNotAllowed) => unreachable!("no null is set"),
                Ok(present) => {
                    let bytes = encoded.unwrap_or_else(|e| panic!("{}: {e}", field.name));
                    let read = Shapes::decode(&bytes, version).unwrap();
                    // Present: the value comes back; absent (ignorable): dropped.
                    let expected = if present {
                        value.clone()
                    } else {
                        Shapes::default()
                    };
                    assert_eq!(read, expected, "{} at version {version}", field.name);
                }
            }
            // A field holding its default is never refused.
            assert!(Shapes::default().encode(version).is_ok());
        }
    }
}

/// A field that may be null from version 2 only.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
struct Label {
    /// The label.
    #[kafka(versions = "0+", nullable = "2+")]
    text: Option<KafkaString>,
}

#[test]
fn null_where_the_version_does_not_allow_it_is_refused_with_the_field_named() {
    let field = &Label::SCHEMA.body.fields[0];
    let null = Label { text: None };
    for version in 0..=3 {
        let rule = presence::null_allowed(field, version, true);
        match null.encode(version) {
            Err(err) => {
                assert_eq!(rule, Err(Refusal::NullNotAllowed));
                assert_eq!(err.kind(), &EncodeErrorKind::NullNotAllowed { version });
                assert_eq!(err.path().to_string(), "Label.Text");
            }
            Ok(bytes) => {
                assert_eq!(rule, Ok(()));
                assert_eq!(Label::decode(&bytes, version).unwrap(), null);
            }
        }
    }
}
