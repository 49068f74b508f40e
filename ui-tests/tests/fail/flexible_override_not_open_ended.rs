// A field-level flexible override is `N+` or `none`, like the message's.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-5", flexible = "2+")]
pub struct OverrideNotOpenEnded {
    #[kafka(versions = "0+", flexible = "3-4")]
    pub name: KafkaString,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
