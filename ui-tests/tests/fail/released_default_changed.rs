// A reader of released versions 0-1 (which lack `hold_seconds`) and of version 2
// (where it is tagged, so may be absent) gets its default, 600.

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
    #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
    pub note: Option<KafkaString>,
    #[kafka(versions = "2+", tag = 0, default = 300)]
    pub hold_seconds: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {}
