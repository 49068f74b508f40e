// The message ends at version 3; a field starting at 5 can never be written.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct FieldAfterLastVersion {
    #[kafka(versions = "5+")]
    pub late: i32,
}

fn main() {}
