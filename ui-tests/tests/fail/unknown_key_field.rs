// `nullableVersions` is the JSON spelling; the attribute is `nullable`.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct UnknownFieldKey {
    #[kafka(versions = "0+", nullableVersions = "0+")]
    pub name: Option<KafkaString>,
}

fn main() {}
