// Kafka's message types are request, response, header and data.

#[derive(kwire::Message)]
#[kafka(kind = event, versions = "0-3")]
pub struct InvalidKind {
    #[kafka(versions = "0+")]
    pub count: i32,
}

fn main() {}
