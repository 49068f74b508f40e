// `nullableVersions` is the JSON spelling; the attribute is `nullable`.

use kafka_wire::KafkaString;

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct UnknownFieldKey {
    #[kafka(versions = "0+", nullableVersions = "0+")]
    pub name: Option<KafkaString>,
}

fn main() {}
