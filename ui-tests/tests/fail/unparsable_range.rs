// Version ranges are `N`, `N+`, `N-M` or `none`.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct UnparsableRange {
    #[kafka(versions = "3++")]
    pub plus_plus: i32,
    #[kafka(versions = "x")]
    pub letter: i32,
}

fn main() {}
