//! The workshop's own words: the page frame, the time bar and timeline, the panels, the forms, the
//! picture and its inspector, the lesson player, and their errors.

use super::phrases;

phrases! {
    /// Before a preset's teaching note.
    WATCH_FOR: "Watch for:", "注意观察：";

    // The page frame (app.rs): tabs, banners, the footer, the picture.
    TAB_TABLES: "Tables", "路由表";
    TAB_TOPICS_PERMS: "Topics & perms", "Topic 与权限";
    TAB_ADD_BROKER: "Add broker", "添加 broker";
    TAB_ADD_PRODUCER: "Add producer", "添加生产者";
    TAB_TIMING: "Timing", "计时器";
    /// A share link in the URL that could not be read.
    SHARE_LINK_ERROR: "share link: {error}", "分享链接：{error}";
    /// The close button of the error banner and the fork notice.
    DISMISS: "dismiss", "关闭";
    FORK_NOTICE: "History after {t} replaced: your action changed what happens next. ", "{t} 之后的历史已被替换：你的操作改变了接下来发生的事。";
    UNDO: "Undo", "撤销";
    FOOTER: "RouteLab v{version} · NameServer and producer rules of RocketMQ 4.9.8 / 5.x · everything runs in your browser · Space = play/pause · ? = keyboard shortcuts", "RouteLab v{version} · 遵循 RocketMQ 4.9.8 / 5.x 的 NameServer 与生产者规则 · 一切都在你的浏览器中运行 · Space = 播放/暂停 · ? = 键盘快捷键";
    SHORTCUTS_LABEL: "keyboard shortcuts", "键盘快捷键";
    SHORTCUTS_HEADING: "Keyboard shortcuts", "键盘快捷键";
    CLOSE: "close", "关闭";
    SHORTCUTS_HINT: "Not while typing in a field. Esc closes this list.", "在输入框中输入时不生效。按 Esc 关闭此列表。";
    PICTURE_LABEL: "the cluster as a picture", "集群拓扑图";
    PICTURE_HEADING: "The cluster as a picture", "集群拓扑图";
    PICTURE_HINT: "edges: a NameServer's channel to a broker (gone once it drops the broker; dashed red: cut), route polls, sends (thicker: more sent lately; orange: a route the NameServer no longer backs) · click a node", "连线：NameServer 到 broker 的通道（NameServer 移除该 broker 后消失；红色虚线：已断开）、路由拉取、消息发送（越粗：最近发送越多；橙色：NameServer 已不再提供的路由）· 点击节点查看详情";
    HIDE_PICTURE: "Hide picture", "隐藏拓扑图";
    SHOW_PICTURE: "Show picture", "显示拓扑图";

    // The keyboard shortcuts (clock.rs), what each key does.
    KEY_PLAY_PAUSE: "play / pause", "播放 / 暂停";
    KEY_PREVIOUS_MARK: "back to the previous mark (event) on the timeline; in a lesson, the step before", "回到时间线上的上一个标记（事件）；在课程中：上一步";
    KEY_NEXT_MARK: "forward to the next mark (at the furthest time: the next timer); in a lesson, the next step", "前进到下一个标记（已在最远时刻时：下一个定时器）；在课程中：下一步";
    KEY_LESSON_STEPS: "in a lesson: the step before / the next step", "在课程中：上一步 / 下一步";
    KEY_BACK_10_S: "10 s back", "后退 10 s";
    KEY_FORWARD_10_S: "10 s forward (within what has been reached)", "前进 10 s（不超过已到达的时刻）";
    KEY_HOME: "back to t = 0", "回到 t = 0";
    KEY_END: "back to the furthest time reached (Now)", "回到已到达的最远时刻（现在）";
    KEY_TOGGLE_LIST: "show or hide this list", "显示或隐藏此列表";
    KEY_PRESENT: "presentation mode: only the picture, time, timeline, feed and lesson, in large type", "演示模式：只显示拓扑图、时间、时间线、事件流和课程，字号放大";
    KEY_ESCAPE: "close this list; leave presentation mode", "关闭此列表；退出演示模式";

    /// On a phone: the button that shows the header's controls.
    MENU: "Menu", "菜单";

    // Presentation mode (app.rs): its button, and the way out.
    PRESENT: "Present", "演示模式";
    PRESENT_HINT: "show only what the room should watch, in large type (P)", "只显示全班需要看的内容，字号放大（P）";
    LEAVE_PRESENT: "Leave presentation (Esc)", "退出演示（Esc）";

    // The time bar (timebar.rs).
    TIME_CONTROLS: "time controls", "时间控制";
    VIRTUAL_TIME: "virtual time", "虚拟时间";
    PLAY: "▶ Play", "▶ 播放";
    PAUSE: "Pause", "暂停";
    SPEED: "speed", "速度";
    STEP_HINT: "fire the next timer (registration, scan, route poll, send)", "触发下一个定时器（注册、扫描、路由拉取、发送）";
    STEP: "Step ⇥", "单步 ⇥";
    NEXT_EXPIRY_HINT: "run until a NameServer removes a broker (next expiry, idle close or scan)", "一直运行到某个 NameServer 移除一个 broker（下一次过期、空闲关闭或扫描）";
    NEXT_EXPIRY: "» next expiry", "» 下一次过期";
    BEHIND_HINT: "the simulator cannot keep up with this speed here: virtual time runs slower than chosen", "模拟器在这里跟不上这个速度：虚拟时间比所选的慢";
    BEHIND: "⚠ slower than chosen", "⚠ 比所选速度慢";
    NEXT_TIMER_HINT: "when the next timer fires", "下一个定时器何时触发";
    NEXT_TIMER_IN: "next timer in {t}", "{t} 后触发下一个定时器";

    // The timeline (timeline.rs): where it stands, its marks and its legend.
    AT_HEAD: "{t} · the furthest time reached", "{t} · 已到达的最远时刻";
    IN_THE_PAST: "showing {t} of {head} · in the past: play replays it, acting replaces what came after", "正在查看 {t}（共 {head}）· 这是过去：播放会重放它，操作会替换之后的历史";
    TIMELINE: "timeline", "时间线";
    BACK_TO_NOW_HINT: "back to the furthest time reached (End)", "回到已到达的最远时刻（End）";
    BACK_TO_NOW: "Back to now", "回到现在";
    TRACK_HINT: "click or drag to see any earlier moment", "点击或拖动以查看之前的任意时刻";
    /// The hover of marks gathered in one place.
    MARKS_GATHERED: "{t} · {n} × {kind} — the first: {text}", "{t} · {n} × {kind} — 第一个：{text}";
    MARK_BROKER_REMOVED: "broker removed", "broker 被移除";
    MARK_FIRST_REGISTRATION: "first registration", "首次注册";
    MARK_PERM_CHANGED: "write perm changed", "写权限变更";
    MARK_TOPIC_ROUTES_CHANGED: "topic routes changed", "topic 路由变更";
    MARK_FAILED_SENDS: "failed sends", "发送失败";
    MARK_ACTION: "action", "操作";
    LEGEND_REMOVED: "removed: ", "移除原因：";
    LEGEND_EXPIRED: "expired (no heartbeat for 120 s)", "过期（120 s 没有心跳）";
    LEGEND_CHANNEL_CLOSED: "channel closed", "连接关闭";
    LEGEND_IDLE_CLOSED: "idle closed", "空闲关闭";
    LEGEND_UNREGISTERED: "unregistered", "主动注销";

    // The scenario bar and its share / export / import dialog (scenario_bar.rs, fetch.rs).
    LOADING: "loading…", "加载中…";
    UNTITLED_SCENARIO: "Untitled scenario", "未命名场景";
    SCENARIO: "scenario", "场景";
    PRESET: "preset", "预设场景";
    CHOOSE: "choose…", "请选择…";
    SEED: "seed {seed}", "随机种子 {seed}";
    RESET_HINT: "back to t = 0 of this scenario", "回到本场景的 t = 0";
    RESET: "Reset", "重置";
    CLOSE_SHARE: "Close", "关闭";
    SHARE_OPEN: "Share · export · import", "分享 · 导出 · 导入";
    SHARE_LABEL: "share, export, import", "分享、导出、导入";
    SHARE_WITH_TIME: "open at the moment shown (t = {t} s)", "打开时停在当前显示的时刻（t = {t} s）";
    SHARE_LINK_AT_MOMENT: "Share link (reproduces this session, paused at the moment shown, your actions included)", "分享链接（重现本次会话，暂停在当前显示的时刻，包含你的操作）";
    SHARE_LINK_AT_START: "Share link (reproduces this session, paused at t = 0, your actions included)", "分享链接（重现本次会话，暂停在 t = 0，包含你的操作）";
    PUT_IN_ADDRESS_BAR: "Put it in the address bar", "放入地址栏";
    SCENARIO_FILE: "Scenario file (copy to export; paste and Import to load)", "场景文件（复制即可导出；粘贴后点“导入”即可加载）";
    IMPORT: "Import", "导入";
    IMPORT_ERROR: "import: {error}", "导入：{error}";
    FETCH_NO_WINDOW: "no window", "没有 window 对象";
    FETCH_FAILED: "the request failed", "请求失败";
    FETCH_HTTP_STATUS: "{url}: HTTP {status}", "{url}：HTTP {status}";
    FETCH_NOT_TEXT: "{url}: not text", "{url}：不是文本";

    // The cluster panel (cluster.rs): NameServer chips and broker cards.
    CLUSTER: "Cluster", "集群";
    CLUSTER_COUNTS: "Cluster ({brokers} brokers in {groups} groups)", "集群（{groups} 个 broker 组，共 {brokers} 个 broker）";
    NAMESRV_CHIP: " {n} brokers live · next scan in {t}", " {n} 个存活 broker · {t} 后下一次扫描";
    NAMESRVS_DISAGREE_HINT: "the NameServers disagree about this broker", "各 NameServer 对这个 broker 的看法不一致";
    NAMESRVS_DISAGREE: "NameServers disagree", "NameServer 之间不一致";
    LAST_HEARTBEAT: "{ns}: last heartbeat {age} ago; expires after {timeout}", "{ns}：最后一次心跳在 {age} 前；超过 {timeout} 没有心跳即过期";
    NO_LIVE_ENTRY: "{ns} has no live entry for this broker", "{ns} 中没有这个 broker 的存活记录";
    NOT_REGISTERED: "not registered", "未注册";
    HEAL_NAMESRV_LINK_HINT: "heal the link to this NameServer", "恢复到这个 NameServer 的链路";
    CUT_NAMESRV_LINK_HINT: "cut the link to this NameServer (silently)", "（静默地）断开到这个 NameServer 的链路";
    LINK_CUT_HEAL: "link cut · heal", "链路已断开 · 恢复";
    CUT_LINK: "cut link", "断开链路";
    NEXT_REGISTRATION_IN: "next registration in {t}", "{t} 后下一次注册";
    NO_REGISTRATIONS: "no registrations", "不再注册";
    HEARTBEAT_NOW_HINT: "register with every reachable NameServer now", "立即向所有可达的 NameServer 注册";
    HEARTBEAT_NOW: "♥ now", "♥ 立即心跳";
    KILL_HINT: "the process dies; the OS closes its connections", "进程退出；操作系统关闭它的连接";
    KILL: "kill", "杀死";
    FREEZE_HINT: "the process hangs: no heartbeats, nothing closed", "进程挂起：没有心跳，连接也不关闭";
    FREEZE: "freeze", "冻结";
    STOP_HINT: "graceful shutdown: UNREGISTER_BROKER", "优雅关闭：UNREGISTER_BROKER";
    STOP: "stop", "停止";
    RESTART_HINT: "start the process (again)", "（重新）启动进程";
    RESTART: "restart", "重启";

    // The topic route panel (route.rs, topic_picker.rs).
    MASTER_ID_0: "master (id 0)", "master（id 0）";
    NO_MASTER_SKIPPED: "— none: producers skip it", "— 无：生产者会跳过它";
    NO_BODY_TOPIC_NOT_EXIST: "(no body: TOPIC_NOT_EXIST)", "（无响应体：TOPIC_NOT_EXIST）";
    TOPIC_ROUTE_LABEL: "topic route", "Topic 路由";
    TOPIC_ROUTE: "Topic route", "Topic 路由";
    TOPIC_NOT_EXIST_NO_ROUTE: "TOPIC_NOT_EXIST (code 17): no route", "TOPIC_NOT_EXIST（错误码 17）：没有路由";
    JSON_A_CLIENT_RECEIVES: "JSON a client receives", "客户端收到的 JSON";
    JSON_WIRE_HINT: "Byte for byte what this NameServer sends a 4.9.4+ or 5.x client: brokerDatas and queueDatas in the order of RocketMQ's hash maps, not sorted.", "逐字节展示这个 NameServer 发给 4.9.4+ 或 5.x 客户端的内容：brokerDatas 和 queueDatas 按 RocketMQ 哈希表中的顺序排列，未经排序。";
    CACHED_COPIES: "Producers' cached copies", "生产者缓存的路由副本";
    NO_PRODUCER_SENDS_TO: "no producer sends to {topic}", "没有生产者向 {topic} 发送";
    NO_NAMESRV_YET: "(no NameServer yet)", "（尚未连接 NameServer）";
    FETCHED_AGO: "fetched {age} ago", "{age} 前拉取";
    NOT_FETCHED_YET: "not fetched yet", "尚未拉取";
    CACHED_VIA: " via {ns}, {age}: ", "（经由 {ns}，{age}）：";
    NO_ROUTE: "no route", "没有路由";
    STALE_HINT: "differs from what its NameServer answers now", "与它的 NameServer 现在返回的不同";
    STALE: "stale", "已过时";
    NEXT_POLL_IN: " · next poll in {t}", " · {t} 后下一次拉取";
    FILTER_N_TOPICS: "filter {n} topics", "筛选 {n} 个 topic";

    // The producers panel (producers.rs).
    PRODUCERS_LABEL: "producers", "生产者";
    PRODUCERS: "Producers", "生产者";
    NO_PRODUCER: "No producer. Add one below (Add producer).", "没有生产者。请在下方添加（添加生产者）。";
    SENDS_TO_AT_RATE: " → {topic} at {rate}/s", " → {topic}，{rate}/s";
    CLIENT: "client {client}", "{client} 客户端";
    FAULT_TOLERANCE_ON: "fault tolerance on", "故障规避已开启";
    FAULT_TOLERANCE_OFF: "fault tolerance off", "故障规避已关闭";
    SENT_N: "sent {n}", "已发送 {n}";
    OK_N: "ok {n}", "成功 {n}";
    FAILED_N: "failed {n}", "失败 {n}";
    RETRIES_N: "retries {n}", "重试 {n}";
    QUEUES_HINT: "the queues this producer may send to, in order; the last pick is outlined", "这个生产者可以发送的队列，按顺序排列；最近一次选中的带边框";
    NO_ROUTE_YET: "no route yet", "还没有路由";
    STRIP_HINT: "recent attempts, oldest first; red = failed, ↻ = retry", "最近的发送尝试，最早的在前；红色 = 失败，↻ = 重试";
    PICK_HINT: "t={t} {broker}#{queue} attempt {attempt}", "t={t} {broker}#{queue} 第 {attempt} 次尝试";
    LATENCY: "latency", "延迟";
    ISOLATED: "isolated", "隔离";
    REACHABLE: "reachable", "可达";
    AVAILABLE: "available", "可用";
    FOR_MORE: "for {t} more", "还剩 {t}";
    YES: "yes", "是";
    NO: "no", "否";
    PRODUCER_LINKS_HINT: "cut or heal the network between this producer and a broker", "断开或恢复这个生产者与某个 broker 之间的网络";
    BROKER_LINK_CUT_HEAL: "{name}: link cut · heal", "{name}：链路已断开 · 恢复";
    CUT_FROM: "cut from {name}", "断开与 {name} 的链路";
    TURN_FAULT_TOLERANCE_OFF: "turn fault tolerance off", "关闭故障规避";
    TURN_FAULT_TOLERANCE_ON: "turn fault tolerance on", "开启故障规避";
    USE_CLIENT: "use {client} client", "使用 {client} 客户端";
    REMOVE: "remove", "移除";

    // The tables tab and the mqadmin tab (tables.rs).
    COLUMN_READ: "read", "读队列";
    COLUMN_WRITE: "write", "写队列";
    COLUMN_AGE: "age", "距今";
    COLUMN_TIMEOUT: "timeout", "超时";
    FILTER_TOPICS: "filter topics", "筛选 topic";
    FILTER_EXAMPLE: "e.g. TopicTest", "例如 TopicTest";
    TOPIC_QUEUE_TABLE_COUNTS: "topicQueueTable ({topics} topics, {rows} rows)", "topicQueueTable（{topics} 个 topic，{rows} 行）";
    BROKER_ADDR_TABLE_COUNTS: "brokerAddrTable ({n} groups)", "brokerAddrTable（{n} 个 broker 组）";
    BROKER_LIVE_TABLE_COUNTS: "brokerLiveTable ({n} brokers)", "brokerLiveTable（{n} 个 broker）";
    FILTER_SERVERS_EMPTY: "empty (filter servers are a legacy feature)", "空（filter server 是已废弃的旧功能）";
    MQADMIN_RUNTIME_HINT: "Runtime columns (TPS, timer, disk) are not simulated and read as an idle broker's.", "运行时的列（TPS、timer、磁盘）不做模拟，显示为空闲 broker 的值。";
}
