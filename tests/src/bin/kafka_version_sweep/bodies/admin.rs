//! Requests an administrator sends: topics and partitions, configs, ACLs, log
//! directories, delegation tokens, leaders and reassignments, quotas, SCRAM
//! credentials, the cluster, its features and its quorum; and ApiVersions.
//! What could change the cluster for the worse is sent so that it cannot:
//! validate-only where the API has it, a broker or voter id no node has, a
//! user of its own.

use bytes::Bytes;
use kwire::Uuid;
use kwire_messages::api::{
    add_raft_voter, alter_client_quotas, alter_configs, alter_user_scram_credentials, create_acls,
    create_partitions, create_topics, delete_acls, delete_topics, describe_configs,
    describe_quorum, elect_leaders, incremental_alter_configs, AddRaftVoterRequest,
    AlterClientQuotasRequest, AlterConfigsRequest, AlterPartitionReassignmentsRequest,
    AlterReplicaLogDirsRequest, AlterUserScramCredentialsRequest, ApiVersionsRequest,
    CreateAclsRequest, CreateDelegationTokenRequest, CreatePartitionsRequest, CreateTopicsRequest,
    DeleteAclsRequest, DeleteTopicsRequest, DescribeAclsRequest, DescribeClientQuotasRequest,
    DescribeClusterRequest, DescribeConfigsRequest, DescribeDelegationTokenRequest,
    DescribeLogDirsRequest, DescribeQuorumRequest, DescribeUserScramCredentialsRequest,
    ElectLeadersRequest, ExpireDelegationTokenRequest, IncrementalAlterConfigsRequest,
    ListConfigResourcesRequest, ListPartitionReassignmentsRequest, RemoveRaftVoterRequest,
    RenewDelegationTokenRequest, UnregisterBrokerRequest, UnregisterControllerRequest,
    UpdateFeaturesRequest,
};
use kwire_messages::Request;

use crate::values::Values;

/// Kafka's codes for ACL filters and bindings.
const ANY: i8 = 1;
const TOPIC: i8 = 2;
const LITERAL: i8 = 3;
const READ: i8 = 3;
const ALLOW: i8 = 3;

/// A broker or voter id no node of the cluster has.
const NO_NODE: i32 = 999;

pub fn api_versions(_values: &Values, version: i16) -> Request {
    if version >= 3 {
        ApiVersionsRequest::default()
            .with_client_software_name("kwire-sweep".into())
            .with_client_software_version(env!("CARGO_PKG_VERSION").into())
    } else {
        ApiVersionsRequest::default()
    }
    .into()
}

/// Validated only: a topic of two partitions with one config.
pub fn create_topics(values: &Values, version: i16) -> Request {
    CreateTopicsRequest::default()
        .with_validate_only(true)
        .with_timeout_ms(10_000)
        .with_topics(vec![create_topics::CreatableTopic::default()
            .with_name(values.name("create", version))
            .with_num_partitions(2)
            .with_replication_factor(1)
            .with_configs(vec![create_topics::CreatableTopicConfig::default()
                .with_name("retention.ms".into())
                .with_value(Some("3600000".into()))])])
        .into()
}

/// Deletes the topic made for this version: by name, from v6 by id.
pub fn delete_topics(values: &Values, version: i16) -> Request {
    let Some(doomed) = values.doomed.get(&version) else {
        return DeleteTopicsRequest::default().into();
    };
    let request = DeleteTopicsRequest::default().with_timeout_ms(10_000);
    if version >= 6 {
        request.with_topics(vec![
            delete_topics::DeleteTopicState::default().with_topic_id(doomed.id)
        ])
    } else {
        request.with_topic_names(vec![doomed.name.clone()])
    }
    .into()
}

pub fn describe_acls(_values: &Values, _version: i16) -> Request {
    DescribeAclsRequest::default()
        .with_resource_type_filter(ANY)
        .with_pattern_type_filter(ANY)
        .with_operation(ANY)
        .with_permission_type(ANY)
        .into()
}

pub fn create_acls(values: &Values, _version: i16) -> Request {
    CreateAclsRequest::default()
        .with_creations(vec![create_acls::AclCreation::default()
            .with_resource_type(TOPIC)
            .with_resource_name(values.topic.name.clone())
            .with_resource_pattern_type(LITERAL)
            .with_principal("User:alice".into())
            .with_host("*".into())
            .with_operation(READ)
            .with_permission_type(ALLOW)])
        .into()
}

pub fn delete_acls(values: &Values, _version: i16) -> Request {
    DeleteAclsRequest::default()
        .with_filters(vec![delete_acls::DeleteAclsFilter::default()
            .with_resource_type_filter(TOPIC)
            .with_resource_name_filter(Some(values.topic.name.clone()))
            .with_pattern_type_filter(LITERAL)
            .with_operation(ANY)
            .with_permission_type(ANY)])
        .into()
}

pub fn describe_configs(values: &Values, _version: i16) -> Request {
    DescribeConfigsRequest::default()
        .with_resources(vec![describe_configs::DescribeConfigsResource::default()
            .with_resource_type(TOPIC)
            .with_resource_name(values.topic.name.clone())
            .with_configuration_keys(None)])
        .into()
}

pub fn alter_configs(values: &Values, _version: i16) -> Request {
    AlterConfigsRequest::default()
        .with_validate_only(true)
        .with_resources(vec![alter_configs::AlterConfigsResource::default()
            .with_resource_type(TOPIC)
            .with_resource_name(values.topic.name.clone())
            .with_configs(vec![alter_configs::AlterableConfig::default()
                .with_name("retention.ms".into())
                .with_value(Some("3600000".into()))])])
        .into()
}

pub fn incremental_alter_configs(values: &Values, _version: i16) -> Request {
    IncrementalAlterConfigsRequest::default()
        .with_validate_only(true)
        .with_resources(vec![
            incremental_alter_configs::AlterConfigsResource::default()
                .with_resource_type(TOPIC)
                .with_resource_name(values.topic.name.clone())
                .with_configs(vec![incremental_alter_configs::AlterableConfig::default()
                    .with_name("retention.ms".into())
                    .with_config_operation(0)
                    .with_value(Some("3600000".into()))]),
        ])
        .into()
}

pub fn alter_replica_log_dirs(_values: &Values, _version: i16) -> Request {
    AlterReplicaLogDirsRequest::default().into()
}

pub fn describe_log_dirs(_values: &Values, _version: i16) -> Request {
    DescribeLogDirsRequest::default().with_topics(None).into()
}

/// Validated only: the topic grown to three partitions.
pub fn create_partitions(values: &Values, _version: i16) -> Request {
    CreatePartitionsRequest::default()
        .with_validate_only(true)
        .with_timeout_ms(10_000)
        .with_topics(vec![create_partitions::CreatePartitionsTopic::default()
            .with_name(values.topic.name.clone())
            .with_count(3)
            .with_assignments(None)])
        .into()
}

/// Over PLAINTEXT, where Kafka makes no tokens: its answer says so.
pub fn create_delegation_token(_values: &Values, version: i16) -> Request {
    let request = CreateDelegationTokenRequest::default().with_max_lifetime_ms(-1);
    if version >= 3 {
        request
            .with_owner_principal_type(None)
            .with_owner_principal_name(None)
    } else {
        request
    }
    .into()
}

pub fn renew_delegation_token(_values: &Values, _version: i16) -> Request {
    RenewDelegationTokenRequest::default()
        .with_hmac(Bytes::from_static(b"not-a-token-hmac"))
        .with_renew_period_ms(-1)
        .into()
}

pub fn expire_delegation_token(_values: &Values, _version: i16) -> Request {
    ExpireDelegationTokenRequest::default()
        .with_hmac(Bytes::from_static(b"not-a-token-hmac"))
        .with_expiry_time_period_ms(-1)
        .into()
}

pub fn describe_delegation_token(_values: &Values, _version: i16) -> Request {
    DescribeDelegationTokenRequest::default()
        .with_owners(None)
        .into()
}

/// The preferred leader of partition 0, which already leads.
pub fn elect_leaders(values: &Values, _version: i16) -> Request {
    ElectLeadersRequest::default()
        .with_timeout_ms(10_000)
        .with_topic_partitions(Some(vec![elect_leaders::TopicPartitions::default()
            .with_topic(values.topic.name.clone())
            .with_partitions(vec![0])]))
        .into()
}

pub fn alter_partition_reassignments(_values: &Values, _version: i16) -> Request {
    AlterPartitionReassignmentsRequest::default()
        .with_timeout_ms(10_000)
        .into()
}

pub fn list_partition_reassignments(_values: &Values, _version: i16) -> Request {
    ListPartitionReassignmentsRequest::default()
        .with_timeout_ms(10_000)
        .with_topics(None)
        .into()
}

pub fn describe_client_quotas(_values: &Values, _version: i16) -> Request {
    DescribeClientQuotasRequest::default().into()
}

/// Validated only: a produce rate for a client id of this run's.
pub fn alter_client_quotas(values: &Values, version: i16) -> Request {
    AlterClientQuotasRequest::default()
        .with_validate_only(true)
        .with_entries(vec![alter_client_quotas::EntryData::default()
            .with_entity(vec![alter_client_quotas::EntityData::default()
                .with_entity_type("client-id".into())
                .with_entity_name(Some(values.name("client", version)))])
            .with_ops(vec![alter_client_quotas::OpData::default()
                .with_key("producer_byte_rate".into())
                .with_value(1_048_576.0)])])
        .into()
}

pub fn describe_user_scram_credentials(_values: &Values, _version: i16) -> Request {
    DescribeUserScramCredentialsRequest::default()
        .with_users(None)
        .into()
}

/// SCRAM-SHA-256 credentials for a user of this run's own.
pub fn alter_user_scram_credentials(values: &Values, version: i16) -> Request {
    AlterUserScramCredentialsRequest::default()
        .with_upsertions(vec![
            alter_user_scram_credentials::ScramCredentialUpsertion::default()
                .with_name(values.name("user", version))
                .with_mechanism(1)
                .with_iterations(4096)
                .with_salt(Bytes::from_static(&[7; 16]))
                .with_salted_password(Bytes::from_static(&[9; 32])),
        ])
        .into()
}

pub fn describe_quorum(_values: &Values, _version: i16) -> Request {
    DescribeQuorumRequest::default()
        .with_topics(vec![describe_quorum::DescribeQuorumRequestTopic::default()
            .with_topic_name("__cluster_metadata".into())
            .with_partitions(vec![
                describe_quorum::DescribeQuorumRequestPartition::default().with_partition_index(0),
            ])])
        .into()
}

/// No feature changed (and from v1 only validated).
pub fn update_features(_values: &Values, version: i16) -> Request {
    let request = UpdateFeaturesRequest::default().with_timeout_ms(10_000);
    if version >= 1 {
        request.with_validate_only(true)
    } else {
        request
    }
    .into()
}

pub fn describe_cluster(_values: &Values, _version: i16) -> Request {
    DescribeClusterRequest::default().into()
}

pub fn unregister_broker(_values: &Values, _version: i16) -> Request {
    UnregisterBrokerRequest::default()
        .with_broker_id(NO_NODE)
        .into()
}

/// A controller that is not in the cluster, as for UnregisterBroker: Kafka reads the
/// request and answers for that ID without changing the quorum.
pub fn unregister_controller(_values: &Values, _version: i16) -> Request {
    UnregisterControllerRequest::default()
        .with_controller_id(NO_NODE)
        .into()
}

pub fn list_config_resources(_values: &Values, _version: i16) -> Request {
    ListConfigResourcesRequest::default().into()
}

/// A voter no node is, which never caught up: Kafka refuses to add it.
pub fn add_raft_voter(values: &Values, _version: i16) -> Request {
    AddRaftVoterRequest::default()
        .with_cluster_id(Some(values.cluster_id.clone()))
        .with_timeout_ms(10_000)
        .with_voter_id(NO_NODE)
        .with_voter_directory_id(Uuid::from_u64_pair(NO_NODE as u64, 1))
        .with_listeners(vec![add_raft_voter::Listener::default()
            .with_name("CONTROLLER".into())
            .with_host("127.0.0.1".into())
            .with_port(9)])
        .into()
}

/// A voter the quorum does not have.
pub fn remove_raft_voter(values: &Values, _version: i16) -> Request {
    RemoveRaftVoterRequest::default()
        .with_cluster_id(Some(values.cluster_id.clone()))
        .with_voter_id(NO_NODE)
        .with_voter_directory_id(Uuid::from_u64_pair(NO_NODE as u64, 1))
        .into()
}
