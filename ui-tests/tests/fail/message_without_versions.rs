// `none` is how Kafka retires an API; a struct for it has nothing to encode.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "none")]
pub struct Retired {
    #[kafka(versions = "0+")]
    pub count: i32,
}

fn main() {}
