//! FindCoordinator and the classic group protocol's requests; the state machine
//! is in `groups.rs`.

use std::time::Instant;

use kwire::KafkaString;
use kwire_messages::api::find_coordinator::Coordinator;
use kwire_messages::api::join_group::JoinGroupResponseMember;
use kwire_messages::api::leave_group::MemberResponse;
use kwire_messages::ErrorCode;
use kwire_messages::{
    api::FindCoordinatorRequest, api::FindCoordinatorResponse, api::HeartbeatRequest,
    api::HeartbeatResponse, api::JoinGroupRequest, api::JoinGroupResponse, api::LeaveGroupRequest,
    api::LeaveGroupResponse, api::SyncGroupRequest, api::SyncGroupResponse,
};

use crate::groups::{JoinOutcome, JoinParams, Reply, SyncOutcome};
use crate::Broker;

/// Key type 0 is a group, 1 a transactional ID: this broker coordinates both.
/// (2, share groups, it does not serve.)
const GROUP_KEY: i8 = 0;
const TRANSACTION_KEY: i8 = 1;

pub fn find(
    broker: &Broker,
    request: FindCoordinatorRequest,
    version: i16,
) -> FindCoordinatorResponse {
    let config = &broker.config;
    let error = if request.key_type == GROUP_KEY || request.key_type == TRANSACTION_KEY {
        ErrorCode::None
    } else {
        ErrorCode::CoordinatorNotAvailable
    };
    let mut response = FindCoordinatorResponse::default();
    // One row per key, each the key and our address: the answer grows with
    // the request's own size only.
    // v4 batches keys; earlier versions ask for one.
    if version >= 4 {
        response.coordinators = request
            .coordinator_keys
            .into_iter()
            .map(|key| {
                let mut coordinator = Coordinator::default();
                coordinator.key = key;
                coordinator.error_code = error.code();
                if error == ErrorCode::None {
                    coordinator.node_id = config.node_id;
                    coordinator.host = config.host.clone();
                    coordinator.port = config.port;
                } else {
                    coordinator.node_id = -1;
                    coordinator.port = -1;
                }
                coordinator
            })
            .collect();
    } else if error == ErrorCode::None {
        response.node_id = config.node_id;
        response.host = config.host.clone();
        response.port = config.port;
    } else {
        response.error_code = error.code();
        response.node_id = -1;
        response.port = -1;
    }
    response
}

pub async fn join(
    broker: &Broker,
    request: JoinGroupRequest,
    version: i16,
    client_id: &str,
) -> JoinGroupResponse {
    let params = JoinParams {
        group_id: request.group_id.as_str().to_owned(),
        member_id: request.member_id.as_str().to_owned(),
        group_instance_id: request.group_instance_id.map(|id| id.as_str().to_owned()),
        client_id: client_id.to_owned(),
        session_timeout_ms: request.session_timeout_ms,
        // v0 has no rebalance timeout: Kafka uses the session timeout.
        rebalance_timeout_ms: if version == 0 {
            request.session_timeout_ms
        } else {
            request.rebalance_timeout_ms
        },
        protocol_type: request.protocol_type.as_str().to_owned(),
        protocols: request
            .protocols
            .into_iter()
            .map(|p| (p.name.as_str().to_owned(), p.metadata))
            .collect(),
        member_id_required: version >= 4,
        group_max_size: broker.config.limits.group_max_size.max(0) as usize,
    };
    let member_id = params.member_id.clone();
    let reply = broker.groups().join(params, Instant::now());
    let outcome = match reply {
        Reply::Now(outcome) => outcome,
        Reply::Later(receiver) => receiver.await.unwrap_or_else(|_| JoinOutcome {
            error: ErrorCode::UnknownMemberId,
            generation: -1,
            protocol_type: None,
            protocol_name: None,
            leader: String::new(),
            member_id,
            members: Vec::new(),
        }),
    };
    let mut response = JoinGroupResponse::default();
    response.error_code = outcome.error.code();
    response.generation_id = outcome.generation;
    response.protocol_type = outcome.protocol_type.map(KafkaString::from);
    // Before v7 the protocol name is not nullable: "" when there is none.
    response.protocol_name = Some(KafkaString::from(outcome.protocol_name.unwrap_or_default()));
    response.leader = outcome.leader.into();
    response.member_id = outcome.member_id.into();
    response.members = outcome
        .members
        .into_iter()
        .map(|(id, instance, metadata)| {
            let mut member = JoinGroupResponseMember::default();
            member.member_id = id.into();
            member.group_instance_id = instance.map(KafkaString::from);
            member.metadata = metadata;
            member
        })
        .collect();
    response
}

pub async fn sync(broker: &Broker, request: SyncGroupRequest) -> SyncGroupResponse {
    // The leader's assignments are kept as sent (shared `Bytes`) and each
    // member gets its own back: nothing is multiplied by the member count.
    let assignments = request
        .assignments
        .into_iter()
        .map(|a| (a.member_id.as_str().to_owned(), a.assignment))
        .collect();
    let reply = broker.groups().sync(
        request.group_id.as_str(),
        request.generation_id,
        request.member_id.as_str(),
        request.protocol_type.as_ref().map(|p| p.as_str()),
        request.protocol_name.as_ref().map(|p| p.as_str()),
        assignments,
        Instant::now(),
    );
    let outcome = match reply {
        Reply::Now(outcome) => outcome,
        Reply::Later(receiver) => receiver.await.unwrap_or(SyncOutcome {
            error: ErrorCode::UnknownMemberId,
            protocol_type: None,
            protocol_name: None,
            assignment: Default::default(),
        }),
    };
    let mut response = SyncGroupResponse::default();
    response.error_code = outcome.error.code();
    response.protocol_type = outcome.protocol_type.map(KafkaString::from);
    response.protocol_name = outcome.protocol_name.map(KafkaString::from);
    response.assignment = outcome.assignment;
    response
}

pub fn heartbeat(broker: &Broker, request: HeartbeatRequest) -> HeartbeatResponse {
    let error = broker.groups().heartbeat(
        request.group_id.as_str(),
        request.generation_id,
        request.member_id.as_str(),
        Instant::now(),
    );
    let mut response = HeartbeatResponse::default();
    response.error_code = error.code();
    response
}

pub fn leave(broker: &Broker, request: LeaveGroupRequest, version: i16) -> LeaveGroupResponse {
    // v3 batches members; earlier versions name one. Each is looked up among
    // at most `--group-max-size` members and answered by a fixed-size row.
    let members: Vec<String> = if version >= 3 {
        request
            .members
            .iter()
            .map(|m| m.member_id.as_str().to_owned())
            .collect()
    } else {
        vec![request.member_id.as_str().to_owned()]
    };
    let errors = broker
        .groups()
        .leave(request.group_id.as_str(), &members, Instant::now());
    let mut response = LeaveGroupResponse::default();
    if version >= 3 {
        response.members = request
            .members
            .into_iter()
            .zip(&errors)
            .map(|(m, error)| {
                let mut answer = MemberResponse::default();
                answer.member_id = m.member_id;
                answer.group_instance_id = m.group_instance_id;
                answer.error_code = error.code();
                answer
            })
            .collect();
    } else {
        response.error_code = errors.first().copied().unwrap_or(ErrorCode::None).code();
    }
    response
}
