// An `Option` behind an alias named like a Kafka string type, in a field without
// nullable versions: the derive takes the spelling to leave out the field's own
// "an Option needs nullable versions" check, and the struct's check of that guess
// refuses it instead.

type KafkaString = Option<kwire::KafkaString>;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-1")]
pub struct Names {
    #[kafka(versions = "0+")]
    pub name: KafkaString,
}

fn main() {}
