// `versions` given twice.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct DuplicateKey {
    #[kafka(versions = "0+", versions = "1+")]
    pub count: i32,
}

fn main() {}
