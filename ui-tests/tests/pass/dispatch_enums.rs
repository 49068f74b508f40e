// A user's own messages, dispatched by API key through derived enums.

use kwire::{ApiRequest, KafkaString, Message, MessageEnum};

/// Asks for a greeting.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = request, response = HelloResponse, versions = "0-1", flexible = "1+")]
pub struct HelloRequest {
    /// Who asks.
    #[kafka(versions = "0+")]
    pub name: KafkaString,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

/// The greeting.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = response, versions = "0-1", flexible = "1+")]
pub struct HelloResponse {
    /// The words.
    #[kafka(versions = "0+")]
    pub greeting: KafkaString,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

/// Asks for the time.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1001, kind = request, response = TimeResponse, versions = "0")]
pub struct TimeRequest {}

/// The time.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1001, kind = response, versions = "0")]
pub struct TimeResponse {
    /// Milliseconds since the epoch.
    #[kafka(versions = "0+")]
    pub now_ms: i64,
}

#[derive(Debug, Clone, PartialEq, kwire::RequestEnum)]
pub enum MyRequest {
    Hello(HelloRequest),
    Time(TimeRequest),
}

#[derive(Debug, Clone, PartialEq, kwire::ResponseEnum)]
pub enum MyResponse {
    Hello(HelloResponse),
    Time(TimeResponse),
}

/// Generic client code names the answer to a request by its type.
fn answer_name<R: ApiRequest>() -> &'static str {
    <R::Response as Message>::SCHEMA.name
}

fn main() {
    assert_eq!(answer_name::<HelloRequest>(), "HelloResponse");
    assert_eq!(MyRequest::SCHEMAS.len(), 2);
    assert_eq!(MyRequest::schema_of(1001).unwrap().name, "TimeRequest");

    let hello = HelloRequest::default().with_name("u03".into());
    let bytes = hello.encode(1).unwrap();
    let request = MyRequest::decode(1000, 1, &bytes).unwrap();
    assert_eq!(request, MyRequest::from(hello));
    assert_eq!(request.api_key(), 1000);
    assert_eq!(request.encode(1).unwrap(), bytes);
    assert_eq!(request.encoded_size(1).unwrap(), bytes.len());

    let time = MyResponse::from(TimeResponse::default().with_now_ms(7));
    let bytes = time.encode(0).unwrap();
    assert_eq!(MyResponse::decode(1001, 0, &bytes).unwrap(), time);
    assert!(MyResponse::decode(1002, 0, &bytes).is_err());
    assert!(MyResponse::decode(1000, 0, &bytes).is_err());
}
