//! The words of the workshop's controls: the forms, the picture and its inspector, the lesson
//! player, and the errors the workshop's state reports.

use super::phrases;

phrases! {
    // Forms (`ui/forms.rs`): add a broker.
    CLUSTER: "cluster", "集群";
    BROKER_NAME: "broker name", "broker 名称";
    BROKER_ID_FIELD: "id (0 = master)", "id（0 = master）";
    ADDRESS: "address", "地址";
    TOPICS_FIELD: "topics (topic:read:write:perm, …)", "topic 列表（topic:read:write:perm，…）";
    ADD_BROKER: "Add broker", "添加 broker";
    /// How the new broker's group answers its master's death (`mode`).
    MODE_FIELD: "failover mode (5.x: controller, acting_master)", "故障切换模式（5.x：controller、acting_master）";
    /// A broker's or client's datacenter (`zone`, 5.x).
    ZONE_FIELD: "zone (5.x, optional)", "机房 zone（5.x，可选）";
    /// A client asking for routes in zone mode (`zone_mode`).
    ZONE_MODE_FIELD: "ask for routes in zone mode (rocketmq.zone.mode)", "按 zone 模式查询路由（rocketmq.zone.mode）";
    /// A broker id that does not parse; `{value}` is what was typed, quoted.
    BROKER_ID_NOT_A_NUMBER: "{value} is not a number (0 = master, 1+ = slave)",
        "{value} 不是数字（0 = master，1 及以上 = slave）";
    /// A topic's read, write or perm in `topic:read:write:perm` that does not parse.
    TOPIC_PART_NOT_A_NUMBER: "{item}: {what} {value} is not a number", "{item}：{what} {value} 不是数字";

    // Forms: add a producer.
    PRODUCER_GROUP: "group", "生产者组";
    MESSAGES_PER_SECOND: "messages per second", "每秒消息数";
    RATE_NOT_A_NUMBER: "{value} is not a number of messages per second", "{value} 不是有效的每秒消息数";
    FAULT_TOLERANCE_FIELD: "fault tolerance (sendLatencyFaultEnable)", "故障规避（sendLatencyFaultEnable）";
    /// Which client version's latency tables the producer uses.
    CLIENT_TABLES: "client tables", "客户端延迟表";
    /// The client option that keeps the scenario's profile.
    /// The Add producer form's NameServer choice when none is picked.
    ANY_NAMESRV: "any (picked by the seed)", "任意（由随机种子选择）";
    AS_THE_PROFILE: "as the profile", "按场景配置";
    CLIENT_4X: "4.x (also 5.0–5.1.3)", "4.x（以及 5.0–5.1.3）";
    ADD_PRODUCER: "Add producer", "添加生产者";

    // Forms: topic and permission actions, adding a NameServer.
    CREATE_TOPIC_LEGEND: "Create or update a topic on every member of the group",
        "在组内每个成员上创建或更新 topic";
    READ_EQUALS_WRITE_QUEUES: "read = write queues", "读队列数 = 写队列数";
    PERM_FIELD: "perm (6 = RW)", "perm（6 = 读写）";
    CREATE_TOPIC: "Create topic", "创建 topic";
    QUEUES_AND_PERM_NOT_NUMBERS: "queues and perm must be numbers", "队列数和 perm 必须是数字";
    WRITE_PERM_LEGEND: "Write permission on the NameServer (wipeWritePerm / addWritePerm)",
        "NameServer 上的写权限（wipeWritePerm / addWritePerm）";
    /// Every NameServer (the choice of NameServer for a perm action).
    ALL_NAMESERVERS: "all", "全部";
    WIPE_WRITE_PERM: "Wipe write perm", "摘除写权限";
    ADD_WRITE_PERM: "Add write perm", "恢复写权限";
    ADD_A_NAMESERVER_LEGEND: "Add a NameServer", "添加一个 NameServer";
    NAME: "name", "名称";
    ADD_NAMESERVER: "Add NameServer", "添加 NameServer";

    // Forms: timing knobs.
    REGISTER_PERIOD: "register period (s)", "注册周期（s）";
    SCAN_INTERVAL: "scan interval (s)", "扫描间隔（s）";
    EXPIRY: "expiry (s)", "过期时间（s）";
    IDLE_CLOSE: "idle close (s)", "空闲关闭（s）";
    CLIENT_ROUTE_POLL: "client route poll (s)", "客户端路由轮询间隔（s）";
    SEND_TIMEOUT: "send timeout (ms)", "发送超时（ms）";
    APPLY_AND_RESTART: "Apply and restart the scenario", "应用并重新开始场景";
    /// A timing field that does not parse; `{value}` is what was typed, quoted.
    NOT_A_NUMBER: "{value} is not a number", "{value} 不是数字";

    // Inspector (`ui/inspector.rs`).
    INSPECTOR_HINT: "Click a NameServer, a broker or a producer in the picture to inspect it.",
        "在图中点击 NameServer、broker 或生产者，即可查看它的详情。";
    INSPECTOR: "inspector", "详情";
    CLOSE_THE_INSPECTOR: "close the inspector", "关闭详情";
    /// When something is due: `{time}` is like `12.5 s`.
    DUE_IN: "in {time}", "{time} 后";
    /// After the topics listed for a broker, the count of the rest (with its leading space).
    AND_MORE: " … and {count} more", " … 另有 {count} 个";
    NOT_HELD: "not held", "未持有";
    HEAL: "heal", "恢复";
    CUT: "cut", "断开";
    DEPLOY_CONTROLLER: "Deploy controller-1", "部署 controller-1";
    WIPE_WRITE_PERM_ACTION: "wipe write perm", "摘除写权限";
    ADD_WRITE_PERM_ACTION: "add write perm", "恢复写权限";
    STATE: "state", "状态";
    REGISTERS_NEXT: "registers next", "下次注册";
    NEVER_NOT_RUNNING: "never (not running)", "不会（未在运行）";
    ON_EACH_NAMESERVER: "links and heartbeats", "链路与心跳";
    HEARTBEAT_AGE: "heartbeat age", "距上次心跳";
    EXPIRES_IN: "expires in", "距过期";
    LINK: "link", "链路";
    /// A broker's topics heading, with their count.
    TOPICS_COUNT: "topics ({count})", "topic（{count} 个）";
    KILL: "kill", "杀死";
    ACTING_SHORT: "{role} · acting", "{role} · 代理";
    FREEZE: "freeze", "冻结";
    STOP: "stop", "停止";
    RESTART: "restart", "重启";
    NEXT_SCAN: "next scan", "下次扫描";
    /// A NameServer's count of topics.
    TOPICS: "topics", "topic 数";
    LIVE_BROKERS: "live brokers", "存活 broker";
    NOT_CHOSEN_YET: "not chosen yet", "尚未选定";
    NONE_YET: "none yet", "暂无";
    /// A broker group in a producer's cached route.
    ROUTE_GROUP: "{broker} ({count} write queues)", "{broker}（{count} 个写队列）";
    NEVER_FETCHED: "never fetched", "从未获取";
    FETCHED_AGO: "fetched {time} ago", "{time} 前获取";
    FAULT_TABLE_EMPTY: "empty: no broker isolated", "空：没有被隔离的 broker";
    LATENCY: "latency", "延迟";
    ISOLATED: "isolated", "隔离";
    AVAILABLE: "available", "可用";
    /// How much longer a broker stays isolated.
    FOR_MORE: "for {time} more", "还剩 {time}";
    /// The inspector's heading for a producer.
    PRODUCER_HEADING: "producer {group}", "生产者 {group}";
    CACHED_ROUTE: "cached route", "缓存的路由";
    ROUTE_AGE: "route age", "路由获取时间";
    NEXT_POLL: "next poll", "下次轮询";
    FAULT_TOLERANCE: "fault tolerance", "故障规避";
    ON: "on", "开启";
    OFF: "off", "关闭";
    FAULT_TABLE: "fault table", "故障表";
    LAST_PICKS: "last picks (newest last)", "最近的选择（最新的在最后）";

    // The picture (`ui/topology.rs`).
    /// Under a NameServer: how many brokers its brokerLiveTable holds.
    LIVE_COUNT: "{count} live", "{count} 个存活";
    LINK_CUT_TITLE: "{broker} ↔ {namesrv}: link cut", "{broker} ↔ {namesrv}：链路已断开";
    HOLDS_TITLE: "{namesrv} holds {broker}", "{namesrv} 持有 {broker}";
    POLLS_TITLE: "{group} polls {namesrv} for its route", "{group} 向 {namesrv} 轮询路由";
    /// A send edge's tooltip; `{flow}` and `{stale}` are the two notes below, or empty.
    SENDS_TITLE: "{group} sends to {broker} ({addr}){flow}{stale}", "{group} 发送到 {broker}（{addr}）{flow}{stale}";
    SENDS_FLOW_NOTE: ": thicker, the more it sent in the last 10 s", "：最近 10 s 内发送得越多，线越粗";
    SENDS_STALE_NOTE: " · its NameServer no longer holds this broker: the cached route is stale",
        " · 它的 NameServer 已不再持有这个 broker：缓存的路由已过期";
    /// A big cluster on a phone: `{shown}` groups drawn of `{total}` (those needing attention first).
    GROUPS_SHOWN: "{shown} of {total} broker groups shown, those needing attention first",
        "显示 {total} 个 broker 组中的 {shown} 个，需要关注的排在前面";
    /// The button drawing every group of a big cluster on a phone; `{total}`: how many.
    SHOW_ALL_GROUPS: "Show all {total}", "显示全部 {total} 个";
    /// The button going back to the groups needing attention.
    SHOW_FEWER_GROUPS: "Show fewer", "收起";
    PICTURE_LABEL: "the cluster as a picture: NameServers, broker groups, producers and the messages between them",
        "集群示意图：NameServer、broker 组、生产者以及它们之间的消息";
    /// A broker group's tooltip; `{note}` is what is wrong with it, or empty.
    GROUP_TITLE: "group {name}{note}", "broker 组 {name}{note}";
    GROUP_GONE_NOTE: ": no NameServer holds it", "：没有 NameServer 持有它";
    GROUP_GONE_MARK: " · dropped", " · 已剔除";
    GROUP_NO_MASTER_NOTE: ": the NameServers hold it without a master, producers skip it",
        "：NameServer 持有它但没有 master，生产者会跳过它";
    GROUP_NO_MASTER_MARK: " · no master", " · 无 master";
    GROUP_READ_ONLY_NOTE: ": write permission wiped (read-only)", "：写权限已摘除（只读）";
    GROUP_READ_ONLY_MARK: " · read-only", " · 只读";
    /// After a client asking for routes in zone mode (`rocketmq.zone.mode`): short, it sits under
    /// the node's name.
    ZONE_MODE_MARK: " · zone {zone}", " · 机房 {zone}";

    // The lesson player (`ui/lesson.rs`).
    TASK_DONE: "✓ Done: ", "✓ 已完成：";
    YOUR_TURN: "Your turn: ", "轮到你了：";
    ANSWER_RIGHT: "Right.", "答对了。";
    ANSWER_WRONG: "Not quite: the answer is “{answer}”.", "不对：正确答案是“{answer}”。";
    ANSWER_NONE: "None of these, in the world as it is now.", "在当前的状态下，以上都不对。";
    /// What really happened after a prediction: its clock time and the event.
    WHAT_HAPPENS: "What happens: {time} · {event}", "实际发生：{time} · {event}";
    PREDICT: "Predict: ", "预测：";
    /// The button running the world to the step's `until` (`{until}` says to what).
    RUN_UNTIL: "▶ Run {until}", "▶ 运行 {until}";
    LESSON: "lesson", "课程";
    CLOSE_THE_LESSON: "close the lesson", "关闭课程";
    BACK_TITLE: "the step before, the cluster as it was then (PageUp, ←)",
        "上一步，集群回到当时的状态（PageUp、←）";
    LESSON_BACK: "← Back", "← 上一步";
    NEXT_TITLE: "the next step; a task or question left undone is marked skipped (PageDown, →)",
        "下一步；未完成的任务或问题记为跳过（PageDown、→）";
    /// The lesson player's Next button.
    LESSON_NEXT: "Next →", "下一步 →";
    LESSON_FINISH: "Finish", "完成";
    LESSON_FINISHED: "Lesson finished: Back to revisit a step, or open another lesson.",
        "课程已完成：可以返回查看某一步，或打开另一课。";
    /// The language toggle's tooltip; `{language}` is the other language's own name.
    SWITCH_TO: "switch to {language}", "切换到 {language}";
    /// The start page's lessons line (its label for screen readers).
    LESSONS_LINE: "lessons", "课程";
    NEW_HERE: "New here?", "第一次来？";
    /// The start page's folded lessons line; opens on click.
    LESSONS_COUNT: "{n} lessons, step by step: start one", "{n} 节课，一步一步来：从一课开始";
    /// The list of lessons (its label for screen readers).
    LESSON_LIST: "lessons", "课程列表";
    LESSONS: "Lessons", "课程";
    CLOSE: "close", "关闭";
    LESSONS_EXPLAINED: "Each lesson walks a scenario step by step: read, do, predict, then watch what happens.",
        "每一课按步骤带你走完一个场景：阅读、动手、预测，然后观察实际发生了什么。";

    // Errors the workshop's state reports (`ui/state`).
    SHARE_LINK_TOO_LATE: "share link: &t= asks for {asked} s; at most {max} s (24 h) is opened from a link, so it opens at t = 0",
        "分享链接：&t= 要求 {asked} s；链接最多只能打开到 {max} s（24 h），因此从 t = 0 开始";
    /// A preset's file that does not parse or could not be fetched; `{error}` says why (in English).
    PRESET_ERROR: "preset {name}: {error}", "预设 {name}：{error}";
    NO_PRESET_OR_LESSON: "no preset or lesson named {name}", "没有名为 {name} 的预设或课程";
    NOTHING_CAN_EXPIRE: "No broker is registered: nothing can expire.", "没有已注册的 broker：没有可过期的条目。";
}
