// A message says which versions exist.

#[derive(kwire::Message)]
#[kafka(kind = data)]
pub struct MissingMessageVersions {
    #[kafka(versions = "0+")]
    pub count: i32,
}

fn main() {}
