// A flexible message must keep the tags a newer peer sends (KIP-482): without a
// field for them, the first such tag would fail to decode.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "2+")]
pub struct ForgetsTags {
    #[kafka(versions = "0+")]
    pub id: i32,
}

fn main() {}
