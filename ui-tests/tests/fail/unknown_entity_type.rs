// Entity types are Kafka's closed list.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct UnknownEntityType {
    #[kafka(versions = "0+", entity_type = "topicId")]
    pub topic: KafkaString,
}

fn main() {}
