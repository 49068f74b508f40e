// An integer default on a string field.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct DefaultIntOnString {
    #[kafka(versions = "0+", default = 5)]
    pub name: KafkaString,
}

fn main() {}
