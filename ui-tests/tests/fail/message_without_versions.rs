// `none` is how Kafka retires an API; a struct for it has nothing to encode.

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "none")]
pub struct Retired {
    #[kafka(versions = "0+")]
    pub count: i32,
}

fn main() {}
