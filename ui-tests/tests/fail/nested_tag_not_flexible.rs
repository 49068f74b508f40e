// The child is tagged from version 1, but the parent is flexible only from 2.

#[derive(PartialEq, kwire::Struct)]
pub struct Child {
    #[kafka(versions = "0+", tag = 0, tagged = "1+")]
    pub hint: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "2+")]
pub struct Parent {
    #[kafka(versions = "0+")]
    pub children: Vec<Child>,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
