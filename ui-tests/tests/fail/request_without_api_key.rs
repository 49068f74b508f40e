// Requests are dispatched on their API key.

#[derive(kwire::Message)]
#[kafka(kind = request, versions = "0-3", listeners = "broker")]
pub struct NoApiKeyRequest {
    #[kafka(versions = "0+")]
    pub count: i32,
}

fn main() {}
