//! What the [API table](super) expands to. The table names each
//! API once; everything else about it (its key, versions, listeners, header
//! versions) is read from its request and response types' schemas, so nothing here
//! can drift from the structs.

/// Expands the API table: `Name = module::{NameRequest, NameResponse}`, optionally
/// followed by `with response_header_v0`, one entry per API.
macro_rules! api_table {
    ($(
        $api:ident = $module:ident::{$request:ident, $response:ident $(,)?}
        $(with $rule:ident)?
    ),* $(,)?) => {
        /// Every request and response, re-exported as [`crate::api`]'s own items.
        pub mod requests_and_responses {
            $(
                pub use $crate::api::$module::{$request, $response};
            )*
        }
        use requests_and_responses::*;

        // The table pairs each request with the response its type names.
        const _: fn() = || {
            fn same<T>(_: ::core::marker::PhantomData<T>, _: ::core::marker::PhantomData<T>) {}
            $(
                same(
                    ::core::marker::PhantomData::<
                        <$request as ::kwire::ApiRequest>::Response,
                    >,
                    ::core::marker::PhantomData::<$response>,
                );
            )*
        };

        /// Every live Kafka API, by key. Its versions, listeners and header
        /// versions are read from its request's schema.
        ///
        /// ```
        /// use kwire_messages::{ApiKey, ApiKeyError};
        ///
        /// let key = ApiKey::try_from(18).unwrap();
        /// assert_eq!(key, ApiKey::ApiVersions);
        /// assert_eq!(key.name(), "ApiVersions");
        /// assert_eq!(key.response_header_version(3), 0);
        /// assert_eq!(ApiKey::Metadata.request_header_version(12), 2);
        /// assert!(matches!(ApiKey::try_from(5), Err(ApiKeyError::Retired { .. })));
        /// assert!(matches!(ApiKey::try_from(999), Err(ApiKeyError::Unknown(999))));
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        #[repr(i16)]
        pub enum ApiKey {
            $(
                #[doc = concat!(
                    "[`", stringify!($request), "`] and [`", stringify!($response), "`]."
                )]
                $api = ::kwire::dispatch::api_key_of(
                    &<$request as ::kwire::Message>::SCHEMA,
                ),
            )*
        }

        impl ApiKey {
            /// Every API, in key order.
            pub const ALL: &'static [ApiKey] = &[$(ApiKey::$api),*];

            /// The API's name, e.g. `"ApiVersions"`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(ApiKey::$api => stringify!($api),)*
                }
            }

            /// The request's schema.
            pub const fn request_schema(self) -> &'static ::kwire::schema::MessageSchema {
                match self {
                    $(ApiKey::$api => &<$request as ::kwire::Message>::SCHEMA,)*
                }
            }

            /// The response's schema.
            pub const fn response_schema(self) -> &'static ::kwire::schema::MessageSchema {
                match self {
                    $(ApiKey::$api => &<$response as ::kwire::Message>::SCHEMA,)*
                }
            }

            /// The header version of a response at `version`: 1 when the body is
            /// flexible, 0 otherwise, and 0 always where the table says so.
            pub const fn response_header_version(self, version: i16) -> i16 {
                let always_v0 = match self {
                    $(ApiKey::$api => api_table!(@always_v0 $($rule)?),)*
                };
                $crate::header::response_version_for(self.request_schema(), version, always_v0)
            }
        }

        /// Any Kafka request, decoded by API key.
        ///
        /// ```
        /// use kwire::{Message, MessageEnum};
        /// use kwire_messages::{ApiKey, api::ApiVersionsRequest, Request};
        ///
        /// let bytes = ApiVersionsRequest::default().encode(3).unwrap();
        /// let request = Request::decode(18, 3, &bytes).unwrap();
        /// assert_eq!(request.api(), ApiKey::ApiVersions);
        /// assert_eq!(request.encode(3).unwrap(), bytes);
        /// ```
        #[derive(Debug, Clone, PartialEq, ::kwire::RequestEnum)]
        #[non_exhaustive]
        pub enum Request {
            $(
                #[doc = concat!("[`", stringify!($request), "`].")]
                $api($request),
            )*
        }

        /// Any Kafka response, decoded by API key.
        ///
        /// ```
        /// use kwire::{Message, MessageEnum};
        /// use kwire_messages::{ApiKey, api::HeartbeatResponse, Response};
        ///
        /// let bytes = HeartbeatResponse::default().with_error_code(27).encode(4).unwrap();
        /// let response = Response::decode(12, 4, &bytes).unwrap();
        /// assert_eq!(response.api(), ApiKey::Heartbeat);
        /// assert!(matches!(response, Response::Heartbeat(ref r) if r.error_code == 27));
        /// ```
        #[derive(Debug, Clone, PartialEq, ::kwire::ResponseEnum)]
        #[non_exhaustive]
        pub enum Response {
            $(
                #[doc = concat!("[`", stringify!($response), "`].")]
                $api($response),
            )*
        }

        impl Request {
            /// The API of the request held.
            pub const fn api(&self) -> ApiKey {
                match self {
                    $(Request::$api(_) => ApiKey::$api,)*
                }
            }
        }

        impl Response {
            /// The API of the response held.
            pub const fn api(&self) -> ApiKey {
                match self {
                    $(Response::$api(_) => ApiKey::$api,)*
                }
            }
        }

        /// Visits every API's request and then its response, in key order.
        pub(crate) fn visit_apis(visitor: &mut impl $crate::registry::MessageVisitor) {
            $(
                visitor.visit::<$request>();
                visitor.visit::<$response>();
            )*
        }
    };
    (@always_v0) => { false };
    (@always_v0 response_header_v0) => { true };
}
