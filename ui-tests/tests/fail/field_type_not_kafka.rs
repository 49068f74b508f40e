// A field's Rust type must stand for a Kafka type.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct NotKafka {
    #[kafka(versions = "0+")]
    pub count: u64,
}

fn main() {}
