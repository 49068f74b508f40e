//! The compatibility rules over Kafka's own history: the 4.0.0-SNAPSHOT schema set
//! of October 2024 (`KAFKA_HISTORY_DIR`, `4.0.0-SNAPSHOT-1eb7644/`) against the
//! pinned set (`KAFKA_SCHEMA_DIR`).
//!
//! The findings, the messages added and the absence of errors are pinned exactly:
//! a change of the rules or of either set shows here, and must be looked up and
//! explained like the ones below. Every schema compared with itself has no finding.

use std::collections::BTreeSet;
use std::path::Path;

use kwire_schema::compat::{compare, compare_sets};
use kwire_schema::{load_dir, SchemaMessage};

/// The older set, inside the history folder.
const OLDER: &str = "4.0.0-SNAPSHOT-1eb7644";

/// Every finding, as printed, grouped by what it is.
const EXPECTED: &[&str] = &[
    // KIP-896: the minimum versions of client APIs raised in Kafka 4.0. Each newer
    // file says "Version(s) N were removed in Apache Kafka 4.0".
    "AlterReplicaLogDirsRequest, version 0: version removed",
    "AlterReplicaLogDirsResponse, version 0: version removed",
    "CreateAclsRequest, version 0: version removed",
    "CreateAclsResponse, version 0: version removed",
    "CreateDelegationTokenRequest, version 0: version removed",
    "CreateDelegationTokenResponse, version 0: version removed",
    "CreateTopicsRequest, versions 0-1: version removed",
    "CreateTopicsResponse, versions 0-1: version removed",
    "DeleteAclsRequest, version 0: version removed",
    "DeleteAclsResponse, version 0: version removed",
    "DeleteTopicsRequest, version 0: version removed",
    "DeleteTopicsResponse, version 0: version removed",
    "DescribeAclsRequest, version 0: version removed",
    "DescribeAclsResponse, version 0: version removed",
    "DescribeConfigsRequest, version 0: version removed",
    "DescribeConfigsResponse, version 0: version removed",
    "DescribeDelegationTokenRequest, version 0: version removed",
    "DescribeDelegationTokenResponse, version 0: version removed",
    "DescribeLogDirsRequest, version 0: version removed",
    "DescribeLogDirsResponse, version 0: version removed",
    "ExpireDelegationTokenRequest, version 0: version removed",
    "ExpireDelegationTokenResponse, version 0: version removed",
    "FetchRequest, versions 0-3: version removed",
    "FetchResponse, versions 0-3: version removed",
    "ListOffsetsRequest, version 0: version removed",
    "ListOffsetsResponse, version 0: version removed",
    "OffsetCommitRequest, versions 0-1: version removed",
    "OffsetCommitResponse, versions 0-1: version removed",
    "OffsetFetchRequest, version 0: version removed",
    "OffsetFetchResponse, version 0: version removed",
    "OffsetForLeaderEpochRequest, versions 0-1: version removed",
    "OffsetForLeaderEpochResponse, versions 0-1: version removed",
    "ProduceRequest, versions 0-2: version removed",
    "ProduceResponse, versions 0-2: version removed",
    "RenewDelegationTokenRequest, version 0: version removed",
    "RenewDelegationTokenResponse, version 0: version removed",
    // Also removed in Kafka 4.0 by the files' own words, on inter-broker APIs
    // (broker to controller, coordinator to leader) rather than client ones.
    "AlterPartitionRequest, versions 0-1: version removed",
    "AlterPartitionResponse, versions 0-1: version removed",
    "WriteTxnMarkersRequest, version 0: version removed",
    "WriteTxnMarkersResponse, version 0: version removed",
    // The request header's version 0 served only ControlledShutdownRequest v0.
    "RequestHeader, version 0: version removed",
    // ZooKeeper-only APIs (controller to broker in ZooKeeper mode), retired with
    // ZooKeeper in 4.0: `validVersions` is now "none", so every version is gone.
    "ControlledShutdownRequest, versions 0-3: version removed",
    "ControlledShutdownResponse, versions 0-3: version removed",
    "LeaderAndIsrRequest, versions 0-7: version removed",
    "LeaderAndIsrResponse, versions 0-7: version removed",
    "StopReplicaRequest, versions 0-4: version removed",
    "StopReplicaResponse, versions 0-4: version removed",
    "UpdateMetadataRequest, versions 0-8: version removed",
    "UpdateMetadataResponse, versions 0-8: version removed",
    // KIP-1142: API key 74 renamed; version 0 keeps its bytes and meaning ("Version
    // 0 is used as ListClientMetricsResourcesRequest"), the JSON form's names change.
    "ListClientMetricsResourcesRequest, version 0: message renamed (ListClientMetricsResourcesRequest -> ListConfigResourcesRequest)",
    "ListClientMetricsResourcesResponse, version 0: message renamed (ListClientMetricsResourcesResponse -> ListConfigResourcesResponse)",
    "ListClientMetricsResourcesResponse.ClientMetricsResources, version 0: field renamed (ClientMetricsResources -> ConfigResources)",
    "ListClientMetricsResourcesResponse.ClientMetricsResources.Name, version 0: field renamed (Name -> ResourceName)",
    // Named for what KIP-848's consumer protocol already sends in it (the member
    // epoch); the same int32 at versions 3-4.
    "TxnOffsetCommitRequest.GenerationId, versions 3-4: field renamed (GenerationId -> GenerationIdOrMemberEpoch)",
    // Version 2 (KIP-996, pre-vote) "renames candidate to replica" for every
    // version: a pre-voting replica is not a candidate.
    "VoteRequest.Topics.Partitions.CandidateEpoch, versions 0-1: field renamed (CandidateEpoch -> ReplicaEpoch)",
    "VoteRequest.Topics.Partitions.CandidateId, versions 0-1: field renamed (CandidateId -> ReplicaId)",
    "VoteRequest.Topics.Partitions.CandidateDirectoryId, version 1: field renamed (CandidateDirectoryId -> ReplicaDirectoryId)",
];

/// Messages only the newer set has.
const ADDED: &[&str] = &[
    // Data schemas that were not in that folder then.
    "AbortedTxn",
    "ControlRecordTypeSchema",
    "EndTxnMarker",
    // KIP-932's share-group offsets administration.
    "AlterShareGroupOffsetsRequest",
    "AlterShareGroupOffsetsResponse",
    "DeleteShareGroupOffsetsRequest",
    "DeleteShareGroupOffsetsResponse",
    "DescribeShareGroupOffsetsRequest",
    "DescribeShareGroupOffsetsResponse",
    // KIP-1071's streams groups.
    "StreamsGroupDescribeRequest",
    "StreamsGroupDescribeResponse",
    "StreamsGroupHeartbeatRequest",
    "StreamsGroupHeartbeatResponse",
    "StreamsGroupTopologyDescriptionUpdateRequest",
    "StreamsGroupTopologyDescriptionUpdateResponse",
];

fn load(dir: &Path) -> Vec<SchemaMessage> {
    let loaded = load_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    loaded
        .into_iter()
        .map(|schema| schema.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// `expected` and `actual` as sets, every line of a difference shown.
fn assert_same(what: &str, expected: &[&str], actual: &[String]) {
    let expected: BTreeSet<&str> = expected.iter().copied().collect();
    let actual_set: BTreeSet<&str> = actual.iter().map(String::as_str).collect();
    assert_eq!(actual_set.len(), actual.len(), "{what} repeat: {actual:#?}");
    let missing: Vec<&&str> = expected.difference(&actual_set).collect();
    let unexpected: Vec<&&str> = actual_set.difference(&expected).collect();
    assert!(
        missing.is_empty() && unexpected.is_empty(),
        "{what} differ from the expected list\n  no longer found: {missing:#?}\n  \
         new: {unexpected:#?}\n(look each one up and explain it before updating the list)"
    );
}

#[test]
fn kafka_4_0_snapshot_against_the_pinned_set() {
    let older = load(&kwire_tests::history_dir().join(OLDER));
    let newer = load(&kwire_tests::schema_dir());
    assert_eq!(older.len(), 186, "the older set's files");
    assert_eq!(newer.len(), 201, "the pinned set's files");

    let compared = compare_sets(&older, &newer);
    let errors: Vec<String> = compared.errors.iter().map(ToString::to_string).collect();
    assert!(
        errors.is_empty(),
        "schemas that do not compare: {errors:#?}"
    );
    let findings: Vec<String> = compared.findings.iter().map(ToString::to_string).collect();
    for finding in &findings {
        println!("{finding}");
    }
    assert_same("the findings", EXPECTED, &findings);
    assert_same("the added messages", ADDED, &compared.added);
}

#[test]
fn every_schema_compared_with_itself_has_no_finding() {
    for dir in [
        kwire_tests::schema_dir(),
        kwire_tests::history_dir().join(OLDER),
    ] {
        let set = load(&dir);
        for schema in &set {
            let findings = compare(schema, schema)
                .unwrap_or_else(|e| panic!("{} does not compare: {e}", schema.file.display()));
            assert!(
                findings.is_empty(),
                "{} against itself: {findings:#?}",
                schema.file.display()
            );
        }
        let compared = compare_sets(&set, &set);
        assert!(compared.findings.is_empty(), "{:#?}", compared.findings);
        assert!(compared.errors.is_empty(), "{:#?}", compared.errors);
        assert!(compared.added.is_empty(), "{:#?}", compared.added);
    }
}
