// A map key must always be present, so it cannot be tagged.

#[derive(kwire::Struct)]
pub struct Entry {
    #[kafka(versions = "0+", tag = 0, map_key)]
    pub key: i32,
}

fn main() {}
