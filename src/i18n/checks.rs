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
    LINK_NEEDS_BROKER: "a link needs `broker` and either `namesrv` or `producer`", "链路需要 `broker`，以及 `namesrv` 或 `producer` 之一";
    LINK_NEEDS_ONE_END: "a link needs `broker` and exactly one of `namesrv` or `producer`", "链路需要 `broker`，以及 `namesrv` 和 `producer` 中恰好一个";
    CREATE_TOPIC_TARGET: "create_topic needs exactly one of `broker` (address) or `broker_name`", "create_topic 需要 `broker`（地址）和 `broker_name` 中恰好一个";
    MUST_NOT_BE_EMPTY: "must not be empty", "不能为空";
}
