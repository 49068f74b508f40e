// Schemas are structs with named fields.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct Tuple(#[kafka(versions = "0+")] pub i32);

#[derive(kwire::Struct)]
pub enum Choice {
    A,
}

fn main() {}
