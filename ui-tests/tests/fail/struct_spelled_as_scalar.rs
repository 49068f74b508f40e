// A struct imported under the name of a Kafka scalar type: the derive takes the
// spelling to leave the field out of strict encoding's pass, and the check of that
// guess refuses it rather than let a strict encode miss what the struct holds.

mod topics {
    #[derive(PartialEq, kwire::Struct)]
    pub struct Topic {
        #[kafka(versions = "0", ignorable)]
        pub name: kwire::KafkaString,
    }
}

use topics::Topic as KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-1")]
pub struct Topics {
    #[kafka(versions = "0+")]
    pub topic: KafkaString,
}

fn main() {}
