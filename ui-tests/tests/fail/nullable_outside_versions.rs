// Nullable in versions 6 and 7, which the field does not have.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-7")]
pub struct NullableOutsideVersions {
    #[kafka(versions = "0-5", nullable = "0-7")]
    pub name: Option<KafkaString>,
}

fn main() {}
