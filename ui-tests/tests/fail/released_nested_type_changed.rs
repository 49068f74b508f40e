// `Seat.Number` is int16 in the released schema; the nested struct's own
// `compatible_with` asserts its fields' types too.

use kwire::{KafkaString, UnknownTaggedFields};

#[derive(kwire::Struct)]
#[kafka(compatible_with = "schemas/ReleaseSeatsRequest.json")]
pub struct Seat {
    #[kafka(versions = "0+")]
    pub row: KafkaString,
    #[kafka(versions = "0+")]
    pub number: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {}
