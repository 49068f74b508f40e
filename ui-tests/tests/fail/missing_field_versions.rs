// Every field says which versions have it.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct MissingFieldVersions {
    #[kafka(ignorable)]
    pub count: i32,
}

fn main() {}
