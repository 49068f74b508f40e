// `zero_copy` hands out slices of the input: only bytes fields have them.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct ZeroCopyNotBytes {
    #[kafka(versions = "0+", zero_copy)]
    pub name: KafkaString,
}

fn main() {}
