//! InitProducerId: idempotent producers here; transactional ones through the
//! transaction coordinator (`handlers/transactions.rs`).

use std::sync::atomic::Ordering;

use kwire_messages::{api::InitProducerIdRequest, api::InitProducerIdResponse};

use crate::handlers::transactions;
use crate::Broker;

pub fn answer(
    broker: &Broker,
    request: InitProducerIdRequest,
    version: i16,
) -> InitProducerIdResponse {
    if let Some(id) = &request.transactional_id {
        return transactions::init_producer_id(broker, &request, id.as_str(), version);
    }
    let mut response = InitProducerIdResponse::default();
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
