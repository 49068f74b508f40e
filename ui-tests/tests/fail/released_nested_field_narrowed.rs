// `Seat.Number` is in released versions 0-1 of `ReleaseSeatsRequest`; the nested
// struct names that file itself, so starting the field at version 1 is reported
// on its own `versions`.

use kwire::{KafkaString, UnknownTaggedFields};

#[derive(kwire::Struct)]
#[kafka(compatible_with = "schemas/ReleaseSeatsRequest.json")]
pub struct Seat {
    #[kafka(versions = "0+")]
    pub row: KafkaString,
    #[kafka(versions = "1+")]
    pub number: i16,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {}
