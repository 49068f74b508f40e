// `note` is in released versions 1-2; starting it at version 2 takes it out of
// released version 1.

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
    #[kafka(versions = "2+", nullable = "2+", default = null, ignorable)]
    pub note: Option<KafkaString>,
    #[kafka(versions = "2+", tag = 0, default = 600)]
    pub hold_seconds: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {}
