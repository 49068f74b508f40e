// `Option<i32>` is no Kafka type: Kafka has no null int32. One error says so.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct OptionOfInt {
    #[kafka(versions = "0+")]
    pub count: Option<i32>,
}

fn main() {}
