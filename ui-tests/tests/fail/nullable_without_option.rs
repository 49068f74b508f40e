// A nullable field must be able to hold null.

use kafka_wire::KafkaString;

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct NullableWithoutOption {
    #[kafka(versions = "0+", nullable = "0+")]
    pub name: KafkaString,
}

fn main() {}
