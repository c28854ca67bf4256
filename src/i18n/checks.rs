//! What a scenario's checks say is wrong (`sim::scenario`'s checks of names, addresses and
//! references), where the workshop's forms can hit them.

use super::phrases;

phrases! {
    ADDR_USED: "{addr} is used by another broker", "{addr} 已被另一个 broker 使用";
    GROUP_EMPTY_OR_USED: "{group} is empty or used by another producer", "{group} 为空，或已被另一个生产者使用";
    RATE_OUT_OF_RANGE: "expected messages per second in (0, 1000]", "每秒消息数应在 (0, 1000] 之间";
    UNKNOWN_NAMESRV: "unknown NameServer {ns}; known: {known}", "没有名为 {ns} 的 NameServer；已有：{known}";
    NO_BROKER_AT: "no broker has address {addr}", "没有地址为 {addr} 的 broker";
    NO_PRODUCER_GROUP: "no producer has group {group}", "没有生产者组为 {group} 的生产者";
    LINK_NEEDS_BROKER: "a link needs `broker` and one of `namesrv`, `producer`, `controller` or `peer`", "链路需要 `broker`，以及 `namesrv`、`producer`、`controller` 或 `peer` 之一";
    LINK_NEEDS_ONE_END: "a link needs `broker` and exactly one of `namesrv`, `producer`, `controller` or `peer`", "链路需要 `broker`，以及 `namesrv`、`producer`、`controller` 或 `peer` 中恰好一个";
    CREATE_TOPIC_TARGET: "create_topic needs exactly one of `broker` (address) or `broker_name`", "create_topic 需要 `broker`（地址）和 `broker_name` 中恰好一个";
    MUST_NOT_BE_EMPTY: "must not be empty", "不能为空";
    CONTROLLER_NAME: "{name} is empty or repeated", "{name} 为空或重复";
    NEEDS_CONTROLLER: "controller mode needs a controller: add \"controllers\": [\"controller-1\"] to the scenario, or first deploy one (Add broker: Deploy controller-1)", "controller 模式需要 controller：在场景中加入 \"controllers\": [\"controller-1\"]，或先部署一个（添加 broker：部署 controller-1）";
    CONTROLLERS_FIXED: "only one controller can be deployed, where the scenario has none: the controllers' DLedger peers are fixed", "只能在场景没有 controller 时部署一个：controller 之间的 DLedger 成员是固定的";
    NEEDS_V5: "{mode} mode is RocketMQ 5's: set \"profile\": \"5.x\"", "{mode} 模式属于 RocketMQ 5：请设置 \"profile\": \"5.x\"";
    SUPPORT_ACTING_NEEDS_V5: "supportActingMaster is a RocketMQ 5 NameServer's: set \"profile\": \"5.x\"", "supportActingMaster 属于 RocketMQ 5 的 NameServer：请设置 \"profile\": \"5.x\"";
    ONE_MODE_PER_GROUP: "{name}'s other brokers run in {other} mode; every broker of a group has the same mode", "{name} 的其他 broker 运行在 {other} 模式；同一组的 broker 必须模式相同";
    DLEDGER_PEERS_FIXED: "a DLedger group's members are fixed by its dLegerPeers: list them all in \"brokers\"", "DLedger 组的成员由 dLegerPeers 固定：请把它们都列在 \"brokers\" 中";
    NO_CONTROLLER: "no controller is named {name} (known: {known})", "没有名为 {name} 的 controller（已有：{known}）";
    NOT_CONTROLLER_MODE: "{what} is not in controller mode: only a controller-mode group has replicas a controller tracks", "{what} 不是 controller 模式：只有 controller 模式的组才有 controller 跟踪的副本";
    ZONE_NEEDS_V5: "zones are RocketMQ 5's: set \"profile\": \"5.x\" and a 5.x client", "zone 属于 RocketMQ 5：请设置 \"profile\": \"5.x\"，并使用 5.x 客户端";
    ZONE_NAME_ASCII: "a zone name here is ASCII letters, digits or punctuation, without spaces", "这里的 zone 名称只能由 ASCII 字母、数字或标点组成，不含空格";
    ZONE_MODE_NEEDS_ZONE: "zone mode asks for the client's own zone: add \"zone\"", "zone 模式按客户端自己的 zone 查询路由：请加上 \"zone\"";
    ONE_ZONE_PER_GROUP: "{name}'s other brokers are in zone {other}; every broker of a group is in the same zone", "{name} 的其他 broker 在 zone {other}；同一组的 broker 必须在同一个 zone";
    CONTROLLER_ID: "controller ids start at 1", "controller 分配的 id 从 1 开始";
}
