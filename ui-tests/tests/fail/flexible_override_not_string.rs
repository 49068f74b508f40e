// Only strings and bytes have a compact form a field could opt out of.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "2+")]
pub struct FlexibleOverrideNotString {
    #[kafka(versions = "0+", flexible = "none")]
    pub count: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
