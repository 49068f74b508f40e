//! The client connection against a broker played in this test over an in-memory
//! stream: negotiation (and its fallback), typed round trips, pipelining with
//! answers out of order, timeouts, a broker that closes or breaks the protocol,
//! SASL logins (good, refused, unsupported) and re-login before the session ends.
//!
//! Time is tokio's paused clock: waits pass when every task is idle, so nothing
//! here depends on the machine's speed.
#![cfg(feature = "client")]

mod fake_broker;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use fake_broker::{heartbeat, users, Broker};
use kwire_messages::api::{HeartbeatResponse, LeaveGroupRequest, SyncGroupRequest};
use kwire_messages::{ApiKey, ErrorCode};
use kwire_net::client::{ClientError, ConnectOptions, Connection, Login};
use kwire_net::negotiation::NegotiationError;
use kwire_net::sasl::ScramHash;

/// A connection to `broker`, played on its own task.
async fn connect(broker: Broker, options: ConnectOptions) -> Result<Connection, ClientError> {
    let (client, server) = tokio::io::duplex(1 << 20);
    tokio::spawn(broker.serve(server));
    Connection::over(client, options).await
}

#[tokio::test(start_paused = true)]
async fn negotiates_and_answers_in_the_requests_own_type() {
    let connection = connect(Broker::default(), ConnectOptions::new())
        .await
        .unwrap();
    let version = connection.version(ApiKey::Heartbeat).unwrap();
    assert_eq!(
        Some(version),
        ApiKey::Heartbeat.stable_versions().map(|(_, max)| max)
    );
    let answer: HeartbeatResponse = connection.send(heartbeat(7)).await.unwrap();
    assert_eq!(answer.error_code, 7);
    assert_eq!(
        ErrorCode::check(answer.error_code),
        Err(ErrorCode::from_code(7))
    );
}

#[tokio::test(start_paused = true)]
async fn falls_back_to_the_api_versions_version_the_broker_knows() {
    let broker = Broker {
        api_versions_max: Some(2),
        ..Broker::default()
    };
    let asked = broker.asked.clone();
    let connection = connect(broker, ConnectOptions::new()).await.unwrap();
    let first = kwire_net::negotiation::first_api_versions_version();
    assert_eq!(*asked.lock().unwrap(), [first, 2]);
    connection.send(heartbeat(1)).await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn an_api_the_broker_does_not_offer_is_a_negotiation_error_naming_it() {
    let broker = Broker {
        hidden: vec![ApiKey::Heartbeat],
        ..Broker::default()
    };
    let connection = connect(broker, ConnectOptions::new()).await.unwrap();
    let error = connection.send(heartbeat(1)).await.unwrap_err();
    assert!(
        matches!(
            error,
            ClientError::Negotiation(NegotiationError::NotOffered {
                api: ApiKey::Heartbeat
            })
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("Heartbeat"), "{error}");
}

#[tokio::test(start_paused = true)]
async fn many_requests_in_flight_each_get_their_own_answer_in_any_order() {
    let connection = Arc::new(
        connect(Broker::default(), ConnectOptions::new())
            .await
            .unwrap(),
    );
    // Later requests are answered sooner.
    let calls = (0..20).map(|i| {
        let connection = connection.clone();
        let delay = 2000 - i * 100 + i; // last two digits: i
        tokio::spawn(async move { (i, connection.send(heartbeat(delay)).await) })
    });
    for call in calls.collect::<Vec<_>>() {
        let (i, answer) = call.await.unwrap();
        assert_eq!(answer.unwrap().error_code, i as i16);
    }
}

#[tokio::test(start_paused = true)]
async fn a_request_not_answered_in_time_fails_and_closes_the_connection() {
    let options = ConnectOptions::new().with_request_timeout(Duration::from_secs(3));
    let connection = connect(Broker::default(), options).await.unwrap();
    let error = connection.send(heartbeat(-1)).await.unwrap_err();
    assert!(
        matches!(error, ClientError::Timeout { api: ApiKey::Heartbeat, after, .. } if after == Duration::from_secs(3)),
        "{error:?}"
    );
    let after = connection.send(heartbeat(1)).await.unwrap_err();
    assert!(
        matches!(&after, ClientError::Closed { reason } if reason.contains("not answered within")),
        "{after:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_broker_that_closes_fails_every_request_in_flight() {
    let connection = Arc::new(
        connect(Broker::default(), ConnectOptions::new())
            .await
            .unwrap(),
    );
    let waiting = {
        let connection = connection.clone();
        tokio::spawn(async move { connection.send(heartbeat(5_000)).await })
    };
    tokio::time::sleep(Duration::from_millis(10)).await;
    let leave = connection
        .send(LeaveGroupRequest::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&leave, ClientError::Closed { reason } if reason.contains("closed the connection")),
        "{leave:?}"
    );
    let waited = waiting.await.unwrap().unwrap_err();
    assert!(matches!(waited, ClientError::Closed { .. }), "{waited:?}");
}

#[tokio::test(start_paused = true)]
async fn an_answer_to_no_request_closes_the_connection() {
    let connection = connect(Broker::default(), ConnectOptions::new())
        .await
        .unwrap();
    let error = connection
        .send(SyncGroupRequest::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ClientError::Closed { reason } if reason.contains("no request in flight")),
        "{error:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn logs_in_with_each_mechanism() {
    for login in [
        Login::plain("alice", "alice-secret"),
        Login::scram(ScramHash::Sha256, "alice", "alice-secret"),
        Login::scram(ScramHash::Sha512, "alice", "alice-secret"),
    ] {
        let broker = Broker {
            sasl: Some((users(), None)),
            ..Broker::default()
        };
        let options = ConnectOptions::new().with_login(login.clone());
        let connection = connect(broker, options).await.unwrap();
        assert_eq!(
            connection.send(heartbeat(3)).await.unwrap().error_code,
            3,
            "{login:?}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_wrong_password_is_the_brokers_authentication_error() {
    let broker = Broker {
        sasl: Some((users(), None)),
        ..Broker::default()
    };
    let login = Login::scram(ScramHash::Sha512, "alice", "not-her-secret");
    let error = connect(broker, ConnectOptions::new().with_login(login))
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            ClientError::Authentication {
                code: ErrorCode::SaslAuthenticationFailed,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_unauthenticated_request_is_never_answered() {
    let broker = Broker {
        sasl: Some((users(), None)),
        ..Broker::default()
    };
    let connection = connect(broker, ConnectOptions::new()).await.unwrap();
    let error = connection.send(heartbeat(1)).await.unwrap_err();
    assert!(matches!(error, ClientError::Closed { .. }), "{error:?}");
}

#[tokio::test(start_paused = true)]
async fn logs_in_again_before_the_session_ends() {
    let logins = Arc::new(AtomicUsize::new(0));
    let broker = Broker {
        sasl: Some((users(), Some(Duration::from_secs(10)))),
        logins: logins.clone(),
        ..Broker::default()
    };
    let login = Login::scram(ScramHash::Sha256, "alice", "alice-secret");
    let connection = connect(broker, ConnectOptions::new().with_login(login))
        .await
        .unwrap();
    assert_eq!(logins.load(Ordering::SeqCst), 1);
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert_eq!(connection.send(heartbeat(2)).await.unwrap().error_code, 2);
    }
    // 25 s with sessions of 10 s: logged in again before the requests at 10 s
    // and at 20 s, the first ones past 90 % of a session.
    assert!(
        logins.load(Ordering::SeqCst) >= 3,
        "{}",
        logins.load(Ordering::SeqCst)
    );
}

#[tokio::test(start_paused = true)]
async fn a_slow_answer_does_not_eat_the_sessions_margin() {
    // Sessions of 3 s, each login answer 500 ms on its way: the broker's clock
    // starts when it reads the last login request, half a second before the
    // client reads the answer. Renewing 90 % after the answer came would be
    // 200 ms too late; the broker closes on the first request after the end.
    let broker = Broker {
        sasl: Some((users(), Some(Duration::from_secs(3)))),
        sasl_answer_delay: Some(Duration::from_millis(500)),
        ..Broker::default()
    };
    let logins = broker.logins.clone();
    let login = Login::scram(ScramHash::Sha256, "alice", "alice-secret");
    let connection = connect(broker, ConnectOptions::new().with_login(login))
        .await
        .unwrap();
    for asked in 0..40 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let answer = connection.send(heartbeat(1)).await;
        assert_eq!(
            answer.map(|a| a.error_code).ok(),
            Some(1),
            "request {asked}"
        );
    }
    assert!(
        logins.load(Ordering::SeqCst) >= 3,
        "{}",
        logins.load(Ordering::SeqCst)
    );
}

#[tokio::test(start_paused = true)]
async fn a_session_that_lapsed_while_idle_is_renewed_before_the_next_request() {
    let broker = Broker {
        sasl: Some((users(), Some(Duration::from_secs(3)))),
        ..Broker::default()
    };
    let logins = broker.logins.clone();
    let login = Login::scram(ScramHash::Sha512, "alice", "alice-secret");
    let connection = connect(broker, ConnectOptions::new().with_login(login))
        .await
        .unwrap();
    // Idle for three sessions: nothing is sent, nothing closes.
    tokio::time::sleep(Duration::from_secs(9)).await;
    assert_eq!(connection.send(heartbeat(4)).await.unwrap().error_code, 4);
    assert_eq!(logins.load(Ordering::SeqCst), 2);
}

#[tokio::test(start_paused = true)]
async fn a_produce_with_acks_0_waits_for_no_answer() {
    use kwire_messages::api::ProduceRequest;

    let broker = Broker::default();
    let read = broker.unanswered_produces.clone();
    let options = ConnectOptions::new().with_request_timeout(Duration::from_secs(1));
    let connection = connect(broker, options).await.unwrap();
    let started = tokio::time::Instant::now();
    for _ in 0..3 {
        let answer = connection
            .send(ProduceRequest::default().with_acks(0))
            .await
            .unwrap();
        assert!(answer.responses.is_empty(), "{answer:?}");
    }
    // Nothing waited for the request timeout, and the connection is open: the
    // heartbeat after them is answered, so the broker read all three first.
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(connection.send(heartbeat(3)).await.unwrap().error_code, 3);
    assert_eq!(read.load(Ordering::SeqCst), 3);
}

#[tokio::test(start_paused = true)]
async fn a_strict_connection_refuses_to_drop_a_topic_name_at_produce_v13() {
    use kwire_messages::api::produce::TopicProduceData;
    use kwire_messages::api::ProduceRequest;

    // acks = -1: answered (the broker played here closes instead).
    let named = || {
        ProduceRequest::default()
            .with_acks(-1)
            .with_topic_data(vec![TopicProduceData::default().with_name("seats".into())])
    };
    let connection = connect(Broker::default(), ConnectOptions::new())
        .await
        .unwrap();
    let error = connection.send_at(named(), 13).await.unwrap_err();
    let ClientError::WouldDrop(dropped) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(
        dropped.kind(),
        &kwire::EncodeErrorKind::IgnorableFieldDropped { version: 13 }
    );
    assert_eq!(
        dropped.path().to_string(),
        "ProduceRequest.TopicData[0].Name"
    );
    assert!(error.to_string().contains("TopicData[0].Name"), "{error}");
    // Nothing was sent: the connection still answers.
    assert_eq!(connection.send(heartbeat(1)).await.unwrap().error_code, 1);
    // Not strict: sent as Kafka's rules have it, the name dropped (the broker
    // played here does not serve Produce, so its end is a closed connection).
    let lenient = ConnectOptions::new().with_strict_encoding(false);
    let connection = connect(Broker::default(), lenient).await.unwrap();
    let sent = connection.send_at(named(), 13).await.unwrap_err();
    assert!(!matches!(sent, ClientError::WouldDrop(_)), "{sent:?}");
}
