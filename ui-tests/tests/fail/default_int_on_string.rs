// An integer default on a string field.

use kafka_wire::KafkaString;

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct DefaultIntOnString {
    #[kafka(versions = "0+", default = 5)]
    pub name: KafkaString,
}

fn main() {}
