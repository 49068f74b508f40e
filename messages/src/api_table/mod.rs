//! The API table: every live Kafka API, once, in key order, and what follows from
//! it.
//!
//! Each entry names the API, its module under [`crate::api`] and its request and
//! response types; the key, versions, listeners and everything else come from the
//! types' schemas. From this one list come [`ApiKey`], the [`Request`] and
//! [`Response`] enums, the request and response types at [`crate::api`]'s top, and
//! the [registry](crate::registry). Adding an API is its module file under `api/`,
//! its `pub mod` line in `api/mod.rs` and one entry here.

#[macro_use]
mod expand;
pub(crate) mod api_key;
pub mod registry;

pub use api_key::{ApiKeyError, Listener};

api_table! {
    Produce = produce::{ProduceRequest, ProduceResponse},
    Fetch = fetch::{FetchRequest, FetchResponse},
    ListOffsets = list_offsets::{ListOffsetsRequest, ListOffsetsResponse},
    Metadata = metadata::{MetadataRequest, MetadataResponse},
    OffsetCommit = offset_commit::{OffsetCommitRequest, OffsetCommitResponse},
    OffsetFetch = offset_fetch::{OffsetFetchRequest, OffsetFetchResponse},
    FindCoordinator = find_coordinator::{FindCoordinatorRequest, FindCoordinatorResponse},
    JoinGroup = join_group::{JoinGroupRequest, JoinGroupResponse},
    Heartbeat = heartbeat::{HeartbeatRequest, HeartbeatResponse},
    LeaveGroup = leave_group::{LeaveGroupRequest, LeaveGroupResponse},
    SyncGroup = sync_group::{SyncGroupRequest, SyncGroupResponse},
    DescribeGroups = describe_groups::{DescribeGroupsRequest, DescribeGroupsResponse},
    ListGroups = list_groups::{ListGroupsRequest, ListGroupsResponse},
    SaslHandshake = sasl_handshake::{SaslHandshakeRequest, SaslHandshakeResponse},
    ApiVersions = api_versions::{ApiVersionsRequest, ApiVersionsResponse}
        // KIP-511: a client reads the response whatever version it asked for.
        with response_header_v0,
    CreateTopics = create_topics::{CreateTopicsRequest, CreateTopicsResponse},
    DeleteTopics = delete_topics::{DeleteTopicsRequest, DeleteTopicsResponse},
    DeleteRecords = delete_records::{DeleteRecordsRequest, DeleteRecordsResponse},
    InitProducerId = init_producer_id::{InitProducerIdRequest, InitProducerIdResponse},
    OffsetForLeaderEpoch = offset_for_leader_epoch::{
        OffsetForLeaderEpochRequest,
        OffsetForLeaderEpochResponse
    },
    AddPartitionsToTxn = add_partitions_to_txn::{
        AddPartitionsToTxnRequest,
        AddPartitionsToTxnResponse
    },
    AddOffsetsToTxn = add_offsets_to_txn::{AddOffsetsToTxnRequest, AddOffsetsToTxnResponse},
    EndTxn = end_txn::{EndTxnRequest, EndTxnResponse},
    WriteTxnMarkers = write_txn_markers::{WriteTxnMarkersRequest, WriteTxnMarkersResponse},
    TxnOffsetCommit = txn_offset_commit::{TxnOffsetCommitRequest, TxnOffsetCommitResponse},
    DescribeAcls = describe_acls::{DescribeAclsRequest, DescribeAclsResponse},
    CreateAcls = create_acls::{CreateAclsRequest, CreateAclsResponse},
    DeleteAcls = delete_acls::{DeleteAclsRequest, DeleteAclsResponse},
    DescribeConfigs = describe_configs::{DescribeConfigsRequest, DescribeConfigsResponse},
    AlterConfigs = alter_configs::{AlterConfigsRequest, AlterConfigsResponse},
    AlterReplicaLogDirs = alter_replica_log_dirs::{
        AlterReplicaLogDirsRequest,
        AlterReplicaLogDirsResponse
    },
    DescribeLogDirs = describe_log_dirs::{DescribeLogDirsRequest, DescribeLogDirsResponse},
    SaslAuthenticate = sasl_authenticate::{SaslAuthenticateRequest, SaslAuthenticateResponse},
    CreatePartitions = create_partitions::{CreatePartitionsRequest, CreatePartitionsResponse},
    CreateDelegationToken = create_delegation_token::{
        CreateDelegationTokenRequest,
        CreateDelegationTokenResponse
    },
    RenewDelegationToken = renew_delegation_token::{
        RenewDelegationTokenRequest,
        RenewDelegationTokenResponse
    },
    ExpireDelegationToken = expire_delegation_token::{
        ExpireDelegationTokenRequest,
        ExpireDelegationTokenResponse
    },
    DescribeDelegationToken = describe_delegation_token::{
        DescribeDelegationTokenRequest,
        DescribeDelegationTokenResponse
    },
    DeleteGroups = delete_groups::{DeleteGroupsRequest, DeleteGroupsResponse},
    ElectLeaders = elect_leaders::{ElectLeadersRequest, ElectLeadersResponse},
    IncrementalAlterConfigs = incremental_alter_configs::{
        IncrementalAlterConfigsRequest,
        IncrementalAlterConfigsResponse
    },
    AlterPartitionReassignments = alter_partition_reassignments::{
        AlterPartitionReassignmentsRequest,
        AlterPartitionReassignmentsResponse
    },
    ListPartitionReassignments = list_partition_reassignments::{
        ListPartitionReassignmentsRequest,
        ListPartitionReassignmentsResponse
    },
    OffsetDelete = offset_delete::{OffsetDeleteRequest, OffsetDeleteResponse},
    DescribeClientQuotas = describe_client_quotas::{
        DescribeClientQuotasRequest,
        DescribeClientQuotasResponse
    },
    AlterClientQuotas = alter_client_quotas::{AlterClientQuotasRequest, AlterClientQuotasResponse},
    DescribeUserScramCredentials = describe_user_scram_credentials::{
        DescribeUserScramCredentialsRequest,
        DescribeUserScramCredentialsResponse
    },
    AlterUserScramCredentials = alter_user_scram_credentials::{
        AlterUserScramCredentialsRequest,
        AlterUserScramCredentialsResponse
    },
    Vote = vote::{VoteRequest, VoteResponse},
    BeginQuorumEpoch = begin_quorum_epoch::{BeginQuorumEpochRequest, BeginQuorumEpochResponse},
    EndQuorumEpoch = end_quorum_epoch::{EndQuorumEpochRequest, EndQuorumEpochResponse},
    DescribeQuorum = describe_quorum::{DescribeQuorumRequest, DescribeQuorumResponse},
    AlterPartition = alter_partition::{AlterPartitionRequest, AlterPartitionResponse},
    UpdateFeatures = update_features::{UpdateFeaturesRequest, UpdateFeaturesResponse},
    Envelope = envelope::{EnvelopeRequest, EnvelopeResponse},
    FetchSnapshot = fetch_snapshot::{FetchSnapshotRequest, FetchSnapshotResponse},
    DescribeCluster = describe_cluster::{DescribeClusterRequest, DescribeClusterResponse},
    DescribeProducers = describe_producers::{DescribeProducersRequest, DescribeProducersResponse},
    BrokerRegistration = broker_registration::{
        BrokerRegistrationRequest,
        BrokerRegistrationResponse
    },
    BrokerHeartbeat = broker_heartbeat::{BrokerHeartbeatRequest, BrokerHeartbeatResponse},
    UnregisterBroker = unregister_broker::{UnregisterBrokerRequest, UnregisterBrokerResponse},
    DescribeTransactions = describe_transactions::{
        DescribeTransactionsRequest,
        DescribeTransactionsResponse
    },
    ListTransactions = list_transactions::{ListTransactionsRequest, ListTransactionsResponse},
    AllocateProducerIds = allocate_producer_ids::{
        AllocateProducerIdsRequest,
        AllocateProducerIdsResponse
    },
    ConsumerGroupHeartbeat = consumer_group_heartbeat::{
        ConsumerGroupHeartbeatRequest,
        ConsumerGroupHeartbeatResponse
    },
    ConsumerGroupDescribe = consumer_group_describe::{
        ConsumerGroupDescribeRequest,
        ConsumerGroupDescribeResponse
    },
    ControllerRegistration = controller_registration::{
        ControllerRegistrationRequest,
        ControllerRegistrationResponse
    },
    GetTelemetrySubscriptions = get_telemetry_subscriptions::{
        GetTelemetrySubscriptionsRequest,
        GetTelemetrySubscriptionsResponse
    },
    PushTelemetry = push_telemetry::{PushTelemetryRequest, PushTelemetryResponse},
    AssignReplicasToDirs = assign_replicas_to_dirs::{
        AssignReplicasToDirsRequest,
        AssignReplicasToDirsResponse
    },
    ListConfigResources = list_config_resources::{
        ListConfigResourcesRequest,
        ListConfigResourcesResponse
    },
    DescribeTopicPartitions = describe_topic_partitions::{
        DescribeTopicPartitionsRequest,
        DescribeTopicPartitionsResponse
    },
    ShareGroupHeartbeat = share_group_heartbeat::{
        ShareGroupHeartbeatRequest,
        ShareGroupHeartbeatResponse
    },
    ShareGroupDescribe = share_group_describe::{
        ShareGroupDescribeRequest,
        ShareGroupDescribeResponse
    },
    ShareFetch = share_fetch::{ShareFetchRequest, ShareFetchResponse},
    ShareAcknowledge = share_acknowledge::{ShareAcknowledgeRequest, ShareAcknowledgeResponse},
    AddRaftVoter = add_raft_voter::{AddRaftVoterRequest, AddRaftVoterResponse},
    RemoveRaftVoter = remove_raft_voter::{RemoveRaftVoterRequest, RemoveRaftVoterResponse},
    UpdateRaftVoter = update_raft_voter::{UpdateRaftVoterRequest, UpdateRaftVoterResponse},
    InitializeShareGroupState = initialize_share_group_state::{
        InitializeShareGroupStateRequest,
        InitializeShareGroupStateResponse
    },
    ReadShareGroupState = read_share_group_state::{
        ReadShareGroupStateRequest,
        ReadShareGroupStateResponse
    },
    WriteShareGroupState = write_share_group_state::{
        WriteShareGroupStateRequest,
        WriteShareGroupStateResponse
    },
    DeleteShareGroupState = delete_share_group_state::{
        DeleteShareGroupStateRequest,
        DeleteShareGroupStateResponse
    },
    ReadShareGroupStateSummary = read_share_group_state_summary::{
        ReadShareGroupStateSummaryRequest,
        ReadShareGroupStateSummaryResponse
    },
    StreamsGroupHeartbeat = streams_group_heartbeat::{
        StreamsGroupHeartbeatRequest,
        StreamsGroupHeartbeatResponse
    },
    StreamsGroupDescribe = streams_group_describe::{
        StreamsGroupDescribeRequest,
        StreamsGroupDescribeResponse
    },
    DescribeShareGroupOffsets = describe_share_group_offsets::{
        DescribeShareGroupOffsetsRequest,
        DescribeShareGroupOffsetsResponse
    },
    AlterShareGroupOffsets = alter_share_group_offsets::{
        AlterShareGroupOffsetsRequest,
        AlterShareGroupOffsetsResponse
    },
    DeleteShareGroupOffsets = delete_share_group_offsets::{
        DeleteShareGroupOffsetsRequest,
        DeleteShareGroupOffsetsResponse
    },
    StreamsGroupTopologyDescriptionUpdate = streams_group_topology_description_update::{
        StreamsGroupTopologyDescriptionUpdateRequest,
        StreamsGroupTopologyDescriptionUpdateResponse
    },
    // Kafka 4.4.0's release; the pinned trunk schemas (678c0e07) lack it.
    UnregisterController = unregister_controller::{
        UnregisterControllerRequest,
        UnregisterControllerResponse
    },
}
