// Several unrelated mistakes in one struct: every one is reported, nothing else is,
// and code using the message still type-checks thanks to the fallback impls.

use kwire::{KafkaString, Message};

#[derive(kwire::Message)]
#[kafka(kind = request, versions = "0+", flexible = "2-3", colour = "blue")]
pub struct ManyErrors {
    #[kafka(versions = "0+", tag = -1)]
    pub negative: i32,
    #[kafka(versions = "0-2", nullable = "0-5")]
    pub name: Option<KafkaString>,
    #[kafka(versions = "x", shade)]
    pub bad_range: i32,
    #[kafka(nullable = "0+")]
    pub no_versions: Option<KafkaString>,
    #[kafka(versions = "0+", tagged = "1+")]
    pub untagged: i32,
    #[kafka(versions = "0+", default = 1 + 1)]
    pub computed: i32,
    #[kafka(versions = "0+", ignorable, ignorable)]
    pub twice: i32,
}

fn main() {
    let message = ManyErrors::default();
    let _ = message.encode(0);
    let _ = message.encoded_size(0);
    let _ = ManyErrors::decode(&kwire::bytes::Bytes::new(), 0);
    let _ = ManyErrors::SCHEMA.name;
    let _ = message.negative + message.bad_range;
}
