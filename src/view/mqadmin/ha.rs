//! The controller commands (5.3.3's `tools`): `getSyncStateSet -a CONTROLLER -b NAME`
//! (`GetSyncStateSetSubCommand.printData`) and `getBrokerEpoch -n NS -b NAME`
//! (`GetBrokerEpochSubCommand.printData`), with the `toString`s of `ReplicaIdentity` and
//! `EpochEntry`.

use std::fmt::Write as _;

use crate::controller::GroupReplicas;

/// A Java `Long`/`Integer` or `String` printed by `%d`/`%s`: `null` when absent.
fn or_null(v: Option<impl ToString>) -> String {
    v.map_or_else(|| "null".to_owned(), |v| v.to_string())
}

/// `getSyncStateSet` for one group: its master, epochs and SyncStateSet, then each replica in
/// the SyncStateSet and each out of it (`brokerIdTable`'s order: by id, as a `HashMap<Long, …>`
/// keeps small ids), each with whether the controller sees it alive.
pub fn sync_state_set(g: &GroupReplicas, alive: impl Fn(i64) -> bool) -> String {
    let mut out = String::new();
    let in_sync = |id: &i64| crate::controller::ids::has(&g.sync_state_set, *id);
    let _ = write!(
        out,
        "\n#brokerName\t{}\n#MasterBrokerId\t{}\n#MasterAddr\t{}\n#MasterEpoch\t{}\n#SyncStateSetEpoch\t{}\n#SyncStateSetNums\t{}\n",
        g.broker_name,
        or_null(g.master),
        or_null(g.master_addr()),
        g.master_epoch,
        g.sync_state_set_epoch,
        g.replicas.iter().filter(|(id, _)| in_sync(id)).count(),
    );
    for want in [true, false] {
        for (id, addr) in g.replicas.iter().filter(|(id, _)| in_sync(id) == want) {
            let _ = write!(
                out,
                "\n{}:\tReplicaIdentity{{brokerName='{}', brokerId={id}, brokerAddress='{addr}', alive={}}}\n",
                if want { "InSyncReplica" } else { "NotInSyncReplica" },
                g.broker_name,
                alive(*id),
            );
        }
    }
    out
}

/// `getBrokerEpoch` for one broker: who it is, then its epoch cache — each epoch with the offset
/// it started at and the next one's start as its end; the last ends at the broker's max offset.
pub fn broker_epoch(
    cluster: &str,
    broker_name: &str,
    addr: &str,
    broker_id: i64,
    epochs: &[(i32, u64)],
    max_offset: u64,
) -> String {
    let mut out = format!(
        "\n#clusterName\t{cluster}\n#brokerName\t{broker_name}\n#brokerAddr\t{addr}\n#brokerId\t{broker_id}"
    );
    for (i, (epoch, start)) in epochs.iter().enumerate() {
        let end = epochs.get(i + 1).map_or(max_offset, |next| next.1);
        let _ = write!(
            out,
            "\n#Epoch: EpochEntry{{epoch={epoch}, startOffset={start}, endOffset={end}}}"
        );
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Spec (GetSyncStateSetSubCommand.printData, ReplicaIdentity.toString): the header lines,
    /// then the in-sync replicas and the others.
    #[test]
    fn sync_state_set_prints_as_mqadmin_does() {
        let g = GroupReplicas {
            cluster: "DefaultCluster".into(),
            broker_name: "broker-b".into(),
            replicas: vec![
                (1, "10.0.1.1:10911".into()),
                (2, "10.0.1.2:10911".into()),
                (3, "10.0.1.3:10911".into()),
            ],
            master: Some(2),
            master_epoch: 2,
            sync_state_set: vec![2],
            sync_state_set_epoch: 5,
            had_master: true,
        };
        let text = sync_state_set(&g, |id| id != 1);
        assert_eq!(
            text,
            "\n#brokerName\tbroker-b\n#MasterBrokerId\t2\n#MasterAddr\t10.0.1.2:10911\n#MasterEpoch\t2\n#SyncStateSetEpoch\t5\n#SyncStateSetNums\t1\n\
             \nInSyncReplica:\tReplicaIdentity{brokerName='broker-b', brokerId=2, brokerAddress='10.0.1.2:10911', alive=true}\n\
             \nNotInSyncReplica:\tReplicaIdentity{brokerName='broker-b', brokerId=1, brokerAddress='10.0.1.1:10911', alive=false}\n\
             \nNotInSyncReplica:\tReplicaIdentity{brokerName='broker-b', brokerId=3, brokerAddress='10.0.1.3:10911', alive=true}\n"
        );
        let lost = GroupReplicas { master: None, ..g };
        assert!(
            sync_state_set(&lost, |_| true).contains("#MasterBrokerId\tnull\n#MasterAddr\tnull\n")
        );
    }

    /// Spec (GetBrokerEpochSubCommand.printData, EpochEntry.toString): each epoch ends where the
    /// next starts; the last at the max offset.
    #[test]
    fn broker_epoch_prints_as_mqadmin_does() {
        assert_eq!(
            broker_epoch("DefaultCluster", "broker-b", "10.0.1.2:10911", 0, &[(1, 0), (2, 120)], 200),
            "\n#clusterName\tDefaultCluster\n#brokerName\tbroker-b\n#brokerAddr\t10.0.1.2:10911\n#brokerId\t0\
             \n#Epoch: EpochEntry{epoch=1, startOffset=0, endOffset=120}\
             \n#Epoch: EpochEntry{epoch=2, startOffset=120, endOffset=200}\n"
        );
    }
}
