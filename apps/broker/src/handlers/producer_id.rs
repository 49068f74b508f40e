//! InitProducerId for idempotent producers. Transactions are not served: a
//! transactional ID gets COORDINATOR_NOT_AVAILABLE, as FindCoordinator does for a
//! transaction key.

use std::sync::atomic::Ordering;

use kwire_messages::ErrorCode;
use kwire_messages::{api::InitProducerIdRequest, api::InitProducerIdResponse};

use crate::Broker;

pub fn answer(broker: &Broker, request: InitProducerIdRequest) -> InitProducerIdResponse {
    let mut response = InitProducerIdResponse::default();
    if request.transactional_id.is_some() {
        response.error_code = ErrorCode::CoordinatorNotAvailable.code();
        response.producer_id = -1;
        response.producer_epoch = -1;
        return response;
    }
    // KIP-360: a producer that already has an ID asks for its epoch to be bumped.
    if request.producer_id >= 0 && request.producer_epoch >= 0 {
        response.producer_id = request.producer_id;
        response.producer_epoch = request.producer_epoch.wrapping_add(1).max(0);
    } else {
        response.producer_id = broker.next_producer_id.fetch_add(1, Ordering::Relaxed);
        response.producer_epoch = 0;
    }
    response
}
