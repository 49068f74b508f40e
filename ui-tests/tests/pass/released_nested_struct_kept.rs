// A nested struct names its released schema too, and may grow a tagged field in a
// flexible released version; its message checks its own fields.

use kwire::{KafkaString, Message, UnknownTaggedFields};

#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(
    api_key = 1001,
    kind = request,
    versions = "0-1",
    flexible = "1+",
    compatible_with = "schemas/ReleaseSeatsRequest.json"
)]
pub struct ReleaseSeatsRequest {
    #[kafka(versions = "0+")]
    pub show_id: KafkaString,
    #[kafka(versions = "0+")]
    pub seats: Vec<Seat>,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[kafka(compatible_with = "schemas/ReleaseSeatsRequest.json")]
pub struct Seat {
    #[kafka(versions = "0+")]
    pub row: KafkaString,
    #[kafka(versions = "0+")]
    pub number: i16,
    /// New, as a tagged field of flexible version 1.
    #[kafka(versions = "1+", tag = 0)]
    pub section: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {
    let request = ReleaseSeatsRequest {
        seats: vec![Seat::default().with_number(7).with_section(2)],
        ..Default::default()
    };
    let bytes = request.encode(1).unwrap();
    assert_eq!(ReleaseSeatsRequest::decode(&bytes, 1).unwrap(), request);
}
