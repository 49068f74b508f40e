//! The classic consumer group protocol against Kafka's group coordinator: the
//! coordinator found at every FindCoordinator version; a member joins (asked
//! for its member id first, KIP-394), leads, assigns and heartbeats; offsets
//! committed at every OffsetCommit version and read back at every OffsetFetch
//! version; a second member (on its own connection: Kafka answers one request
//! per connection at a time, and a JoinGroup waits for the rebalance) makes the
//! group rebalance; both leave and the group is empty, its offsets kept.

use bytes::{BufMut, Bytes, BytesMut};
use kwire::{KafkaString, Message};
use kwire_messages::api::join_group::JoinGroupRequestProtocol;
use kwire_messages::api::leave_group::MemberIdentity;
use kwire_messages::api::offset_commit::{OffsetCommitRequestPartition, OffsetCommitRequestTopic};
use kwire_messages::api::offset_fetch::{
    OffsetFetchRequestGroup, OffsetFetchRequestTopic, OffsetFetchRequestTopics,
};
use kwire_messages::api::sync_group::SyncGroupRequestAssignment;
use kwire_messages::api::{
    DescribeGroupsRequest, FindCoordinatorRequest, FindCoordinatorResponse, HeartbeatRequest,
    JoinGroupRequest, JoinGroupResponse, LeaveGroupRequest, OffsetCommitRequest,
    OffsetFetchRequest, SyncGroupRequest,
};
use kwire_messages::data::consumer_protocol_assignment::{self, ConsumerProtocolAssignment};
use kwire_messages::data::consumer_protocol_subscription::ConsumerProtocolSubscription;
use kwire_messages::{ApiKey, ErrorCode};
use kwire_net::client::{ConnectOptions, Connection};
use kwire_tests::kafka_peer::report::Report;

use crate::support::{
    common_versions, create_topic, ensure, no_error, retried, unique, Failure, Outcome, Topic,
};

/// The version of the consumer protocol's subscription and assignment written.
const CONSUMER_PROTOCOL: i16 = 3;

/// The group's members, while it has them.
struct Member {
    connection: Connection,
    id: KafkaString,
    generation: i32,
}

/// `address`: the listener `kafka` is connected to, which FindCoordinator must
/// name (one node leads everything) and the members connect to.
pub async fn run(kafka: &Connection, address: &str, report: &mut Report, run: &str) {
    let group = unique("group", run);
    report.record(
        "groups",
        "FindCoordinator for a group, every version",
        find_coordinator(kafka, address, &group).await,
    );
    let topic = match create_topic(kafka, &unique("group", run), 2, &[]).await {
        Ok(topic) => topic,
        Err(error) => {
            report.record("groups", "the topic", Err(error));
            return;
        }
    };
    let mut first = None;
    report.record(
        "groups",
        "JoinGroup: member id asked for, then joined as leader",
        async {
            let connection = Connection::connect(address, options()).await?;
            let mut member = Member {
                connection,
                id: KafkaString::default(),
                generation: -1,
            };
            let joined = join(&mut member, &group, &topic).await?;
            ensure!(
                joined.leader == member.id && joined.members.len() == 1,
                "leader {:?} with {} members, expected this member alone",
                joined.leader.as_str(),
                joined.members.len()
            );
            let seen = format!(
                "member {}, generation {}, protocol {:?}",
                member.id.as_str(),
                member.generation,
                joined.protocol_name.as_ref().map(KafkaString::as_str)
            );
            first = Some((member, joined));
            Ok::<_, Failure>(seen)
        }
        .await,
    );
    let Some((mut a, joined)) = first else { return };
    report.record(
        "groups",
        "SyncGroup: the leader's assignment handed back",
        sync(&a, &group, &topic, &joined).await,
    );
    report.record("groups", "Heartbeat", heartbeat(&a, &group).await);
    report.record(
        "groups",
        "OffsetCommit at every version, read back at once",
        commit_every_version(kafka, &a, &group, &topic).await,
    );
    report.record(
        "groups",
        "OffsetFetch at every version",
        fetch_every_version(kafka, &group, &topic, last_commit(kafka)).await,
    );
    report.record(
        "groups",
        "a second member: the group rebalances to generation 2",
        rebalance(&mut a, address, &group, &topic).await,
    );
    report.record(
        "groups",
        "LeaveGroup: both leave, the group is empty, offsets kept",
        leave(kafka, &a, &group, &topic).await,
    );
}

fn options() -> ConnectOptions {
    ConnectOptions::new().with_client_id("kwire-group-member")
}

async fn find_coordinator(kafka: &Connection, address: &str, group: &str) -> Outcome {
    let versions = common_versions(kafka, ApiKey::FindCoordinator)?;
    let mut seen = Vec::new();
    for version in versions {
        let request = if version >= 4 {
            FindCoordinatorRequest::default().with_coordinator_keys(vec![group.into()])
        } else {
            FindCoordinatorRequest::default().with_key(group.into())
        };
        let answer = retried(
            || async { Ok(kafka.send_at(request.clone(), version).await?) },
            |answer: &FindCoordinatorResponse| {
                answer
                    .coordinators
                    .first()
                    .map_or(answer.error_code, |coordinator| coordinator.error_code)
            },
        )
        .await?;
        let (node, host, port) = match answer.coordinators.first() {
            Some(coordinator) if version >= 4 => {
                no_error(
                    &format!("FindCoordinator v{version}"),
                    coordinator.error_code,
                )?;
                (
                    coordinator.node_id,
                    coordinator.host.clone(),
                    coordinator.port,
                )
            }
            _ => {
                no_error(&format!("FindCoordinator v{version}"), answer.error_code)?;
                (answer.node_id, answer.host.clone(), answer.port)
            }
        };
        let at = format!("{}:{port}", host.as_str());
        ensure!(
            at == address,
            "FindCoordinator v{version} named {at}, not the listener asked"
        );
        seen.push(format!("v{version} node {node}"));
    }
    Ok(format!("{} at {address}", seen.join(", ")))
}

/// The subscription a member sends: the topic, as the consumer protocol writes it.
fn subscription(topic: &Topic) -> Result<Bytes, Failure> {
    let body = ConsumerProtocolSubscription::default()
        .with_topics(vec![topic.name.clone()])
        .encode(CONSUMER_PROTOCOL)?;
    let mut bytes = BytesMut::with_capacity(2 + body.len());
    bytes.put_i16(CONSUMER_PROTOCOL);
    bytes.put_slice(&body);
    Ok(bytes.freeze())
}

/// The assignment of `partitions` of the topic, as the consumer protocol writes it.
fn assignment(topic: &Topic, partitions: Vec<i32>) -> Result<Bytes, Failure> {
    let body = ConsumerProtocolAssignment::default()
        .with_assigned_partitions(vec![consumer_protocol_assignment::TopicPartition::default(
        )
        .with_topic(topic.name.clone())
        .with_partitions(partitions)])
        .encode(CONSUMER_PROTOCOL)?;
    let mut bytes = BytesMut::with_capacity(2 + body.len());
    bytes.put_i16(CONSUMER_PROTOCOL);
    bytes.put_slice(&body);
    Ok(bytes.freeze())
}

/// Joins (or joins again) the group. With no member id yet, Kafka answers
/// MEMBER_ID_REQUIRED with one (JoinGroup v4+), and the member asks again with it.
async fn join(
    member: &mut Member,
    group: &str,
    topic: &Topic,
) -> Result<JoinGroupResponse, Failure> {
    let version = member.connection.version(ApiKey::JoinGroup)?;
    let mut asked_for_id = false;
    // While the coordinator loads its partition of __consumer_offsets (50 of
    // them, the first time), Kafka answers COORDINATOR_LOAD_IN_PROGRESS, and
    // its clients ask again: 100 times at most, 100 ms apart.
    for _ in 0..100 {
        let request = JoinGroupRequest::default()
            .with_group_id(group.into())
            .with_session_timeout_ms(10_000)
            .with_rebalance_timeout_ms(10_000)
            .with_member_id(member.id.clone())
            .with_protocol_type("consumer".into())
            .with_protocols(vec![JoinGroupRequestProtocol::default()
                .with_name("range".into())
                .with_metadata(subscription(topic)?)]);
        let answer = member.connection.send(request).await?;
        match ErrorCode::from_code(answer.error_code) {
            ErrorCode::MemberIdRequired if !asked_for_id && version >= 4 => {
                ensure!(
                    !answer.member_id.is_empty(),
                    "MEMBER_ID_REQUIRED without a member id"
                );
                member.id = answer.member_id.clone();
                asked_for_id = true;
            }
            ErrorCode::CoordinatorLoadInProgress
            | ErrorCode::CoordinatorNotAvailable
            | ErrorCode::NotCoordinator => {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            ErrorCode::None => {
                ensure!(
                    answer.member_id == member.id,
                    "joined as {:?}, asked as {:?}",
                    answer.member_id.as_str(),
                    member.id.as_str()
                );
                member.generation = answer.generation_id;
                return Ok(answer);
            }
            error => return Err(format!("JoinGroup v{version} answered {error:?}").into()),
        }
    }
    Err("JoinGroup: the coordinator did not load in 10 s".into())
}

/// The leader assigns the partitions among the members in member order (range);
/// each member's SyncGroup hands its own share back.
fn plan(joined: &JoinGroupResponse, topic: &Topic) -> Result<Vec<(KafkaString, Bytes)>, Failure> {
    let mut members: Vec<KafkaString> =
        joined.members.iter().map(|m| m.member_id.clone()).collect();
    members.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    let count = members.len() as i32;
    members
        .into_iter()
        .enumerate()
        .map(|(index, member)| {
            let partitions = (0..2).filter(|p| p % count == index as i32).collect();
            Ok((member, assignment(topic, partitions)?))
        })
        .collect()
}

async fn sync_one(
    member: &Member,
    group: &str,
    assignments: Vec<SyncGroupRequestAssignment>,
) -> Result<Bytes, Failure> {
    let answer = member
        .connection
        .send(
            SyncGroupRequest::default()
                .with_group_id(group.into())
                .with_generation_id(member.generation)
                .with_member_id(member.id.clone())
                .with_protocol_type(Some("consumer".into()))
                .with_protocol_name(Some("range".into()))
                .with_assignments(assignments),
        )
        .await?;
    no_error("SyncGroup", answer.error_code)?;
    Ok(answer.assignment)
}

async fn sync(member: &Member, group: &str, topic: &Topic, joined: &JoinGroupResponse) -> Outcome {
    let plan = plan(joined, topic)?;
    let assignments = plan
        .iter()
        .map(|(id, bytes)| {
            SyncGroupRequestAssignment::default()
                .with_member_id(id.clone())
                .with_assignment(bytes.clone())
        })
        .collect();
    let got = sync_one(member, group, assignments).await?;
    ensure!(
        got == assignment(topic, vec![0, 1])?,
        "SyncGroup handed back {got:02x?}"
    );
    Ok("partitions 0 and 1, the bytes the leader sent".into())
}

async fn heartbeat(member: &Member, group: &str) -> Outcome {
    let answer = member
        .connection
        .send(
            HeartbeatRequest::default()
                .with_group_id(group.into())
                .with_generation_id(member.generation)
                .with_member_id(member.id.clone()),
        )
        .await?;
    no_error("Heartbeat", answer.error_code)?;
    Ok(format!("NONE at generation {}", member.generation))
}

/// The offset committed at `version`: distinct per version, so a read shows
/// which commit it saw.
fn offset_at(version: i16) -> i64 {
    1_000 + i64::from(version)
}

fn last_commit(kafka: &Connection) -> i16 {
    common_versions(kafka, ApiKey::OffsetCommit).map_or(-1, |versions| *versions.end())
}

async fn commit_every_version(
    kafka: &Connection,
    member: &Member,
    group: &str,
    topic: &Topic,
) -> Outcome {
    let versions = common_versions(kafka, ApiKey::OffsetCommit)?;
    let mut seen = Vec::new();
    for version in versions {
        // From v10 the topic is named by id (KIP-848).
        let (name, id) = if version >= 10 {
            (KafkaString::default(), topic.id)
        } else {
            (topic.name.clone(), kwire::Uuid::ZERO)
        };
        let request = OffsetCommitRequest::default()
            .with_group_id(group.into())
            .with_generation_id_or_member_epoch(member.generation)
            .with_member_id(member.id.clone())
            .with_topics(vec![OffsetCommitRequestTopic::default()
                .with_name(name)
                .with_topic_id(id)
                .with_partitions(vec![OffsetCommitRequestPartition::default()
                    .with_partition_index(0)
                    .with_committed_offset(offset_at(version))
                    .with_committed_metadata(Some(format!("v{version}").into()))])]);
        let answer = member.connection.send_at(request, version).await?;
        let codes: Vec<i16> = answer
            .topics
            .iter()
            .flat_map(|topic| &topic.partitions)
            .map(|partition| partition.error_code)
            .collect();
        ensure!(codes == [0], "OffsetCommit v{version} answered {codes:?}");
        let read = committed(kafka, group, topic, kafka.version(ApiKey::OffsetFetch)?).await?;
        ensure!(
            read == (offset_at(version), Some(format!("v{version}"))),
            "after OffsetCommit v{version}, OffsetFetch read {read:?}"
        );
        seen.push(format!("v{version}"));
    }
    Ok(format!(
        "{}: each offset and metadata read back",
        seen.join(" ")
    ))
}

/// The offset and metadata committed for the topic's partition 0, read at `version`.
async fn committed(
    kafka: &Connection,
    group: &str,
    topic: &Topic,
    version: i16,
) -> Result<(i64, Option<String>), Failure> {
    let request = if version >= 8 {
        let (name, id) = if version >= 10 {
            (KafkaString::default(), topic.id)
        } else {
            (topic.name.clone(), kwire::Uuid::ZERO)
        };
        OffsetFetchRequest::default().with_groups(vec![OffsetFetchRequestGroup::default()
            .with_group_id(group.into())
            .with_topics(Some(vec![OffsetFetchRequestTopics::default()
                .with_name(name)
                .with_topic_id(id)
                .with_partition_indexes(vec![0])]))])
    } else {
        OffsetFetchRequest::default()
            .with_group_id(group.into())
            .with_topics(Some(vec![OffsetFetchRequestTopic::default()
                .with_name(topic.name.clone())
                .with_partition_indexes(vec![0])]))
    };
    let answer = kafka.send_at(request, version).await?;
    let text = |m: &Option<KafkaString>| m.as_ref().map(|m| m.as_str().to_owned());
    if version >= 8 {
        let [group_answer] = &answer.groups[..] else {
            return Err(format!(
                "OffsetFetch v{version} answered {} groups",
                answer.groups.len()
            )
            .into());
        };
        no_error(&format!("OffsetFetch v{version}"), group_answer.error_code)?;
        let partition = group_answer
            .topics
            .iter()
            .flat_map(|t| &t.partitions)
            .next()
            .ok_or("OffsetFetch answered no partition")?;
        no_error(&format!("OffsetFetch v{version}"), partition.error_code)?;
        Ok((partition.committed_offset, text(&partition.metadata)))
    } else {
        no_error(&format!("OffsetFetch v{version}"), answer.error_code)?;
        let partition = answer
            .topics
            .iter()
            .flat_map(|t| &t.partitions)
            .next()
            .ok_or("OffsetFetch answered no partition")?;
        no_error(&format!("OffsetFetch v{version}"), partition.error_code)?;
        Ok((partition.committed_offset, text(&partition.metadata)))
    }
}

async fn fetch_every_version(kafka: &Connection, group: &str, topic: &Topic, last: i16) -> Outcome {
    let want = (offset_at(last), Some(format!("v{last}")));
    let versions = common_versions(kafka, ApiKey::OffsetFetch)?;
    for version in versions.clone() {
        let read = committed(kafka, group, topic, version).await?;
        ensure!(
            read == want,
            "OffsetFetch v{version} read {read:?}, expected {want:?}"
        );
    }
    Ok(format!(
        "v{}-v{}: offset {} with metadata {:?}",
        versions.start(),
        versions.end(),
        want.0,
        want.1.unwrap_or_default()
    ))
}

/// A second member joins: its JoinGroup waits while the first learns of the
/// rebalance from its Heartbeat and joins again; both are in generation 2, the
/// leader gives each one partition, and each SyncGroup hands back its own.
async fn rebalance(a: &mut Member, address: &str, group: &str, topic: &Topic) -> Outcome {
    let connection = Connection::connect(address, options()).await?;
    let mut b = Member {
        connection,
        id: KafkaString::default(),
        generation: -1,
    };
    let first_generation = a.generation;
    let b_joins = join(&mut b, group, topic);
    let a_rejoins = async {
        // Heartbeats until Kafka says the group rebalances: 100 at most.
        for _ in 0..100 {
            let answer = a
                .connection
                .send(
                    HeartbeatRequest::default()
                        .with_group_id(group.into())
                        .with_generation_id(a.generation)
                        .with_member_id(a.id.clone()),
                )
                .await?;
            match ErrorCode::from_code(answer.error_code) {
                ErrorCode::None => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
                ErrorCode::RebalanceInProgress => return join(a, group, topic).await,
                error => return Err(format!("Heartbeat answered {error:?}").into()),
            }
        }
        Err::<JoinGroupResponse, Failure>("no rebalance within 100 heartbeats".into())
    };
    let (b_joined, a_joined) = tokio::join!(b_joins, a_rejoins);
    let (b_joined, a_joined) = (b_joined?, a_joined?);
    ensure!(
        a.generation == b.generation && a.generation == first_generation + 1,
        "generations {} and {}, expected {}",
        a.generation,
        b.generation,
        first_generation + 1
    );
    let (leader, follower, joined) = if a_joined.leader == a.id {
        (&*a, &b, &a_joined)
    } else {
        (&b, &*a, &b_joined)
    };
    ensure!(
        joined.members.len() == 2,
        "the leader sees {} members",
        joined.members.len()
    );
    let plan = plan(joined, topic)?;
    let assignments = plan
        .iter()
        .map(|(id, bytes)| {
            SyncGroupRequestAssignment::default()
                .with_member_id(id.clone())
                .with_assignment(bytes.clone())
        })
        .collect();
    let (led, followed) = tokio::join!(
        sync_one(leader, group, assignments),
        sync_one(follower, group, Vec::new())
    );
    let (led, followed) = (led?, followed?);
    let share = |member: &Member| {
        plan.iter()
            .find(|(id, _)| *id == member.id)
            .map(|(_, bytes)| bytes.clone())
    };
    ensure!(
        Some(led) == share(leader) && Some(followed) == share(follower),
        "the members were handed back other assignments than the leader's"
    );
    let generation = a.generation;
    leave_one(&b, group).await?;
    Ok(format!(
        "generation {generation}, leader {}, one partition each",
        leader.id.as_str()
    ))
}

async fn leave_one(member: &Member, group: &str) -> Result<(), Failure> {
    let version = member.connection.version(ApiKey::LeaveGroup)?;
    let answer = member
        .connection
        .send(
            LeaveGroupRequest::default()
                .with_group_id(group.into())
                .with_members(vec![MemberIdentity::default()
                    .with_member_id(member.id.clone())
                    .with_reason(Some("kwire suite".into()))]),
        )
        .await?;
    no_error(&format!("LeaveGroup v{version}"), answer.error_code)?;
    let codes: Vec<i16> = answer.members.iter().map(|m| m.error_code).collect();
    ensure!(
        codes == [0],
        "LeaveGroup v{version} answered the members {codes:?}"
    );
    Ok(())
}

async fn leave(kafka: &Connection, a: &Member, group: &str, topic: &Topic) -> Outcome {
    leave_one(a, group).await?;
    let described = kafka
        .send(DescribeGroupsRequest::default().with_groups(vec![group.into()]))
        .await?;
    let [described] = &described.groups[..] else {
        return Err("DescribeGroups answered no group".into());
    };
    no_error("DescribeGroups", described.error_code)?;
    ensure!(
        described.group_state.as_str() == "Empty" && described.members.is_empty(),
        "the group is {:?} with {} members",
        described.group_state.as_str(),
        described.members.len()
    );
    let version = kafka.version(ApiKey::OffsetFetch)?;
    let kept = committed(kafka, group, topic, version).await?;
    let last = last_commit(kafka);
    ensure!(
        kept.0 == offset_at(last),
        "after both left, the offset is {}",
        kept.0
    );
    Ok(format!("state Empty, offset {} kept", kept.0))
}
