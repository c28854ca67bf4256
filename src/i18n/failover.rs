//! What failover says: controllers, elections, SyncStateSets and role changes in the feed,
//! `routelab sim` and the lessons, in English and 简体中文.

use super::phrases;

phrases! {
    // Actions.
    ACT_RESUME: "resume broker {broker} (its hang ends: it carries on with what it knew before)", "恢复 broker {broker}（挂起结束：它带着挂起前所知道的继续运行）";
    ACT_ADD_CONTROLLER: "deploy controller {controller} (alone, it leads at once)", "部署 controller {controller}（只有它一个，立即成为 leader）";
    ACT_KILL_CONTROLLER: "kill controller {controller} (the process dies)", "杀死 controller {controller}（进程退出）";
    ACT_FREEZE_CONTROLLER: "freeze controller {controller} (it hangs: answers nothing, scans nothing)", "冻结 controller {controller}（它挂起：不应答，也不扫描）";
    ACT_RESTART_CONTROLLER: "restart controller {controller} (it forgets which brokers it heard)", "重启 controller {controller}（它忘掉听到过哪些 broker 的心跳）";
    ACT_LAG_REPLICA: "make replica {broker} lag (its replication stalls)", "让副本 {broker} 落后（它的复制停滞）";
    ACT_CATCH_UP_REPLICA: "let replica {broker} catch up (its replication resumes)", "让副本 {broker} 追上（它的复制恢复）";
    ACT_ELECT_MASTER: "mqadmin electMaster: ask the controller to make {name}'s replica {id} the master", "mqadmin electMaster：请 controller 把 {name} 的副本 {id} 选为 master";
    // Events.
    EV_ELECTED: "{controller} elected {group}'s replica {id} ({addr}) as master, epoch {epoch}: {why}", "{controller} 选举 {group} 的副本 {id}（{addr}）为 master，epoch {epoch}：{why}";
    EV_STILL_MASTER: "{controller} kept {group}'s replica {id} ({addr}) as master, epoch {epoch}: {why}", "{controller} 保留 {group} 的副本 {id}（{addr}）为 master，epoch {epoch}：{why}";
    EV_NOBODY: "{controller} could elect no master for {group} (epoch {epoch}): {why}; alive: {alive}, SyncStateSet: {set}", "{controller} 没能为 {group} 选出 master（epoch {epoch}）：{why}；存活：{alive}，SyncStateSet：{set}";
    WHY_MASTER_SILENT: "the old master has been silent for {secs} s", "旧 master 已经 {secs} 秒没有心跳";
    WHY_MASTER_CLOSED: "the old master's connection closed (its process is gone)", "旧 master 的连接断开了（进程已退出）";
    WHY_MASTER_INACTIVE: "the master is inactive while another replica is alive", "master 已不活跃，而另一个副本还活着";
    WHY_BROKER_ASKED: "replica {id} found no master and asked to be elected", "副本 {id} 发现没有 master，请求选举自己";
    WHY_ADMIN: "mqadmin electMaster asked for replica {id}", "mqadmin electMaster 指定了副本 {id}";
    NOBODY_ALIVE: "nobody", "无";
    EV_SSS_CHANGED: "{group}'s SyncStateSet {old} → {new} (epoch {epoch}), accepted by {controller}", "{group} 的 SyncStateSet {old} → {new}（epoch {epoch}），{controller} 已接受";
    EV_ACTING_STARTED: "{addr} ({group}'s slave {id}) acts as master: {ns} lists no master in its group, so its id is the smallest; the group's topics are read-only until the master is back", "{addr}（{group} 的从节点 {id}）成为代理主节点：{ns} 上该组已没有主节点，它的 id 最小；在主节点回来之前，该组的 topic 只读";
    EV_ACTING_ENDED: "{addr} ({group}'s slave {id}) no longer acts as master: {ns} lists {min_addr} as id {min_id} again", "{addr}（{group} 的从节点 {id}）不再代理主节点：{ns} 上又有了 id {min_id} 的 {min_addr}";
    EV_ROLE_CHANGED: "{addr} ({group}) is now {role} as brokerId {id}: its registrations carry stateVersion {epoch}", "{addr}（{group}）现在是 {role}，brokerId {id}：它的注册带上 stateVersion {epoch}";
    ROLE_MASTER: "master (takes writes)", "master（主，接受写入）";
    ROLE_SLAVE: "slave (serves reads)", "slave（从，提供读取）";
    ROLE_CANDIDATE: "candidate (no role yet)", "候选（尚无角色）";
    EV_ROLE_CHANGED_RAFT: "{addr} ({group}) is now {role} as brokerId {id}: its DLedger group's term {epoch}", "{addr}（{group}）现在是 {role}，brokerId {id}：所在 DLedger 组的任期 {epoch}";
    EV_LEADER_RAFT: "{leader} leads {raft}'s DLedger group, term {term}: {votes} of {members} members voted for it", "{leader} 成为 {raft} 的 DLedger 组 leader，任期 {term}：{members} 个成员中 {votes} 个投了它";
    EV_LEADER: "{leader} leads the {raft} Raft group, term {term} ({votes} of {members} running)", "{leader} 成为 {raft} Raft 组的 leader，任期 {term}（{members} 个中 {votes} 个在运行）";
    ERR_SERVICE_NOT_AVAILABLE: "service not available (the broker is a slave now)", "服务不可用（这个 broker 现在是 slave）";
    WHY_STALE_FENCED: "its stateVersion {sv} is older than {holder}'s {hsv}: it is fenced (5.x)", "它的 stateVersion {sv} 比 {holder} 的 {hsv} 旧：它被隔离了（5.x）";
    // The workshop.
    /// A DLedger broker's role with its group's Raft term.
    ROLE_TERM: "{role} · term {term}", "{role} · 任期 {term}";
    ROLE_EPOCH: "{role} · epoch {epoch}", "{role} · epoch {epoch}（任期）";
    ROLE_ACTING: "{role} · acting master (read-only)", "{role} · 代理主节点（只读）";
    LEADER_TERM: "leader · term {term}", "leader · 任期 {term}";
    FOLLOWER: "follower", "follower（跟随者）";
    HEARS_TITLE: "{controller} hears {broker} every 1 s", "{controller} 每 1 秒收到 {broker} 的心跳";
    CONTROLLER_HEADING: "Controller {name}", "Controller {name}（控制器）";
    REPLICA: "In controller mode", "controller 模式";
    CONTROLLER_ID: "controller id", "controller id（副本编号）";
    MASTER_EPOCH: "master epoch", "master epoch（任期）";
    SYNC_STATE_SET: "SyncStateSet", "SyncStateSet（同步副本集）";
    REPLICATING: "replication", "复制";
    LAGGING: "stalled (lagging)", "停滞（落后）";
    COPYING: "copying", "正在复制";
    LAG: "lag", "落后";
    LAG_HINT: "Stall this replica's replication: after 15 s its master drops it from the SyncStateSet", "让这个副本的复制停滞：15 秒后 master 把它移出 SyncStateSet";
    CATCH_UP: "catch up", "追上";
    CATCH_UP_HINT: "Let this replica copy again: it rejoins the SyncStateSet once caught up", "让这个副本恢复复制：追上后重新加入 SyncStateSet";
    RESUME: "resume", "恢复";
    RESUME_HINT: "End the hang: the broker carries on with what it knew before it froze", "结束挂起：broker 带着冻结前的认知继续运行";
    ELECT_THIS: "elect this replica", "选它为 master";
    ELECT_THIS_HINT: "mqadmin electMaster: ask the controller to make this replica the master", "mqadmin electMaster：请 controller 把这个副本选为 master";
    GROUPS_IT_KNOWS: "Groups it knows", "它管理的组";
    NO_GROUPS: "no controller-mode group yet", "还没有 controller 模式的组";
    RAFT: "Raft", "Raft（共识）";
}
