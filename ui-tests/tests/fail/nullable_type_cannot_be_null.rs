// Kafka has no null int32.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct NullableInt {
    #[kafka(versions = "0+", nullable = "0+")]
    pub count: Option<i32>,
}

fn main() {}
