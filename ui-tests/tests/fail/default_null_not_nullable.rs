// `null` is a default only when every version of the field may be null: here
// version 0 may not (Kafka's generator rule).

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct DefaultNullNotNullable {
    #[kafka(versions = "0+", nullable = "1+", default = null)]
    pub name: Option<KafkaString>,
}

fn main() {}
