//! The classic consumer group protocol: JoinGroup, SyncGroup, Heartbeat,
//! LeaveGroup, and the committed offsets.
//!
//! The state machine is Kafka's (`GroupCoordinator`): a join moves the group to
//! PreparingRebalance; when every member has rejoined (or the rebalance timeout
//! passes, dropping those who did not) the generation goes up and each member gets
//! its answer, the leader with everyone's metadata; the leader's SyncGroup carries
//! the assignment, passed through unread, and makes the group Stable. A JoinGroup
//! or SyncGroup that must wait is answered through a oneshot channel, so the state
//! is never locked across an await.
//!
//! Deviations, on purpose: no `group.initial.rebalance.delay.ms` (a new group's
//! first rebalance completes as soon as its members have joined), and a join from a
//! Stable member always rebalances.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use bytes::Bytes;
use kwire_messages::ErrorCode;
use tokio::sync::oneshot;

/// Kafka's `group.min.session.timeout.ms` / `group.max.session.timeout.ms`.
const SESSION_TIMEOUTS_MS: std::ops::RangeInclusive<i32> = 6_000..=1_800_000;

/// A JoinGroup request, as the coordinator needs it.
pub struct JoinParams {
    pub group_id: String,
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub client_id: String,
    pub session_timeout_ms: i32,
    pub rebalance_timeout_ms: i32,
    pub protocol_type: String,
    pub protocols: Vec<(String, Bytes)>,
    /// JoinGroup v4+: a new member first gets its ID with MEMBER_ID_REQUIRED.
    pub member_id_required: bool,
    /// Kafka's `group.max.size`: members, and IDs handed out awaiting their
    /// join, one group may have (`--group-max-size`).
    pub group_max_size: usize,
}

/// A JoinGroup answer.
#[derive(Debug, Clone)]
pub struct JoinOutcome {
    pub error: ErrorCode,
    pub generation: i32,
    pub protocol_type: Option<String>,
    pub protocol_name: Option<String>,
    pub leader: String,
    pub member_id: String,
    /// Filled for the leader only: (member ID, group instance ID, metadata).
    pub members: Vec<(String, Option<String>, Bytes)>,
}

impl JoinOutcome {
    fn error(error: ErrorCode, member_id: &str) -> Self {
        JoinOutcome {
            error,
            generation: -1,
            protocol_type: None,
            protocol_name: None,
            leader: String::new(),
            member_id: member_id.to_owned(),
            members: Vec::new(),
        }
    }
}

/// A SyncGroup answer.
#[derive(Debug, Clone)]
pub struct SyncOutcome {
    pub error: ErrorCode,
    pub protocol_type: Option<String>,
    pub protocol_name: Option<String>,
    pub assignment: Bytes,
}

impl SyncOutcome {
    fn error(error: ErrorCode) -> Self {
        SyncOutcome {
            error,
            protocol_type: None,
            protocol_name: None,
            assignment: Bytes::new(),
        }
    }
}

/// An answer now, or one to wait for.
pub enum Reply<T> {
    Now(T),
    Later(oneshot::Receiver<T>),
}

/// A committed offset.
#[derive(Debug, Clone)]
pub struct Committed {
    pub offset: i64,
    pub leader_epoch: i32,
    pub metadata: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Empty,
    PreparingRebalance { deadline: Instant },
    CompletingRebalance,
    Stable,
}

struct Member {
    group_instance_id: Option<String>,
    session_timeout: Duration,
    rebalance_timeout: Duration,
    protocols: Vec<(String, Bytes)>,
    assignment: Bytes,
    last_seen: Instant,
    joining: Option<oneshot::Sender<JoinOutcome>>,
    syncing: Option<oneshot::Sender<SyncOutcome>>,
}

struct Group {
    state: State,
    generation: i32,
    protocol_type: Option<String>,
    protocol_name: Option<String>,
    leader: Option<String>,
    /// Members in the order they joined: the first is the next leader.
    members: BTreeMap<u64, (String, Member)>,
    /// IDs handed out with MEMBER_ID_REQUIRED, until they join or expire.
    pending: HashMap<String, Instant>,
    offsets: BTreeMap<(String, i32), Committed>,
    /// Offsets committed in transactions not yet ended, by producer ID.
    transactional: HashMap<i64, BTreeMap<(String, i32), Committed>>,
}

impl Group {
    fn new() -> Self {
        Group {
            state: State::Empty,
            generation: 0,
            protocol_type: None,
            protocol_name: None,
            leader: None,
            members: BTreeMap::new(),
            pending: HashMap::new(),
            offsets: BTreeMap::new(),
            transactional: HashMap::new(),
        }
    }

    /// Whether a commit from this member and generation is taken, as Kafka's
    /// `ClassicGroup.validateOffsetCommit`: generation -1 with no member ID is
    /// taken by an empty group (admin tools, assigned consumers), and inside a
    /// transaction by any group (producers that do not send the consumer's
    /// group metadata); otherwise the member and generation must be current.
    fn check_commit(
        &mut self,
        generation: i32,
        member_id: &str,
        transactional: bool,
        now: Instant,
    ) -> ErrorCode {
        if generation < 0 && member_id.is_empty() {
            if !transactional && !self.members.is_empty() {
                return ErrorCode::UnknownMemberId;
            }
            return ErrorCode::None;
        }
        let state = self.state;
        let current = self.generation;
        let Some(member) = self.member_mut(member_id) else {
            return ErrorCode::UnknownMemberId;
        };
        member.last_seen = now;
        if generation != current {
            return ErrorCode::IllegalGeneration;
        }
        if !transactional && state == State::CompletingRebalance {
            return ErrorCode::RebalanceInProgress;
        }
        ErrorCode::None
    }

    fn member_mut(&mut self, id: &str) -> Option<&mut Member> {
        self.members
            .values_mut()
            .find(|(member_id, _)| member_id == id)
            .map(|(_, member)| member)
    }

    fn has_member(&self, id: &str) -> bool {
        self.members.values().any(|(member_id, _)| member_id == id)
    }

    fn remove_member(&mut self, id: &str) -> bool {
        let Some(order) = self
            .members
            .iter()
            .find(|(_, (member_id, _))| member_id == id)
            .map(|(order, _)| *order)
        else {
            return false;
        };
        if let Some((_, member)) = self.members.remove(&order) {
            if let Some(joining) = member.joining {
                let _ = joining.send(JoinOutcome::error(ErrorCode::UnknownMemberId, id));
            }
            if let Some(syncing) = member.syncing {
                let _ = syncing.send(SyncOutcome::error(ErrorCode::UnknownMemberId));
            }
        }
        if self.leader.as_deref() == Some(id) {
            self.leader = None;
        }
        true
    }

    /// Starts (or keeps) a rebalance: members waiting on SyncGroup must rejoin.
    fn prepare_rebalance(&mut self, now: Instant) {
        if self.members.is_empty() {
            self.state = State::Empty;
            self.leader = None;
            return;
        }
        if !matches!(self.state, State::PreparingRebalance { .. }) {
            let timeout = self
                .members
                .values()
                .map(|(_, m)| m.rebalance_timeout)
                .max()
                .unwrap_or_default();
            self.state = State::PreparingRebalance {
                deadline: now + timeout,
            };
            for (_, member) in self.members.values_mut() {
                if let Some(syncing) = member.syncing.take() {
                    let _ = syncing.send(SyncOutcome::error(ErrorCode::RebalanceInProgress));
                }
            }
        }
        self.try_complete_join(now);
    }

    fn try_complete_join(&mut self, now: Instant) {
        let waiting_for_all = matches!(self.state, State::PreparingRebalance { .. })
            && !self.members.is_empty()
            && self.members.values().all(|(_, m)| m.joining.is_some());
        if waiting_for_all {
            self.complete_join(now);
        }
    }

    /// The protocol every member supports that most members prefer (each votes
    /// for its first one supported by all; a tie goes to the first voted for).
    /// Linear in the protocols of all members, with sets.
    fn choose_protocol(&self) -> Option<String> {
        let mut members = self.members.values().map(|(_, member)| member);
        let first = members.next()?;
        let supported_by_all = supported_by_all(&first.protocols, members);
        // (votes, order first voted for) by protocol.
        let mut votes: HashMap<&str, (usize, usize)> = HashMap::new();
        for (_, member) in self.members.values() {
            let Some((choice, _)) = member
                .protocols
                .iter()
                .find(|(p, _)| supported_by_all.contains(p.as_str()))
            else {
                continue;
            };
            let order = votes.len();
            votes.entry(choice.as_str()).or_insert((0, order)).0 += 1;
        }
        votes
            .into_iter()
            .max_by(|(_, (a, first_a)), (_, (b, first_b))| a.cmp(b).then(first_b.cmp(first_a)))
            .map(|(p, _)| p.to_owned())
    }

    fn complete_join(&mut self, now: Instant) {
        self.generation += 1;
        self.protocol_name = self.choose_protocol();
        let leader = match &self.leader {
            Some(leader) if self.has_member(leader) => leader.clone(),
            _ => self
                .members
                .values()
                .next()
                .map(|(id, _)| id.clone())
                .unwrap_or_default(),
        };
        self.leader = Some(leader.clone());
        let protocol = self.protocol_name.clone().unwrap_or_default();
        // The leader's answer holds every member's metadata: each is a shared
        // `Bytes` its member sent, at most `--group-max-size` of them, so the
        // answer is what the members sent, once, not a multiple of it.
        let everyone: Vec<(String, Option<String>, Bytes)> = self
            .members
            .values()
            .map(|(id, m)| {
                let metadata = m
                    .protocols
                    .iter()
                    .find(|(p, _)| *p == protocol)
                    .map(|(_, metadata)| metadata.clone())
                    .unwrap_or_default();
                (id.clone(), m.group_instance_id.clone(), metadata)
            })
            .collect();
        for (id, member) in self.members.values_mut() {
            member.last_seen = now;
            member.assignment = Bytes::new();
            if let Some(joining) = member.joining.take() {
                let _ = joining.send(JoinOutcome {
                    error: ErrorCode::None,
                    generation: self.generation,
                    protocol_type: self.protocol_type.clone(),
                    protocol_name: self.protocol_name.clone(),
                    leader: leader.clone(),
                    member_id: id.clone(),
                    members: if *id == leader {
                        everyone.clone()
                    } else {
                        Vec::new()
                    },
                });
            }
        }
        self.state = State::CompletingRebalance;
    }

    fn sync_outcome(&self, assignment: Bytes) -> SyncOutcome {
        SyncOutcome {
            error: ErrorCode::None,
            protocol_type: self.protocol_type.clone(),
            protocol_name: self.protocol_name.clone(),
            assignment,
        }
    }
}

/// Every group of this broker.
#[derive(Default)]
pub struct Groups {
    groups: HashMap<String, Group>,
    members_made: u64,
}

impl Groups {
    pub fn join(&mut self, params: JoinParams, now: Instant) -> Reply<JoinOutcome> {
        let refuse = |error| Reply::Now(JoinOutcome::error(error, &params.member_id));
        if params.group_id.is_empty() {
            return refuse(ErrorCode::InvalidGroupId);
        }
        if !SESSION_TIMEOUTS_MS.contains(&params.session_timeout_ms) {
            return refuse(ErrorCode::InvalidSessionTimeout);
        }
        self.members_made += 1;
        let order = self.members_made;
        let group = self
            .groups
            .entry(params.group_id.clone())
            .or_insert_with(Group::new);
        // Kafka's `supportsProtocols`: the new member shares a protocol with
        // every other member.
        let others = group
            .members
            .values()
            .filter(|(id, _)| *id != params.member_id)
            .map(|(_, member)| member);
        let shared = supported_by_all(&params.protocols, others);
        let consistent = group.members.is_empty()
            || (group.protocol_type.as_deref() == Some(params.protocol_type.as_str())
                && !shared.is_empty());
        if params.protocols.is_empty() || !consistent {
            return refuse(ErrorCode::InconsistentGroupProtocol);
        }
        // Kafka's `acceptJoiningMember`: a member or a pending ID already
        // counted may always come back; anyone else only below the limit.
        let known =
            group.has_member(&params.member_id) || group.pending.contains_key(&params.member_id);
        if !known && group.members.len() + group.pending.len() >= params.group_max_size {
            return refuse(ErrorCode::GroupMaxSizeReached);
        }

        let member_id = if params.member_id.is_empty() {
            let id = format!("{}-{order:08}", params.client_id);
            if params.member_id_required && params.group_instance_id.is_none() {
                let session = Duration::from_millis(params.session_timeout_ms as u64);
                group.pending.insert(id.clone(), now + session);
                return Reply::Now(JoinOutcome::error(ErrorCode::MemberIdRequired, &id));
            }
            id
        } else if group.has_member(&params.member_id)
            || group.pending.remove(&params.member_id).is_some()
        {
            params.member_id.clone()
        } else {
            return refuse(ErrorCode::UnknownMemberId);
        };

        let (sender, receiver) = oneshot::channel();
        let fresh = Member {
            group_instance_id: params.group_instance_id,
            session_timeout: Duration::from_millis(params.session_timeout_ms as u64),
            rebalance_timeout: Duration::from_millis(params.rebalance_timeout_ms.max(0) as u64),
            protocols: params.protocols,
            assignment: Bytes::new(),
            last_seen: now,
            joining: Some(sender),
            syncing: None,
        };
        match group.member_mut(&member_id) {
            Some(member) => {
                if let Some(previous) = member.joining.take() {
                    let _ =
                        previous.send(JoinOutcome::error(ErrorCode::UnknownMemberId, &member_id));
                }
                *member = fresh;
            }
            None => {
                group.members.insert(order, (member_id, fresh));
            }
        }
        group.protocol_type = Some(params.protocol_type);
        group.prepare_rebalance(now);
        Reply::Later(receiver)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn sync(
        &mut self,
        group_id: &str,
        generation: i32,
        member_id: &str,
        protocol_type: Option<&str>,
        protocol_name: Option<&str>,
        assignments: Vec<(String, Bytes)>,
        now: Instant,
    ) -> Reply<SyncOutcome> {
        let refuse = |error| Reply::Now(SyncOutcome::error(error));
        let Some(group) = self.groups.get_mut(group_id) else {
            return refuse(ErrorCode::UnknownMemberId);
        };
        if !group.has_member(member_id) {
            return refuse(ErrorCode::UnknownMemberId);
        }
        if generation != group.generation {
            return refuse(ErrorCode::IllegalGeneration);
        }
        if protocol_type.is_some_and(|p| Some(p) != group.protocol_type.as_deref())
            || protocol_name.is_some_and(|p| Some(p) != group.protocol_name.as_deref())
        {
            return refuse(ErrorCode::InconsistentGroupProtocol);
        }
        match group.state {
            State::Empty | State::PreparingRebalance { .. } => {
                refuse(ErrorCode::RebalanceInProgress)
            }
            State::Stable => {
                let Some(member) = group.member_mut(member_id) else {
                    return refuse(ErrorCode::UnknownMemberId);
                };
                member.last_seen = now;
                let assignment = member.assignment.clone();
                Reply::Now(group.sync_outcome(assignment))
            }
            State::CompletingRebalance => {
                let (sender, receiver) = oneshot::channel();
                let Some(member) = group.member_mut(member_id) else {
                    return refuse(ErrorCode::UnknownMemberId);
                };
                member.last_seen = now;
                member.syncing = Some(sender);
                if group.leader.as_deref() == Some(member_id) {
                    let mut assignments: HashMap<String, Bytes> = assignments.into_iter().collect();
                    let outcomes: Vec<SyncOutcome> = group
                        .members
                        .values()
                        .map(|(id, _)| {
                            group.sync_outcome(assignments.remove(id).unwrap_or_default())
                        })
                        .collect();
                    for ((_, member), outcome) in group.members.values_mut().zip(outcomes) {
                        member.assignment = outcome.assignment.clone();
                        if let Some(syncing) = member.syncing.take() {
                            let _ = syncing.send(outcome);
                        }
                    }
                    group.state = State::Stable;
                }
                Reply::Later(receiver)
            }
        }
    }

    pub fn heartbeat(
        &mut self,
        group_id: &str,
        generation: i32,
        member_id: &str,
        now: Instant,
    ) -> ErrorCode {
        let Some(group) = self.groups.get_mut(group_id) else {
            return ErrorCode::UnknownMemberId;
        };
        let state = group.state;
        let current = group.generation;
        let Some(member) = group.member_mut(member_id) else {
            return ErrorCode::UnknownMemberId;
        };
        member.last_seen = now;
        match state {
            _ if generation != current => ErrorCode::IllegalGeneration,
            State::Stable => ErrorCode::None,
            _ => ErrorCode::RebalanceInProgress,
        }
    }

    /// Removes each member; the group rebalances among those left.
    pub fn leave(&mut self, group_id: &str, members: &[String], now: Instant) -> Vec<ErrorCode> {
        let Some(group) = self.groups.get_mut(group_id) else {
            return vec![ErrorCode::UnknownMemberId; members.len()];
        };
        let errors = members
            .iter()
            .map(|id| {
                if group.remove_member(id) {
                    ErrorCode::None
                } else {
                    ErrorCode::UnknownMemberId
                }
            })
            .collect();
        group.prepare_rebalance(now);
        errors
    }

    /// Stores offsets for a member of the current generation, or for anyone when
    /// the group has no members (generation -1 and no member ID, as admin tools and
    /// manually assigned consumers commit).
    pub fn commit(
        &mut self,
        group_id: &str,
        generation: i32,
        member_id: &str,
        offsets: Vec<((String, i32), Committed)>,
        now: Instant,
    ) -> ErrorCode {
        if group_id.is_empty() {
            return ErrorCode::InvalidGroupId;
        }
        let group = self
            .groups
            .entry(group_id.to_owned())
            .or_insert_with(Group::new);
        let error = group.check_commit(generation, member_id, false, now);
        if error == ErrorCode::None {
            group.offsets.extend(offsets);
        }
        error
    }

    /// TxnOffsetCommit: offsets that become committed when producer
    /// `producer_id`'s transaction commits ([`end_transaction`](Self::end_transaction)),
    /// invisible until then.
    pub fn commit_transactional(
        &mut self,
        group_id: &str,
        producer_id: i64,
        generation: i32,
        member_id: &str,
        offsets: Vec<((String, i32), Committed)>,
        now: Instant,
    ) -> ErrorCode {
        if group_id.is_empty() {
            return ErrorCode::InvalidGroupId;
        }
        let group = self
            .groups
            .entry(group_id.to_owned())
            .or_insert_with(Group::new);
        let error = group.check_commit(generation, member_id, true, now);
        if error == ErrorCode::None {
            group
                .transactional
                .entry(producer_id)
                .or_default()
                .extend(offsets);
        }
        error
    }

    /// The end of producer `producer_id`'s transaction: its offsets for the
    /// group become committed, or are dropped.
    pub fn end_transaction(&mut self, group_id: &str, producer_id: i64, commit: bool) {
        let Some(group) = self.groups.get_mut(group_id) else {
            return;
        };
        if let Some(offsets) = group.transactional.remove(&producer_id) {
            if commit {
                group.offsets.extend(offsets);
            }
        }
    }

    /// Whether an open transaction holds an offset for this partition, which
    /// a consumer asking for stable offsets must wait for (KIP-447).
    pub fn unstable(&self, group_id: &str, key: &(String, i32)) -> bool {
        self.groups
            .get(group_id)
            .is_some_and(|g| g.transactional.values().any(|o| o.contains_key(key)))
    }

    /// The committed offset of each partition asked for, or of every partition
    /// with one when `partitions` is `None`.
    pub fn committed(
        &self,
        group_id: &str,
        partitions: Option<Vec<(String, i32)>>,
    ) -> Vec<((String, i32), Option<Committed>)> {
        let offsets = self.groups.get(group_id).map(|g| &g.offsets);
        match partitions {
            Some(wanted) => wanted
                .into_iter()
                .map(|key| {
                    let found = offsets.and_then(|o| o.get(&key)).cloned();
                    (key, found)
                })
                .collect(),
            None => offsets
                .into_iter()
                .flatten()
                .map(|(key, committed)| (key.clone(), Some(committed.clone())))
                .collect(),
        }
    }

    /// Drops members whose session expired and completes rebalances whose timeout
    /// passed; called a few times a second.
    pub fn tick(&mut self, now: Instant) {
        for group in self.groups.values_mut() {
            group.pending.retain(|_, deadline| *deadline > now);
            let expired: Vec<String> = group
                .members
                .values()
                .filter(|(_, m)| m.joining.is_none() && m.last_seen + m.session_timeout < now)
                .map(|(id, _)| id.clone())
                .collect();
            let late: Vec<String> = match group.state {
                State::PreparingRebalance { deadline } if deadline <= now => group
                    .members
                    .values()
                    .filter(|(_, m)| m.joining.is_none())
                    .map(|(id, _)| id.clone())
                    .collect(),
                _ => Vec::new(),
            };
            if expired.is_empty() && late.is_empty() {
                continue;
            }
            for id in expired.iter().chain(&late) {
                tracing::debug!(member = %id, "member removed: session or rebalance timeout");
                group.remove_member(id);
            }
            group.prepare_rebalance(now);
        }
    }
}

/// The protocols of `candidates` that every one of `members` supports. With
/// sets, so that many protocols from many members cost their sum, not their
/// product, under the groups' lock.
fn supported_by_all<'a>(
    candidates: &'a [(String, Bytes)],
    members: impl Iterator<Item = &'a Member>,
) -> HashSet<&'a str> {
    let mut shared: HashSet<&str> = candidates.iter().map(|(p, _)| p.as_str()).collect();
    for member in members {
        if shared.is_empty() {
            break;
        }
        let theirs: HashSet<&str> = member.protocols.iter().map(|(p, _)| p.as_str()).collect();
        shared.retain(|p| theirs.contains(p));
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(member_id: &str) -> JoinParams {
        JoinParams {
            group_id: "g".into(),
            member_id: member_id.into(),
            group_instance_id: None,
            client_id: "c".into(),
            session_timeout_ms: 10_000,
            rebalance_timeout_ms: 10_000,
            protocol_type: "consumer".into(),
            protocols: vec![("range".into(), Bytes::from_static(b"meta"))],
            member_id_required: true,
            group_max_size: 1000,
        }
    }

    fn now_answer<T>(reply: Reply<T>) -> T {
        match reply {
            Reply::Now(answer) => answer,
            Reply::Later(mut receiver) => receiver.try_recv().expect("answered"),
        }
    }

    /// A member joined as before JoinGroup v4 (no MEMBER_ID_REQUIRED round) and,
    /// with `sync`, synced: the group is then Stable at generation 1.
    fn first_member(groups: &mut Groups, now: Instant, sync: bool) -> JoinOutcome {
        let mut first = params("");
        first.member_id_required = false;
        let joined = now_answer(groups.join(first, now));
        if sync {
            now_answer(groups.sync("g", 1, &joined.member_id, None, None, vec![], now));
        }
        joined
    }

    #[test]
    fn a_lone_member_joins_syncs_and_heartbeats() {
        let mut groups = Groups::default();
        let now = Instant::now();
        let first = now_answer(groups.join(params(""), now));
        assert_eq!(first.error, ErrorCode::MemberIdRequired);
        let joined = now_answer(groups.join(params(&first.member_id), now));
        assert_eq!((joined.error, joined.generation), (ErrorCode::None, 1));
        assert_eq!(joined.leader, joined.member_id);
        assert_eq!(joined.members.len(), 1);
        let assignment = vec![(joined.member_id.clone(), Bytes::from_static(b"a"))];
        let synced =
            now_answer(groups.sync("g", 1, &joined.member_id, None, None, assignment, now));
        assert_eq!(synced.assignment, Bytes::from_static(b"a"));
        assert_eq!(
            groups.heartbeat("g", 1, &joined.member_id, now),
            ErrorCode::None
        );
        assert_eq!(
            groups.heartbeat("g", 0, &joined.member_id, now),
            ErrorCode::IllegalGeneration
        );
    }

    #[test]
    fn a_second_member_makes_the_first_rejoin() {
        let mut groups = Groups::default();
        let now = Instant::now();
        let a = first_member(&mut groups, now, true);
        let mut b = params("");
        b.member_id_required = false;
        let Reply::Later(mut b_waits) = groups.join(b, now) else {
            panic!("b must wait for a to rejoin");
        };
        assert!(b_waits.try_recv().is_err());
        assert_eq!(
            groups.heartbeat("g", 1, &a.member_id, now),
            ErrorCode::RebalanceInProgress
        );
        let a_again = now_answer(groups.join(params(&a.member_id), now));
        let b = b_waits.try_recv().expect("completed");
        assert_eq!((a_again.generation, b.generation), (2, 2));
        assert_eq!(a_again.members.len(), 2, "a stays leader");
        assert!(b.members.is_empty());
    }

    #[test]
    fn a_silent_member_is_dropped_after_its_session() {
        let mut groups = Groups::default();
        let now = Instant::now();
        let a = first_member(&mut groups, now, false);
        groups.tick(now + Duration::from_secs(11));
        assert_eq!(
            groups.heartbeat("g", 1, &a.member_id, now),
            ErrorCode::UnknownMemberId
        );
    }

    #[test]
    fn commits_need_the_current_generation() {
        let mut groups = Groups::default();
        let now = Instant::now();
        let a = first_member(&mut groups, now, true);
        let offset = |o| {
            vec![(
                ("t".to_string(), 0),
                Committed {
                    offset: o,
                    leader_epoch: -1,
                    metadata: None,
                },
            )]
        };
        assert_eq!(
            groups.commit("g", 0, &a.member_id, offset(5), now),
            ErrorCode::IllegalGeneration
        );
        assert_eq!(
            groups.commit("g", 1, &a.member_id, offset(5), now),
            ErrorCode::None
        );
        let committed = groups.committed("g", Some(vec![("t".into(), 0), ("t".into(), 1)]));
        assert_eq!(committed[0].1.as_ref().map(|c| c.offset), Some(5));
        assert!(committed[1].1.is_none());
    }

    /// Kafka's `group.max.size`: a member beyond it is refused, pending IDs
    /// (handed out with MEMBER_ID_REQUIRED) included; one already in may rejoin.
    #[test]
    fn a_full_group_refuses_new_members_but_not_old_ones() {
        let mut groups = Groups::default();
        let now = Instant::now();
        let small = |member_id: &str| JoinParams {
            group_max_size: 2,
            ..params(member_id)
        };
        let a = first_member(&mut groups, now, true);
        // b gets a pending ID: the group is full with a and it.
        let b = now_answer(groups.join(small(""), now));
        assert_eq!(b.error, ErrorCode::MemberIdRequired);
        let c = now_answer(groups.join(small(""), now));
        assert_eq!(c.error, ErrorCode::GroupMaxSizeReached);
        // b, pending, may still join; a may rejoin.
        let Reply::Later(mut b_waits) = groups.join(small(&b.member_id), now) else {
            panic!("b waits for a to rejoin");
        };
        let a_again = now_answer(groups.join(small(&a.member_id), now));
        assert_eq!(a_again.error, ErrorCode::None);
        assert_eq!(
            b_waits.try_recv().expect("completed").error,
            ErrorCode::None
        );
    }

    /// Each member votes for its first protocol that every member supports.
    #[test]
    fn the_protocol_chosen_is_supported_by_all_and_preferred_by_most() {
        let mut groups = Groups::default();
        let now = Instant::now();
        let with = |member_id: &str, protocols: &[&str]| JoinParams {
            protocols: protocols
                .iter()
                .map(|p| (p.to_string(), Bytes::new()))
                .collect(),
            member_id_required: false,
            ..params(member_id)
        };
        // Many protocols, one shared: "range" is the only choice.
        let many: Vec<String> = (0..10_000).map(|i| format!("a{i}")).collect();
        let mut a_protocols: Vec<&str> = many.iter().map(String::as_str).collect();
        a_protocols.push("range");
        let a = now_answer(groups.join(with("", &a_protocols), now));
        assert_eq!(a.protocol_name.as_deref(), Some("a0"));
        now_answer(groups.sync("g", 1, &a.member_id, None, None, vec![], now));
        // Sharing nothing with a is refused.
        let stranger = now_answer(groups.join(with("", &["b0", "b1"]), now));
        assert_eq!(stranger.error, ErrorCode::InconsistentGroupProtocol);
        let Reply::Later(mut b_waits) = groups.join(with("", &["sticky", "range"]), now) else {
            panic!("b shares range with a");
        };
        let a_again = now_answer(groups.join(with(&a.member_id, &a_protocols), now));
        let b = b_waits.try_recv().expect("completed");
        assert_eq!(a_again.protocol_name.as_deref(), Some("range"));
        assert_eq!(b.protocol_name.as_deref(), Some("range"));
    }
}
