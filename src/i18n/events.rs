//! The simulator's sentences: what its events and the teacher's actions say (the feed:
//! `sim::describe_in`, `Action::describe_in`) and its warnings about timers. `routelab sim` prints
//! the English ones.

use super::phrases;

phrases! {
    // The feed panel.
    FEED_LABEL: "event feed", "事件流";
    FEED_HEADING: "Events", "事件";
    FEED_HINT: "newest first · heartbeats and plain successful sends hidden", "最新的在前 · 不显示心跳和一次成功的发送";

    /// A duration or a moment in virtual seconds.
    SECONDS: "{n} s", "{n} 秒";

    // A broker registered.
    EV_FIRST_REGISTRATION: "{ns}: {name} {role} ({addr}) registered for the first time", "{ns}：{name} {role}（{addr}）首次注册";
    EV_TOOK_SLOT: "{ns}: {addr} registered as {name} {role} in place of {old}", "{ns}：{addr} 以 {name} {role} 注册，顶替了 {old}";
    EV_HEARTBEAT: "{ns}: heartbeat from {name} {role} ({addr})", "{ns}：收到 {name} {role}（{addr}）的心跳";
    EV_REJECTED: "{ns} refused {name} ({addr}): {why}", "{ns} 拒绝了 {name}（{addr}）：{why}";
    WHY_SINGLE_TOPIC_GUARD: "a first registration must carry the full topic table, not exactly one topic (5.x)", "首次注册必须带上完整的 topic 表，而不能恰好只有一个 topic（5.x）";
    WHY_STALE_STATE_VERSION: "another address holds this id with a newer stateVersion (5.x)", "另一个地址以更新的 stateVersion 占用了这个 id（5.x）";

    // A broker removed, and why.
    EV_REMOVED: "{ns} removed {who}: {why}", "{ns} 移除了 {who}：{why}";
    WHO_NAMED: "{name} ({addr})", "{name}（{addr}）";
    WHY_EXPIRED: "no heartbeat for {gap} (last at {last}; found by the scan at {t})", "{gap} 没有心跳（最后一次在 {last}；{t} 的扫描发现）";
    WHY_UNREGISTERED: "it unregistered (graceful shutdown)", "它主动注销了（优雅关闭）";
    WHY_CHANNEL_CLOSED: "its connection closed (process gone)", "它的连接已关闭（进程已退出）";
    WHY_IDLE_CLOSED: "its connection was idle for too long and the NameServer closed it", "它的连接空闲太久，NameServer 关闭了它";
    EV_GROUP_REMOVED: "{ns}: group {name} has no members left; removed from {cluster} and from every topic", "{ns}：broker 组 {name} 已没有成员，已从 {cluster} 和所有 topic 中移除";
    EV_ID_SWITCHED: "{ns}: {addr} of {name} moved from id {old} to id {new}", "{ns}：{name} 的 {addr} 从 id {old} 变为 id {new}";

    // Topic routes.
    EV_TOPIC_NO_LONGER_ROUTES: "{ns}: {topic} no longer routes to {name} ({cause})", "{ns}：{topic} 不再路由到 {name}（{cause}）";
    EV_TOPIC_CHANGED: "{ns}: {topic} on {name} {change} (perm {perm})", "{ns}：{name} 上的 {topic} {change}（perm {perm}）";
    EV_TOPICS_CHANGED: "{ns}: {n} topics of {name} {change}: {topics}{more}", "{ns}：{name} 的 {n} 个 topic {change}：{topics}{more}";
    EV_TOPICS_OF: "{ns}: topics of {name} {change}", "{ns}：{name} 的多个 topic {change}";
    AND_MORE: " … and {n} more", " … 以及另外 {n} 个";
    CHANGE_CREATED: "created", "已创建";
    CHANGE_UPDATED: "updated", "已更新";
    CHANGE_REMOVED: "removed", "已移除";
    CAUSE_BROKER_GROUP_REMOVED: "broker group removed", "broker 组已移除";
    CAUSE_DELETED: "deleted", "已删除";
    CAUSE_PRUNED_BY_REGISTRATION: "pruned by registration", "注册时被清除";

    // Write permission.
    EV_PERM_WIPED: "{ns}: write permission wiped on {name} for {n} topic(s)", "{ns}：已摘除 {name} 上 {n} 个 topic 的写权限";
    EV_PERM_ADDED: "{ns}: write permission added on {name} for {n} topic(s)", "{ns}：已恢复 {name} 上 {n} 个 topic 的写权限";
    EV_KV_DELETED: "{ns}: KV {namespace}/{key} deleted", "{ns}：KV {namespace}/{key} 已删除";

    // A producer's route polls and sends.
    EV_POLL_CHANGED: "{producer} fetched a changed route of {topic} from {ns}", "{producer} 从 {ns} 拉取到 {topic} 已变化的路由";
    EV_POLL_UNCHANGED: "{producer} polled {ns} for {topic}: unchanged", "{producer} 向 {ns} 拉取 {topic} 的路由：没有变化";
    EV_POLL_NOT_EXIST: "{producer} polled {ns} for {topic}: TOPIC_NOT_EXIST; it keeps whatever route it had", "{producer} 向 {ns} 拉取 {topic} 的路由：TOPIC_NOT_EXIST；它保留原来的路由";
    NO_QUEUE: "no queue", "无队列";
    RETRY: " (retry {n})", "（第 {n} 次重试）";
    EV_SENT: "{producer} sent to {target} in {ms} ms{retry}", "{producer} 发送到 {target}，耗时 {ms} ms{retry}";
    EV_SEND_OUT_OF_TIME: "{producer}: no time left for attempt {attempt} (the send timeout is spent): the message failed", "{producer}：第 {attempt} 次尝试已没有剩余时间（发送超时已用完）：消息发送失败";
    EV_SEND_FAILED: "{producer} send to {target} failed after {ms} ms: {error}{retry}", "{producer} 发送到 {target} 失败，耗时 {ms} ms：{error}{retry}";
    ERR_TIMEOUT: "timeout", "超时";
    ERR_CONNECT_REFUSED: "connect refused", "连接被拒绝";
    ERR_NO_PERMISSION: "no permission", "没有写权限";
    ERR_TOPIC_NOT_EXIST: "topic not exist", "topic 不存在";
    ERR_NO_MASTER: "no master", "没有 master";
    ERR_NO_ROUTE: "no route", "没有路由";

    // A route asked for by the teacher.
    EV_ROUTE_ANSWER: "{ns} answers the route of {topic}: {groups}", "{ns} 返回 {topic} 的路由：{groups}";
    GROUP_NO_MASTER: " (no master)", "（无 master）";
    EV_ROUTE_NOT_EXIST: "{ns} answers TOPIC_NOT_EXIST for {topic}", "{ns} 对 {topic} 返回 TOPIC_NOT_EXIST";
    EV_ACTION: "action: {what}", "操作：{what}";

    // The teacher's actions.
    ON_NAMESRV: "on {ns}", "在 {ns} 上";
    ON_EVERY_NAMESRV: "on every NameServer", "在所有 NameServer 上";
    ACT_ADD_BROKER: "start broker {name} id {id} ({addr}) in {cluster}", "在 {cluster} 中启动 broker {name} id {id}（{addr}）";
    ACT_KILL: "kill broker {broker} (the process dies; its sockets close)", "杀死 broker {broker}（进程退出，它的连接随之关闭）";
    ACT_FREEZE: "freeze broker {broker} (it hangs: no heartbeats, nothing closed)", "冻结 broker {broker}（它挂起：没有心跳，连接也不关闭）";
    ACT_STOP: "stop broker {broker} gracefully (it unregisters)", "优雅停止 broker {broker}（它会注销）";
    ACT_RESTART: "restart broker {broker}", "重启 broker {broker}";
    ACT_CUT: "cut the link {link}", "断开链路 {link}";
    ACT_HEAL: "heal the link {link}", "恢复链路 {link}";
    LINK_PRODUCER: "producer {producer} → broker {broker}", "生产者 {producer} → broker {broker}";
    LINK_OF_BROKER: "of broker {broker}", "broker {broker} 的链路";
    ACT_CREATE_TOPIC: "create topic {topic} on {target} ({read} read / {write} write queues)", "在 {target} 上创建 topic {topic}（{read} 个读队列 / {write} 个写队列）";
    ACT_DELETE_TOPIC: "delete topic {topic} {on}", "{on}删除 topic {topic}";
    ACT_WIPE_PERM: "wipe the write permission of {name} {on}", "{on}摘除 {name} 的写权限";
    ACT_ADD_PERM: "add the write permission of {name} back {on}", "{on}恢复 {name} 的写权限";
    ACT_ADD_PRODUCER: "start producer {group} sending to {topic}", "启动生产者 {group}，向 {topic} 发送";
    ACT_REMOVE_PRODUCER: "shut producer {group} down", "关闭生产者 {group}";
    ACT_PUT_KV: "put KV {namespace}/{key} = {value} {on}", "{on}写入 KV {namespace}/{key} = {value}";
    ACT_QUERY_ROUTE: "ask {ns} for the route of {topic}", "向 {ns} 查询 {topic} 的路由";
    ACT_HEARTBEAT: "heartbeat now from {broker}", "让 {broker} 立即发送心跳";
    ACT_ADD_NAMESRV: "start NameServer {name}", "启动 NameServer {name}";
    ACT_SET_PRODUCER: "set producer {group}: {what}", "设置生产者 {group}：{what}";
    FAULT_TOLERANCE_ON: "fault tolerance on", "开启故障规避";
    FAULT_TOLERANCE_OFF: "fault tolerance off", "关闭故障规避";
    CLIENT_TABLES: "the {client} client tables", "{client} 客户端的规避表";

    // Timers that make brokers flap or routes go stale.
    WARN_REGISTER_VS_EXPIRY: "register period ({register} s) ≥ expiry ({expiry} s): brokers will be removed between heartbeats and flap in and out of routes", "注册周期（{register} 秒）≥ 过期时间（{expiry} 秒）：broker 会在两次心跳之间被移除，在路由中反复进出";
    WARN_IDLE_VS_REGISTER: "idle close ({idle} s) ≤ register period ({register} s): NameServers will close healthy brokers' connections between heartbeats", "空闲关闭（{idle} 秒）≤ 注册周期（{register} 秒）：NameServer 会在两次心跳之间关闭健康 broker 的连接";
    WARN_REGISTER_CLAMPED: "a real broker clamps registerNameServerPeriod to 10–60 s; this scenario goes beyond", "真实的 broker 会把 registerNameServerPeriod 限制在 10–60 秒；这个场景超出了该范围";
    WARN_POLL_VS_EXPIRY: "route poll ({poll} s) ≥ expiry ({expiry} s): producers keep dead brokers in their routes for long", "路由拉取间隔（{poll} 秒）≥ 过期时间（{expiry} 秒）：生产者会长时间把已死的 broker 留在路由中";
}
