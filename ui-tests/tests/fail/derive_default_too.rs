// `Default` comes from the schema defaults: deriving it as well is one impl too many,
// whether in the same list or another.

#[derive(Debug, Default, kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct SameList {
    #[kafka(versions = "0+", default = 5)]
    pub id: i32,
}

#[derive(Debug, kwire::Struct)]
#[derive(Default)]
pub struct LaterList {
    #[kafka(versions = "0+")]
    pub id: i32,
}

fn main() {
    // The fallback impls keep code using the struct free of follow-on errors.
    let _ = SameList::default().with_id(3);
}
