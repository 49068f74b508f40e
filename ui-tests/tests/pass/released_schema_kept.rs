// Changes a released schema allows: `schemas/HoldSeatsRequest.json` is the README's
// quick-start message as released (versions 0-2). Each module is one later
// definition of it.

use kwire::{KafkaString, Message, UnknownTaggedFields};

/// The message exactly as released.
mod unchanged {
    use super::*;

    #[derive(Debug, Clone, PartialEq, kwire::Message)]
    #[kafka(
        api_key = 1000,
        kind = request,
        versions = "0-2",
        flexible = "2+",
        compatible_with = "schemas/HoldSeatsRequest.json"
    )]
    pub struct HoldSeatsRequest {
        #[kafka(versions = "0+")]
        pub show_id: KafkaString,
        #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
        pub note: Option<KafkaString>,
        #[kafka(versions = "2+", tag = 0, default = 600)]
        pub hold_seconds: i32,
        #[kafka(unknown_tagged)]
        pub unknown_tagged_fields: UnknownTaggedFields,
    }
}

/// A new version, 3, with a new field in its body.
mod new_version_with_a_field {
    use super::*;

    #[derive(Debug, Clone, PartialEq, kwire::Message)]
    #[kafka(
        api_key = 1000,
        kind = request,
        versions = "0-3",
        flexible = "2+",
        compatible_with = "schemas/HoldSeatsRequest.json"
    )]
    pub struct HoldSeatsRequest {
        #[kafka(versions = "0+")]
        pub show_id: KafkaString,
        #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
        pub note: Option<KafkaString>,
        /// New in version 3.
        #[kafka(versions = "3+")]
        pub seat_count: i16,
        #[kafka(versions = "2+", tag = 0, default = 600)]
        pub hold_seconds: i32,
        #[kafka(unknown_tagged)]
        pub unknown_tagged_fields: UnknownTaggedFields,
    }
}

/// A tagged field added to released version 2, which is flexible: a peer that
/// does not know tag 1 skips it.
mod new_tagged_field {
    use super::*;

    #[derive(Debug, Clone, PartialEq, kwire::Message)]
    #[kafka(
        api_key = 1000,
        kind = request,
        versions = "0-2",
        flexible = "2+",
        compatible_with = "schemas/HoldSeatsRequest.json"
    )]
    pub struct HoldSeatsRequest {
        #[kafka(versions = "0+")]
        pub show_id: KafkaString,
        #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
        pub note: Option<KafkaString>,
        #[kafka(versions = "2+", tag = 0, default = 600)]
        pub hold_seconds: i32,
        /// New, as a tagged field of version 2.
        #[kafka(versions = "2+", tag = 1, default = -1)]
        pub row: i32,
        #[kafka(unknown_tagged)]
        pub unknown_tagged_fields: UnknownTaggedFields,
    }
}

fn main() {
    let request = new_version_with_a_field::HoldSeatsRequest {
        show_id: "hamlet".into(),
        seat_count: 4,
        ..Default::default()
    };
    let bytes = request.encode(3).unwrap();
    assert_eq!(
        new_version_with_a_field::HoldSeatsRequest::decode(&bytes, 3).unwrap(),
        request
    );
    // Version 2 bytes of the new definition read as the released one's.
    let request = request.with_seat_count(0);
    let bytes = request.encode(2).unwrap();
    let released = unchanged::HoldSeatsRequest::decode(&bytes, 2).unwrap();
    assert_eq!(released.show_id, request.show_id);
    let tagged = new_tagged_field::HoldSeatsRequest::default().with_row(7);
    let read = unchanged::HoldSeatsRequest::decode(&tagged.encode(2).unwrap(), 2).unwrap();
    assert_eq!(read.hold_seconds, 600);
}
