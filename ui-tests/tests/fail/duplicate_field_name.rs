// A `name` override collides with another field's schema name.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct DuplicateFieldName {
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    #[kafka(versions = "0+", name = "ThrottleTimeMs")]
    pub throttle: i32,
}

fn main() {}
