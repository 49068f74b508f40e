// The schema allows null, but the Rust type cannot hold it.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct DefaultNullTypeNotOption {
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub name: KafkaString,
}

fn main() {}
