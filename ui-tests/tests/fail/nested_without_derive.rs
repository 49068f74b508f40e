// A struct used as a field must derive `kwire::Struct`: one error says so, on
// the whole field type.

#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub x: i32,
}

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct Shape {
    #[kafka(versions = "0+")]
    pub corners: Vec<Point>,
}

fn main() {}
