// Kafka's names are ASCII letters and digits, starting with a letter.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", name = "2Fast")]
pub struct InvalidSchemaName {
    #[kafka(versions = "0+", name = "Throttle-Time")]
    pub throttle: i32,
}

fn main() {}
