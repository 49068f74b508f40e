// Version 2 of the quick-start message is released; `versions = "0-1"` drops it
// (and `hold_seconds`, which only version 2 had).

use kwire::{KafkaString, UnknownTaggedFields};

#[derive(kwire::Message)]
#[kafka(
    api_key = 1000,
    kind = request,
    versions = "0-1",
    flexible = "2+",
    compatible_with = "schemas/HoldSeatsRequest.json"
)]
pub struct HoldSeatsRequest {
    #[kafka(versions = "0+")]
    pub show_id: KafkaString,
    #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
    pub note: Option<KafkaString>,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {}
