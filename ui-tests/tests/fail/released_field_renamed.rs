// `note` is `Note` in released versions 1-2: as `memo` its bytes are the same, but
// Kafka's JSON form of those versions is not.

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
    pub memo: Option<KafkaString>,
    #[kafka(versions = "2+", tag = 0, default = 600)]
    pub hold_seconds: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {}
