// Only strings and bytes have a compact form a field could opt out of.

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "2+")]
pub struct FlexibleOverrideNotString {
    #[kafka(versions = "0+", flexible = "none")]
    pub count: i32,
}

fn main() {}
