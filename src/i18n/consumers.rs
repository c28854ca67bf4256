//! What consumers say: their events and actions in the feed, `routelab sim` and the mqadmin mirror's
//! notes, in English and 简体中文.

use super::phrases;

phrases! {
    // Events.
    EV_REBALANCED: "{client} rebalanced {topic} ({strategy}): {queues} — {n} queue(s) over {m} member(s)", "{client} 对 {topic} 做了重平衡（{strategy}）：{queues} —— {n} 个队列分给 {m} 个成员";
    NO_QUEUES_IDLE: "no queue (idle)", "没有队列（空闲）";
    EV_CONSUMER_JOINED: "{broker}: consumer {client} joined group {group}", "{broker}：消费者 {client} 加入了消费组 {group}";
    EV_CONSUMER_LEFT: "{broker}: consumer {client} left group {group}: {why}", "{broker}：消费者 {client} 离开了消费组 {group}：{why}";
    LEFT_UNREGISTERED: "it unregistered (graceful shutdown); the others are told to rebalance", "它主动注销了（优雅关闭）；其他成员收到通知立即重平衡";
    LEFT_CHANNEL_CLOSED: "its connection closed (process gone); the others are told to rebalance", "它的连接已关闭（进程已退出）；其他成员收到通知立即重平衡";
    LEFT_EXPIRED: "silent for over 120 s, dropped by the scan; nobody is told, the others notice at their next rebalance", "超过 120 秒没有心跳，被扫描移除；不会通知任何人，其他成员在下一次重平衡时才发现";
    EV_DUPLICATES: "{client} will read {n} message(s) of {queue} again: {why}", "{client} 将重复消费 {queue} 的 {n} 条消息：{why}";
    DUP_OWNER_KILLED: "{previous} consumed them but was killed before committing the offset", "{previous} 已消费它们，但在提交消费位点前被杀死";
    DUP_OWNER_FROZEN: "{previous} consumed them but hung before committing the offset", "{previous} 已消费它们，但在提交消费位点前挂起";
    DUP_OWNER_STILL_READING: "{previous} still reads this queue too (the members disagree on who is in the group)", "{previous} 也仍在消费这个队列（成员们对消费组成员的看法不一致）";
    DUP_COMMIT_NOT_SEEN: "{previous} consumed them, but the offset read back is older than its last commit", "{previous} 已消费它们，但读回的消费位点比它最后一次提交的旧";

    // Actions.
    ACT_ADD_CONSUMER_GROUP: "start consumer group {group} on {topics} ({strategy}, {n} member(s))", "启动消费组 {group}，订阅 {topics}（{strategy}，{n} 个成员）";
    ACT_ADD_CONSUMER: "start consumer {client} in group {group}", "在消费组 {group} 中启动消费者 {client}";
    ACT_ADD_CONSUMER_NEXT: "start another consumer in group {group}", "在消费组 {group} 中再启动一个消费者";
    ACT_KILL_CONSUMER: "kill consumer {client} (the process dies; its connections close)", "杀死消费者 {client}（进程退出，它的连接随之关闭）";
    ACT_FREEZE_CONSUMER: "freeze consumer {client} (it hangs: no pulls, heartbeats or commits)", "冻结消费者 {client}（它挂起：不拉取、不发心跳、不提交位点）";
    ACT_STOP_CONSUMER: "stop consumer {client} gracefully (it commits its offsets and unregisters)", "优雅停止消费者 {client}（它会提交位点并注销）";
    ACT_RESTART_CONSUMER: "restart consumer {client}", "重启消费者 {client}";
    ACT_SET_CONSUMER: "set consumer {client} to {rate} messages/s", "把消费者 {client} 的速度设为每秒 {rate} 条";
    ACT_SET_CONSUMER_GROUP: "set consumer group {group}: {what}", "设置消费组 {group}：{what}";
    STRATEGY_IS: "strategy {strategy}", "分配策略 {strategy}";
    RATE_IS: "{rate} messages/s per member", "每个成员每秒 {rate} 条";

    MARK_REBALANCE: "rebalance", "重平衡";

    // The workshop's consumer panel and inspector.
    CONSUMERS: "Consumers", "消费者";
    CONSUMERS_LABEL: "consumer groups", "消费组";
    NO_CONSUMER: "No consumer group. Add one below, or load a lesson about consumers (9, 10).", "没有消费组。在下面添加一个，或打开关于消费者的课程（第 9、10 课）。";
    READS: "reads {topics}", "订阅 {topics}";
    BACKLOG_N: "backlog {n}", "积压 {n}";
    TPS_N: "{n} msg/s", "每秒 {n} 条";
    CONSUMED_N: "consumed {n}", "已消费 {n}";
    RATE_AT_MOST: "≤ {n}/s", "上限每秒 {n} 条";
    DUPLICATES_N: "read twice {n}", "重复消费 {n}";
    IDLE: "idle: no queue", "空闲：没有队列";
    ADD_MEMBER: "Add a member", "添加成员";
    STRATEGY: "Strategy", "分配策略";
    QUEUE_BACKLOG_TITLE: "{queue}: broker offset {broker}, committed {committed}, backlog {backlog}; read by {owner}", "{queue}：broker 位点 {broker}，已提交 {committed}，积压 {backlog}；读取者 {owner}";
    NOBODY: "nobody", "无人";
    OWNER_UNKNOWN: "unknown (a member does not say which queues it holds)", "未知（有成员不报告自己持有的队列）";
    BACKLOG_HINT: "One bar per queue: its backlog (broker offset − committed offset), coloured by the member that reads it.", "每个队列一根条：它的积压（broker 位点 − 已提交位点），颜色表示读取它的成员。";
    ADD_GROUP: "Add a consumer group", "添加消费组";
    GROUP_NAME: "Group", "消费组";
    TOPIC: "Topic", "Topic 名称";
    MEMBERS: "Members", "成员数";
    RATE: "Rate (msg/s)", "速度（条/秒）";
    ADD: "Add", "添加";
    KILL: "Kill", "杀死";
    FREEZE: "Freeze", "冻结";
    STOP: "Stop", "停止";
    RESTART: "Restart", "重启";
    SET_RATE: "Set rate", "设置速度";
    MEMBER_OF: "member of {group}", "{group} 的成员";
    CONSUMER_KIND: "Consumer", "消费者";
    NEXT_REBALANCE: "Next rebalance", "下次重平衡";
    ITS_QUEUES: "Its queues", "它的队列";
    NEXT_OFFSET: "next offset", "下一个位点";
    BROKER_OFFSET: "broker offset", "broker 位点";
    QUEUE: "queue", "队列";
    QUEUES_OF_GROUP: "{group} · {n} queues", "{group} · {n} 个队列";
    PULLS_TITLE: "{client} pulls from {broker}", "{client} 从 {broker} 拉取消息";
    CONSUMER_ACTIONS_HINT: "Kill: its connections close at once. Freeze: silent, dropped after 120 s. Stop: commits, then unregisters.", "杀死：连接立即关闭。冻结：静默，120 秒后被移除。停止：先提交位点再注销。";
}
