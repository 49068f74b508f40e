// A topic name is a string (Kafka's generator checks the field's type).

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct EntityTypeWrongType {
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic: i32,
}

fn main() {}
