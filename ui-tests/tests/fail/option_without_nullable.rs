// An `Option` the schema never lets be null.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct OptionWithoutNullable {
    #[kafka(versions = "0+")]
    pub name: Option<KafkaString>,
}

fn main() {}
