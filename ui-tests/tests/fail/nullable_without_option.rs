// A nullable field must be able to hold null.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct NullableWithoutOption {
    #[kafka(versions = "0+", nullable = "0+")]
    pub name: KafkaString,
}

fn main() {}
