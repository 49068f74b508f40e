// `hold_seconds` has tag 0 in released version 2; a new tagged field at version 3
// takes tag 0 and moves it to 1.

use kwire::{KafkaString, UnknownTaggedFields};

#[derive(kwire::Message)]
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
    #[kafka(versions = "3+", tag = 0)]
    pub row: i32,
    #[kafka(versions = "2+", tag = 1, default = 600)]
    pub hold_seconds: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {}
