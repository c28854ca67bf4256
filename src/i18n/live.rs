//! Live mode's words: the connection, freshness, the views of real NameServers, what changed while
//! watching, and the fork into the simulator.

use super::phrases;

phrases! {
    // The page frame (the language toggle says what the workshop's says).
    /// The tab of the RocketMQ tables (the other tab is "mqadmin", as RocketMQ names it).
    TABLES_TAB: "Tables", "路由表";
    FOOTER: "RouteLab v{version} · live mode: what the NameServers answer, as the bridge last fetched it · heartbeat ages are known only when a NameServer reports them",
        "RouteLab v{version} · 实时模式：各 NameServer 的应答，即 bridge 最后一次拉取到的内容 · 只有 NameServer 报告心跳时间时才知道心跳距今多久";

    // The header: connection, freshness, disagreement, fork.
    LIVE_CONNECTION: "live connection", "实时连接";
    CONNECTING_TO: "connecting to {url}", "正在连接 {url}";
    WAITING_FOR_DATA: "waiting for data", "正在等待数据";
    /// The connection once a snapshot came: `{source}` is "bridge" or "RouteLab NameServer".
    LIVE_FROM: "live · {source} v{version} · polls every {interval}{read_only}",
        "实时 · {source} v{version} · 每 {interval} 轮询一次{read_only}";
    /// Appended to [`LIVE_FROM`] when the source takes no commands.
    READ_ONLY: " · read-only", " · 只读";
    LIVE: "live", "实时";
    RECONNECTING_IN: "reconnecting in {delay} ({reason})", "{delay} 后重连（{reason}）";
    UPDATED_AGO: "updated {age} ago", "{age} 前更新";
    STALE_UPDATED_AGO: "stale: updated {age} ago", "已过时：{age} 前更新";
    /// `{last_good}` is [`LAST_GOOD_DATA_AGO`] or nothing.
    FAILING: "failing: {reason}{last_good}", "失败：{reason}{last_good}";
    LAST_GOOD_DATA_AGO: " · last good data {age} ago", " · 最后一次有效数据在 {age} 前";
    NO_REASON_GIVEN: "no reason given", "未给出原因";
    NO_ANSWER_YET: "no answer yet", "尚无应答";
    NAMESRVS_DISAGREE_WHY: "the NameServers hold different routes or brokers; they never talk to each other",
        "各 NameServer 持有的路由或 broker 不同；NameServer 之间从不互相通信";
    NAMESRVS_DISAGREE_COUNT: "NameServers disagree: {topics} topic(s), {brokers} broker(s)",
        "NameServer 之间不一致：{topics} 个 topic，{brokers} 个 broker";
    FORK_WHAT: "copy this cluster into the simulator: the same brokers and routes, paused at t = 0",
        "把这个集群复制到模拟器：同样的 broker 和路由，暂停在 t = 0";
    FORK_INTO_SIMULATOR: "Fork into simulator", "复制到模拟器";
    LEAVE_WHAT: "leave live mode and open the simulator's presets", "离开实时模式，打开模拟器的预设场景";
    SIMULATOR: "Simulator", "模拟器";

    // Why the connection closed (the bridge's own words are shown as it says them).
    BRIDGE_CLOSED: "the bridge closed the connection", "bridge 关闭了连接";
    BRIDGE_GOING_AWAY: "the bridge is going away", "bridge 正在关闭";
    NO_CONNECTION_TO_BRIDGE: "no connection to the bridge", "无法连接到 bridge";
    REFUSED_BY_BRIDGE: "refused by the bridge (token?)", "被 bridge 拒绝（token 不对？）";
    CLOSED_WITH_CODE: "closed with code {code}", "连接已关闭，代码 {code}";
    CANNOT_OPEN: "cannot open {url}: {why}", "无法打开 {url}：{why}";
    NOT_A_WEBSOCKET_URL: "not a WebSocket URL", "不是 WebSocket URL";

    // Messages the page could not use (the error banner).
    UNREADABLE_MESSAGE: "unreadable message from the bridge ({error})", "无法读取 bridge 发来的消息（{error}）";
    ASKING_FOR_SNAPSHOT: "{error}; asking for a fresh snapshot", "{error}；正在请求新的快照";
    PROTOCOL_MISMATCH: "the server speaks live protocol {theirs}, this dashboard speaks {ours}: reload the page",
        "服务端使用实时协议 {theirs}，本页面使用 {ours}：请重新加载页面";
    UPDATE_BEFORE_SNAPSHOT: "an update arrived before any snapshot", "在收到任何快照之前收到了更新";
    UPDATES_MISSED: "update {got} does not follow {have}: some updates were missed",
        "更新 {got} 没有紧接着 {have}：漏掉了一些更新";
    UNKNOWN_NAMESRV: "an update names NameServer {ns}, which the snapshot did not list",
        "更新中出现了 NameServer {ns}，而快照中没有列出它";

    // The cluster panel.
    CLUSTER: "cluster", "集群";
    CLUSTER_HEADING: "Cluster", "集群";
    BROKERS_AND_TOPICS_LISTED: " {brokers} brokers listed · {topics} topics", " 列出 {brokers} 个 broker · {topics} 个 topic";
    NO_DATA_YET: " no data yet", " 尚无数据";
    NO_BROKER_LISTED: "No broker listed by any NameServer yet.", "还没有任何 NameServer 列出 broker。";
    NOT_LISTED_ANYWHERE: "not listed anywhere", "所有 NameServer 都未列出";
    NAMESRVS_DISAGREE_ON_BROKER: "the NameServers disagree about this broker", "各 NameServer 对这个 broker 的看法不一致";
    NAMESRVS_DISAGREE: "NameServers disagree", "NameServer 之间不一致";
    NO_DATA: "no data", "无数据";
    LAST_HEARTBEAT: "{ns}: last heartbeat {age} ago; expires after {timeout}", "{ns}：上次心跳在 {age} 前；{timeout} 后过期";
    LISTED_NO_LIVE_ENTRY: "listed · no live entry", "已列出 · brokerLiveTable 中无记录";
    LISTED_AGE_UNKNOWN: "listed · age unknown", "已列出 · 心跳时间未知";
    AGE_UNKNOWN_WHY: "{ns} lists this broker, so its last heartbeat came within the expiry (120 s unless the broker asked for another) before the last fetch. A NameServer does not report heartbeat times, so the age itself is unknown.",
        "{ns} 列出了这个 broker，说明它最近一次心跳落在最后一次拉取之前的过期时间之内（默认 120 s，除非 broker 另行指定）。NameServer 不报告心跳时间，所以具体过了多久并不知道。";
    NOT_REGISTERED_GONE_AGO: "not registered · gone {age} ago", "未注册 · {age} 前消失";
    NOT_REGISTERED: "not registered", "未注册";
    DOES_NOT_LIST_BROKER: "{ns} does not list this broker", "{ns} 没有列出这个 broker";
    DEMO_KILL: "kill", "杀死";
    DEMO_KILL_WHAT: "the process dies: its connection closes, the NameServer drops it at once",
        "进程退出：连接关闭，NameServer 立即移除它";
    DEMO_FREEZE: "freeze", "冻结";
    DEMO_FREEZE_WHAT: "the process hangs: no registrations, connection open, it leaves on expiry",
        "进程挂起：不再注册，连接保持打开，过期后才被移除";
    DEMO_STOP: "stop", "停止";
    DEMO_STOP_WHAT: "graceful shutdown: UNREGISTER_BROKER, then close", "优雅关闭：先 UNREGISTER_BROKER，再关闭连接";
    DEMO_RESTART: "restart", "重启";
    DEMO_RESTART_WHAT: "start the process again", "重新启动进程";

    // The route panel.
    TOPIC_ROUTE: "topic route", "Topic 路由";
    TOPIC_ROUTE_HEADING: "Topic route ", "Topic 路由 ";
    PRODUCERS_CACHE_ROUTES: "Producers' cached copies are not visible from outside a client: each re-pulls its routes every 30 s (pollNameServerInterval), so it can hold an older route than shown here.",
        "生产者缓存的路由副本在客户端之外看不到：每个生产者每 30 s 重新拉取一次路由（pollNameServerInterval），所以它手里的路由可能比这里显示的旧。";
    NO_DATA_FROM_NAMESRV: "no data from this NameServer yet", "尚未从这个 NameServer 获得数据";
    TOPIC_NOT_IN_LIST: "TOPIC_NOT_EXIST (code 17): not in its topic list", "TOPIC_NOT_EXIST（错误码 17）：不在它的 topic 列表中";
    NOT_FETCHED_YET: "not fetched yet", "尚未拉取";
    TOPIC_NO_ROUTE: "TOPIC_NOT_EXIST (code 17): no route", "TOPIC_NOT_EXIST（错误码 17）：没有路由";
    FETCHED_BEFORE_UPDATE: "fetched {age} before the last update", "在最后一次更新之前 {age} 拉取";
    LAST_FETCH_FAILED: "last fetch failed: {error}; showing the last good answer", "最后一次拉取失败：{error}；显示的是最后一次有效的应答";
    JSON_A_CLIENT_RECEIVES: "JSON a client receives", "客户端收到的 JSON";

    // The tables and the mqadmin mirror.
    FILTER_TOPICS: "filter topics ", "筛选 topic ";
    FILTER_EXAMPLE: "e.g. TopicTest", "例如 TopicTest";
    TOPIC_QUEUE_TABLE_REBUILT: "topicQueueTable ({topics} topics, rebuilt from the routes fetched)",
        "topicQueueTable（{topics} 个 topic，由拉取到的路由重建）";
    MORE_ROWS: "{hidden} more rows: type in the filter to narrow", "还有 {hidden} 行：在筛选框中输入以缩小范围";
    AGE: "age", "距今";
    TIMEOUT: "timeout", "超时";
    BROKER_LIVE_UNKNOWN: "not reported by a NameServer: no request returns it, so heartbeat times are unknown here (a broker simply disappears from brokerAddrTable when it expires)",
        "NameServer 不对外提供：没有哪个请求会返回它，所以这里不知道心跳时间（broker 过期时只是从 brokerAddrTable 中消失）";
    FILTER_SERVERS_EMPTY: "empty (filter servers are a legacy feature)", "空（filter server 是已废弃的旧功能）";
    RUNTIME_COLUMNS_UNKNOWN: "Runtime columns (version, TPS, timer, disk) come from each broker, which the bridge does not ask: they read as mqadmin prints a broker that does not answer.",
        "运行时列（版本、TPS、定时器、磁盘）来自各个 broker，而 bridge 不会去问 broker：这些列显示的是 mqadmin 对一个没有应答的 broker 打印的内容。";
    /// In place of `topicRoute`'s output (a line of the terminal).
    NOT_FETCHED_YET_LINE: "(not fetched yet)\n", "（尚未拉取）\n";

    // What changed while watching (the feed).
    CHANGES_SEEN: "changes seen", "观察到的变化";
    CHANGES_SEEN_HEADING: "Changes seen", "观察到的变化";
    CHANGES_APPEAR_HERE: "Brokers leaving or joining a NameServer, routes changing and polls failing appear here as the bridge sees them.",
        "broker 离开或加入某个 NameServer、路由变化、轮询失败，都会在 bridge 看到时出现在这里。";
    ROUTE_CHANGED: "{ns}: the route of {topic} changed", "{ns}：{topic} 的路由变了";
    /// `{topics}`: the first eight, comma-separated, then " …" when there are more.
    ROUTES_CHANGED: "{ns}: the routes of {count} topics changed: {topics}", "{ns}：{count} 个 topic 的路由变了：{topics}";
    POLLING_FAILED: "{ns}: polling failed ({reason}); its last data stays on screen", "{ns}：轮询失败（{reason}）；它最后的数据仍留在屏幕上";
    ANSWERS_AGAIN: "{ns}: answers again", "{ns}：重新有应答了";
    NO_LONGER_LISTS: "{ns} no longer lists {broker}", "{ns} 不再列出 {broker}";
    LISTS: "{ns} lists {broker}", "{ns} 列出了 {broker}";
    MASTER_NOW: "{ns}: {group}'s master is now {new} (was {old})", "{ns}：{group} 的 master 现在是 {new}（原来是 {old}）";

    // The simulator's "Live…" control.
    LIVE_OPEN_WHAT: "watch a real cluster through a RouteLab bridge", "通过 RouteLab bridge 观察真实集群";
    LIVE_OPEN: "Live…", "实时…";
    CONNECT_TO_BRIDGE: "connect to a bridge", "连接到 bridge";
    BRIDGE_URL: "Bridge WebSocket URL (started with routelab bridge)", "bridge 的 WebSocket URL（由 routelab bridge 启动）";
    CONNECT: "Connect", "连接";

    // The note of a forked scenario, one point each.
    FORK_EMPTY: "Nothing had been fetched from a NameServer yet, so this scenario is empty.",
        "还没有从任何 NameServer 拉取到数据，所以这个场景是空的。";
    /// `{namesrvs}`: `ns-1 = 10.0.0.1:9876, …`.
    FORKED_FROM: "Forked from the live cluster ({namesrvs}).", "复制自实时集群（{namesrvs}）。";
    FORKED_FROM_DISAGREEING: "Forked from the live cluster. The NameServers disagreed, which the simulator cannot start from, so ns-1 is built from what {ns} held.",
        "复制自实时集群。各 NameServer 之间不一致，模拟器无法从这种状态开始，所以 ns-1 按 {ns} 持有的内容构建。";
    TOPICS_NOT_FETCHED: "{count} listed topic(s) had no route fetched yet and are left out.",
        "{count} 个已列出的 topic 还没有拉取到路由，已略去。";
    /// `{refused}`: [`REFUSED_TOPIC`]s.
    TOPICS_REFUSED: "Left out as the scenario format refuses them: {refused}.", "场景格式不接受以下内容，已略去：{refused}。";
    REFUSED_TOPIC: "{topic} on {broker} ({error})", "{broker} 上的 {topic}（{error}）";
    LISTED_TWICE: "{addr} is listed twice ({name}); only its first group is kept.", "{addr} 被列出了两次（{name}）；只保留它的第一个组。";
    SINGLE_TOPIC_PADDED: "{addr} had a single topic, which a 5.x NameServer refuses in a first registration, so {extra} was added to it.",
        "{addr} 只有一个 topic，而 5.x NameServer 在首次注册时会拒绝这种情况，所以为它加上了 {extra}。";
    BROKER_REFUSED: "Broker {addr} left out: {error}.", "已略去 broker {addr}：{error}。";
    WHAT_IF_FROZE: "Every broker registers at t = 0, so the routes start as the live ones; heartbeat times are not known live, so each starts fresh. What if {broker} froze now? Press freeze on it, then » next expiry.",
        "每个 broker 都在 t = 0 注册，所以路由一开始与实时集群相同；实时模式下不知道心跳时间，所以每个 broker 的心跳都从头算起。如果 {broker} 现在卡住了会怎样？在它上面按“冻结”，再按“» 下一次过期”。";

    // Alerts, as the bridge evaluates them (src/live/alerts.rs); the rule's name and subject in
    // RocketMQ's words, the sentence and the advice in the language shown.
    ALERTS: "alerts", "告警";
    /// The banner's heading: `{count}` alerts active.
    ALERTS_ACTIVE: "⚠ {count} alert(s) active", "⚠ {count} 条告警";
    NO_ALERTS: "no alerts", "无告警";
    /// When the condition began: `{time}` a clock time, `{age}` how long ago.
    ALERT_SINCE: "since {time} ({age} ago)", "自 {time} 起（{age} 前）";
    ALERT_MASTER_LOST: "broker group {subject} has no master: nothing can be written to it",
        "broker 组 {subject} 没有 master：无法向它写入消息";
    ALERT_MASTER_LOST_DO: "Bring its master (brokerId 0) back, or promote a slave; producers send to the other groups meanwhile.",
        "恢复它的 master（brokerId 0），或把一个 slave 提升为 master；在此期间生产者会发往其他组。";
    ALERT_BROKER_GONE: "broker {subject} is not listed by any NameServer",
        "broker {subject} 已不在任何 NameServer 的列表中";
    ALERT_BROKER_GONE_DO: "If it was not stopped on purpose: is its process up, can it reach every NameServer, do its heartbeats still go out every 30 s?",
        "如果不是有意停掉的：它的进程还在吗？它能连上每个 NameServer 吗？它的心跳还是每 30 秒发一次吗？";
    ALERT_NO_WRITABLE_QUEUE: "topic {subject} has no queue a producer can write to",
        "topic {subject} 没有生产者可写的队列";
    ALERT_NO_WRITABLE_QUEUE_DO: "Every broker of its route lost write perm (after wipeWritePerm, run addWritePerm) or its master; sends fail meanwhile.",
        "它路由中的每个 broker 都失去了写权限（执行过 wipeWritePerm 的话，维护结束后执行 addWritePerm）或失去了 master；在此期间发送会失败。";
    ALERT_DISAGREE_ROUTES: "NameServers give different routes", "各 NameServer 给出的路由不一致";
    ALERT_DISAGREE_BROKERS: "NameServers list different brokers", "各 NameServer 列出的 broker 不一致";
    ALERT_DISAGREE_DO: "NameServers never talk to each other: a broker that cannot reach one of them is missing there. Compare each one's topicQueueTable and check the brokers' namesrvAddr.",
        "NameServer 之间从不互相通信：连不上某个 NameServer 的 broker 就不会出现在它那里。逐个比较它们的 topicQueueTable，并检查 broker 的 namesrvAddr。";
    ALERT_UNREACHABLE: "NameServer {subject} is not answering", "NameServer {subject} 无应答";
    ALERT_UNREACHABLE_DO: "Check that its process runs and its port is reachable; clients and brokers that know only this NameServer are on their own meanwhile.",
        "检查它的进程是否在运行、端口是否可达；在此期间只认识这一个 NameServer 的客户端和 broker 将无法获得路由。";
    ALERT_FLAPPING: "broker {subject} keeps leaving and coming back", "broker {subject} 反复下线又上线";
    ALERT_FLAPPING_DO: "Look for a heartbeat thread that stalls (long GC pauses, a busy broker) and check that scanNotActiveBrokerInterval is well below brokerChannelExpiredTime (120 s).",
        "检查心跳线程是否卡住（长时间 GC、broker 过忙），并确认 scanNotActiveBrokerInterval 远小于 brokerChannelExpiredTime（120 秒）。";
    ALERT_BACKLOG_GROWING: "consumer group {subject} falls behind: its backlog keeps growing while members are online",
        "消费者组 {subject} 跟不上：成员在线，积压却一直在增长";
    ALERT_BACKLOG_GROWING_DO: "Its members consume slower than producers send: check their consume time and errors (consumerProgress), and add members up to the topic's read queues.",
        "成员消费慢于生产：检查它们的消费耗时和错误（consumerProgress），并增加成员，最多到 topic 的读队列数。";
    ALERT_BACKLOG_UNREAD: "consumer group {subject} has messages waiting and no member online",
        "消费者组 {subject} 有消息在等待，却没有在线成员";
    ALERT_BACKLOG_UNREAD_DO: "Start its consumers; consumerConnection lists who is connected.",
        "启动它的消费者；consumerConnection 会列出已连接的成员。";
    ALERT_QUEUE_UNOWNED: "consumer group {subject} has queues with messages waiting that no member holds",
        "消费者组 {subject} 有队列在积压消息，却没有任何成员持有它们";
    ALERT_QUEUE_UNOWNED_DO: "No member's rebalance gives them out: compare the members' subscriptions (consumerConnection) with the topic, and look for rebalance errors in the members' logs.",
        "没有成员在重平衡中分到这些队列：对照成员的订阅（consumerConnection）和 topic，并在成员日志中查找重平衡错误。";
    ALERT_DLQ_GROWING: "consumer group {subject}: messages keep going to its dead-letter topic (each failed 16 times)",
        "消费者组 {subject}：不断有消息进入它的死信 topic（每条都已失败 16 次）";
    ALERT_DLQ_GROWING_DO: "Find why its members fail them (their logs, the failure rate shown on its members), fix it, then resend them from %DLQ%<group>.",
        "找出成员消费失败的原因（查看日志，以及成员的失败速率），修复后再从 %DLQ%<group> 重新投递这些消息。";
    DLQ_N: "DLQ {n}", "死信 {n}";
    DLQ_HINT: "Messages in its dead-letter topic %DLQ%<group>: each failed 16 times, and nobody reads them there.",
        "它的死信 topic %DLQ%<group> 中的消息：每条都已失败 16 次，在那里无人消费。";
    ALERT_DISK_FULL: "broker {subject}: its commit-log disk is over 85 % full (writes are refused at 90 %)",
        "broker {subject}：commit log 所在磁盘已用超过 85%（超过 90% 将拒绝写入）";
    ALERT_DISK_FULL_DO: "Free space now: shorten fileReservedTime, add disk, or move topics to other brokers.",
        "立即释放空间：缩短 fileReservedTime、扩容磁盘，或把 topic 迁到其他 broker。";
    ALERT_REPLICATION_GAP: "slave {subject} falls ever further behind its master",
        "slave {subject} 与 master 的复制差距越来越大";
    ALERT_REPLICATION_GAP_DO: "Check the slave's disk and its network to the master; an ASYNC_MASTER lost now would lose what was not replicated.",
        "检查 slave 的磁盘以及它到 master 的网络；此时若 ASYNC_MASTER 宕机，未复制的消息将丢失。";
    ALERT_BACKLOG_TOO_OLD: "consumer group {subject}: its oldest unread message has waited longer than --backlog-age",
        "消费者组 {subject}：最早的未读消息等待已超过 --backlog-age";
    ALERT_BACKLOG_TOO_OLD_DO: "Its members are stuck or too slow: see which queues lag (routelab admin consumerLag), their consume time and errors, and add members up to the topic's read queues.",
        "成员卡住或太慢：查看哪些队列延迟（routelab admin consumerLag）、它们的消费耗时和错误，并增加成员，最多到 topic 的读队列数。";
    /// A rule this page does not know (a newer bridge): its name and the bridge's own words.
    ALERT_OTHER: "{rule} on {subject}", "{subject} 的 {rule}";

    // The history's records (`routelab history`, the live page's timeline), in the feed's words.
    H_RECORDING_STARTED: "recording started: {brokers} and {topics} listed", "开始记录：列出了 {brokers} 和 {topics}";
    H_ONE_BROKER: "1 broker", "1 个 broker";
    H_BROKERS: "{n} brokers", "{n} 个 broker";
    H_ONE_TOPIC: "1 topic", "1 个 topic";
    H_TOPICS: "{n} topics", "{n} 个 topic";
    H_BROKER_APPEARED: "{name} (id {id}, {addr}) appeared in cluster {cluster}", "{name}（id {id}，{addr}）出现在集群 {cluster} 中";
    H_BROKER_GONE: "{name} (id {id}, {addr}) is gone from cluster {cluster}", "{name}（id {id}，{addr}）已从集群 {cluster} 中消失";
    H_MASTER_CHANGED: "{name}'s master in cluster {cluster} is now {new}{was} (it was {old}): a failover", "集群 {cluster} 中 {name} 的 master 现在是 {new}{was}（原来是 {old}）：发生了主备切换";
    H_MASTER_WAS_ID: ", until now its slave id {id}", "，此前是它的 slave id {id}";
    H_NO_MASTER_BEFORE: "no master", "没有 master";
    H_GROUP_CHANGED: "group {name} of cluster {cluster} changed: {what}", "集群 {cluster} 的 broker 组 {name} 属性变了：{what}";
    H_TOPIC_ADDED_ROUTE: "topic {topic} added: {route}", "新增 topic {topic}：{route}";
    H_TOPIC_ADDED: "topic {topic} added", "新增 topic {topic}";
    H_TOPIC_REMOVED: "topic {topic} removed", "topic {topic} 已删除";
    H_ROUTE_CHANGED: "route of {topic} changed: {before} → {after}", "{topic} 的路由变了：{before} → {after}";
    H_NO_QUEUES: "no queues", "没有队列";
    H_ROUTES_CHANGED: "the routes of {count} topics changed: {topics}", "{count} 个 topic 的路由变了：{topics}";
    H_PERM_CHANGED: "perm of {topic} changed: {perms}", "{topic} 的 perm 变了：{perms}";
    H_NOT_ANSWERING: "NameServer not answering: {error}", "NameServer 无应答：{error}";
    H_ANSWERING_AGAIN: "NameServer answering again", "NameServer 恢复应答";
    H_DISAGREE_ROUTE: "NameServers disagree on the route of {topic}", "各 NameServer 对 {topic} 的路由不一致";
    H_DISAGREE_BROKER: "NameServers disagree on whether {addr} is listed", "各 NameServer 对是否列出 {addr} 不一致";
    H_AGREE_ROUTE: "NameServers agree again on the route of {topic}", "各 NameServer 对 {topic} 的路由重新一致";
    H_AGREE_BROKER: "NameServers agree again on whether {addr} is listed", "各 NameServer 对是否列出 {addr} 重新一致";
    H_CONSUMER_JOINED: "{client} joined consumer group {group} ({addr})", "{client} 加入消费者组 {group}（{addr}）";
    H_CONSUMER_LEFT: "{client} left consumer group {group}", "{client} 离开消费者组 {group}";
    H_QUEUES_MOVED: "rebalance of consumer group {group}: {n} queue(s) changed hands: {list}", "消费者组 {group} 重平衡：{n} 个队列易主：{list}";
    H_NOBODY: "nobody", "无人";
    H_AND_MORE: " and {n} more", " 等另外 {n} 个";
    H_ALERT_FIRED: "ALERT {rule}: {what}", "告警 {rule}：{what}";
    H_ALERT_RESOLVED: "alert {rule} on {subject} resolved", "{subject} 的告警 {rule} 已解除";

    // The timeline of the bridge's history and the past it shows.
    HISTORY: "History", "历史";
    HISTORY_WHAT: "What the bridge recorded: click a mark or drag to see the cluster as it was then",
        "bridge 记录下的变化：点击标记或拖动，查看当时的集群";
    HISTORY_LOADING: "loading the history…", "正在加载历史…";
    /// `{why}`: the bridge's words (e.g. started with --no-history).
    HISTORY_OFF: "no history: {why}", "没有历史记录：{why}";
    /// The bridge's own reason (`live::history::NO_HISTORY_REASON`), in the page's language.
    HISTORY_NOT_KEPT:
        "this server keeps no history (--no-history, or it could not be opened: its log says why)",
        "此服务器不保存历史（用了 --no-history，或历史库无法打开：原因见其日志）";
    NO_CHANGES_YET: "no changes recorded yet", "尚未记录到变化";
    /// `{count}`: how many changes the timeline shows.
    CHANGES_RECORDED: "{count} change(s) recorded", "已记录 {count} 处变化";
    AS_OF: "the cluster as of {time} ({age} ago)", "{time}（{age} 前）时的集群";
    LOADING_MOMENT: "loading {time}…", "正在加载 {time}…";
    BACK_TO_LIVE: "Back to live", "回到实时";
    SCRUB: "drag to look at an earlier moment", "拖动以查看更早的时刻";

    // Consumer groups, as the bridge reads them from the brokers.
    CONSUMER_GROUPS: "Consumer groups", "消费者组";
    CONSUMERS_READ_AGO: "read from the brokers {age} ago · backlog = broker offset − committed offset",
        "{age} 前从 broker 读取 · 积压 = broker 位点 − 已提交位点";
    CONSUMERS_NOT_YET: "no consumer data yet: the bridge reads the brokers every --broker-interval (never with --no-brokers)",
        "尚无消费者数据：bridge 每隔 --broker-interval 读取一次 broker（--no-brokers 时不读取）";
    CONSUMERS_READ_BEFORE: "as read from the brokers {age} before this moment · backlog = broker offset − committed offset",
        "此刻之前 {age} 从 broker 读取 · 积压 = broker 位点 − 已提交位点";
    CONSUMERS_NOT_KEPT: "the history kept no consumer groups by then",
        "当时的历史记录里还没有消费者组";
    NO_GROUPS: "no consumer group yet: a group appears with its first heartbeat (its topic %RETRY%<group>)",
        "还没有消费者组：组在第一次心跳后出现（即它的 topic %RETRY%<group>）";
    ONLINE_N: "{n} online", "{n} 个在线";
    NOBODY_ONLINE: "no member online", "没有在线成员";
    QUEUES_UNOWNED: "queues nobody reads", "有队列无人读取";
    READ_BY: "Read by", "读取者";
    READERS_WHAT: "Consumer groups with queues on this broker: messages waiting here, and which members hold its queues (×: how many), as the members say.",
        "在这个 broker 上有队列的消费者组：这里等待的消息数，以及哪些成员持有它的队列（×：几个），以成员自己的报告为准。";
    WAITING_N: "{n} waiting", "{n} 条等待";
    QUEUES_NOBODY_HOLDS: "{n} queue(s) nobody holds", "{n} 个队列无人持有";
    READERS_UNKNOWN: "readers unknown", "读取者未知";
    MEMBER_QUEUES_UNKNOWN: "does not say which queues it holds", "不报告自己持有的队列";
    LIVE_BACKLOG_HINT: "One bar per queue: its backlog (broker offset − committed offset), coloured by the member that says it reads it.",
        "每个队列一根条：它的积压（broker 位点 − 已提交位点），颜色表示自称读取它的成员。";
    BROKER_SPEED: "{broker}: stores {put} msg/s, hands out {get} msg/s", "{broker}：每秒写入 {put} 条，每秒投递 {get} 条";
    BEHIND_OLDEST: "{n} behind · oldest {age}", "落后 {n} 条 · 最早一条已等 {age}";
    MEMBER_HEALTH: "{rt} ms per message · {ok}/s ok · {failed}/s failed · {cached} cached",
        "每条 {rt} 毫秒 · 每秒成功 {ok} · 每秒失败 {failed} · 缓存 {cached} 条";
    MEMBER_HEALTH_HINT: "As the member says (its running info): how long it takes per message, how many it consumes and fails per second, and how many it has pulled and not consumed yet. Failures come back as retries; a full cache (1,000 per queue) stops its pulls.",
        "以成员自己的报告为准（running info）：每条消息的消费耗时、每秒成功与失败的条数，以及已拉取但尚未消费的条数。失败的消息会作为重试再次投递；缓存满（每个队列 1000 条）时停止拉取。";
    QUEUE_WAITED: "waited {age}", "已等 {age}";
    LAG_UNKNOWN: "lag unknown: {error}", "延迟未知：{error}";
    LAG_HINT: "How long the first unread message has waited, as its broker says (QUERY_CONSUME_TIME_SPAN, asked every --lag-interval).",
        "第一条未读消息已等待多久，以 broker 的回答为准（QUERY_CONSUME_TIME_SPAN，每隔 --lag-interval 询问一次）。";
    AGE_S: "{s} s", "{s} 秒";
    AGE_MIN: "{m} min {s} s", "{m} 分 {s} 秒";
    AGE_H: "{h} h {m} min", "{h} 小时 {m} 分";
    AGE_D: "{d} d {h} h", "{d} 天 {h} 小时";
    PRODUCERS: "Producers", "生产者";
    BUSIEST_TOPICS: "Busiest topics", "最繁忙的 topic";
    BUSIEST_HINT: "Messages per second each topic received between two readings of its queues' max offsets (GET_TOPIC_STATS_INFO), summed over its brokers. RocketMQ's own topics are left out.",
        "两次读取其队列最大位点之间每个 topic 每秒收到的消息数（GET_TOPIC_STATS_INFO），按 broker 求和。不含 RocketMQ 自己的 topic。";
    TOPIC_RATE: "{topic} {rate} msg/s", "{topic} 每秒 {rate} 条";
    PRODUCERS_HINT: "Producer groups the brokers know (their producer tables, GET_ALL_PRODUCER_INFO; 4.x brokers do not say). A producer heartbeats the brokers of the topics it sends to.",
        "broker 所知道的生产者组（它们的 producer 表，GET_ALL_PRODUCER_INFO；4.x 的 broker 不提供）。生产者会向它所发送 topic 的 broker 发送心跳。";
    PRODUCER_GROUP: "{group}: {n} online, connected to {brokers}", "{group}：{n} 个在线，连接到 {brokers}";
    BROKER_DISK: "disk {pct} %", "磁盘 {pct}%";
    BROKER_PUT_P99: "put p99 {ms} ms", "写入 p99 {ms} 毫秒";
    BROKER_SEND_WAIT: "send queue waits {ms} ms", "发送队列等待 {ms} 毫秒";
    BROKER_HEALTH_HINT: "From its runtime table: the commit-log disk's used share (files deleted by force above 85 %, writes refused above 90 %), the 99th percentile put time and how long the oldest send request has waited for a thread.",
        "来自它的运行时信息：commit log 磁盘已用比例（超过 85% 强制删除文件，超过 90% 拒绝写入）、写入耗时的 p99，以及最早的发送请求等待线程的时间。";
    BEHIND_MASTER: "{bytes} behind its master", "落后 master {bytes}";
    SLAVE_BEHIND: "slave {id} ({addr}): {bytes} behind", "slave {id}（{addr}）：落后 {bytes}";
    SLAVE_NOT_READ: "slave {id} ({addr}) not read: {error}", "slave {id}（{addr}）未能读取：{error}";
    BROKER_NOT_READ: "{broker} ({addr}) not read: {error}", "{broker}（{addr}）未能读取：{error}";
}
