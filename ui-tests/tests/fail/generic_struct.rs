// A schema names concrete types.

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct Generic<T> {
    #[kafka(versions = "0+")]
    pub value: T,
}

fn main() {}
