// `note` is nullable in released versions 1-2; dropping `nullable = "1+"` breaks
// them (and its default, null, can no longer be: a reader of version 0 gets ""
// instead, said in the same error, since one change made both).

use kwire::{KafkaString, UnknownTaggedFields};

#[derive(kwire::Message)]
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
    #[kafka(versions = "1+", ignorable)]
    pub note: KafkaString,
    #[kafka(versions = "2+", tag = 0, default = 600)]
    pub hold_seconds: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {}
