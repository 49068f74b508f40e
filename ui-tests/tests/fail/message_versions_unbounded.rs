// A message's versions must end somewhere.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0+")]
pub struct Unbounded {
    #[kafka(versions = "0+")]
    pub count: i32,
}

fn main() {}
