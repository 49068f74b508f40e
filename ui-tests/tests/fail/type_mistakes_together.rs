// Mistakes that only the field types reveal are each reported, on the whole type,
// all of them at once.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct TypeMistakes {
    #[kafka(versions = "0+", nullable = "0+")]
    pub not_an_option: KafkaString,
    #[kafka(versions = "0+")]
    pub not_nullable: Option<KafkaString>,
    #[kafka(versions = "0+", zero_copy)]
    pub not_bytes: i32,
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub not_a_broker: Vec<i64>,
    #[kafka(versions = "0+")]
    pub not_kafka: std::collections::HashMap<i32, i32>,
}

fn main() {}
