// An empty string is not a range (`none` is how to say "no versions").

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct EmptyRange {
    #[kafka(versions = "")]
    pub count: i32,
}

fn main() {}
