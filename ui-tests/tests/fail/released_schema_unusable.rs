// A released schema that is not there, or is another message's, or has no such
// struct: each an error on the path.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0", compatible_with = "schemas/Missing.json")]
pub struct Missing {
    #[kafka(versions = "0+")]
    pub show_id: KafkaString,
}

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0", compatible_with = "schemas/HoldSeatsRequest.json")]
pub struct OtherName {
    #[kafka(versions = "0+")]
    pub show_id: KafkaString,
}

#[derive(kwire::Struct)]
#[kafka(compatible_with = "schemas/HoldSeatsRequest.json")]
pub struct Chair {
    #[kafka(versions = "0+")]
    pub row: KafkaString,
}

fn main() {}
