// A message says whether it is a request, response, header or data.

#[derive(kwire::Message)]
#[kafka(versions = "0-3")]
pub struct MissingKind {
    #[kafka(versions = "0+")]
    pub count: i32,
}

fn main() {}
