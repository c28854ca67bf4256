//! The NameServer's configuration as Java writes it: `key=value` lines (`-p`, the config file
//! written back) and GET_NAMESRV_CONFIG's body in the order each line's Java puts its items.

use std::collections::BTreeMap;

use crate::java_order::{JavaTable, PropertiesOrder};

/// `key=value` lines, as Java's `MixAll.properties2String`.
pub fn properties_text(props: &BTreeMap<String, String>) -> String {
    props.iter().map(|(k, v)| format!("{k}={v}\n")).collect()
}

/// 4.9.8's `NamesrvConfig` fields, in declaration order (the order `MixAll.object2Properties` puts
/// them in).
const NAMESRV_CONFIG_4X: &[&str] = &[
    "rocketmqHome",
    "kvConfigPath",
    "configStorePath",
    "productEnvName",
    "clusterTest",
    "orderMessageEnable",
    "configBlackList",
];

/// 4.9.8's `NettyServerConfig` fields, in declaration order.
const NETTY_SERVER_CONFIG_4X: &[&str] = &[
    "listenPort",
    "serverWorkerThreads",
    "serverCallbackExecutorThreads",
    "serverSelectorThreads",
    "serverOnewaySemaphoreValue",
    "serverAsyncSemaphoreValue",
    "serverChannelMaxIdleTimeSeconds",
    "serverSocketSndBufSize",
    "serverSocketRcvBufSize",
    "writeBufferHighWaterMark",
    "writeBufferLowWaterMark",
    "serverSocketBacklog",
    "serverPooledByteBufAllocatorEnable",
    "useEpollNativeSelector",
];

/// The GET_NAMESRV_CONFIG body as each line writes it. 5.x sorts it (`properties2String(all,
/// true)`, a TreeMap). 4.9.8 writes its kept `allConfigs` Properties in their order: each
/// registered config object (NamesrvConfig, then NettyServerConfig, then the `-c` file's items,
/// here every other item) is turned into a fresh Properties in field order and merged into it by
/// walking that one's order; `java` says which `Properties` the server's Java has.
pub fn config_body(props: &BTreeMap<String, String>, v5: bool, java: PropertiesOrder) -> String {
    if v5 {
        return properties_text(props);
    }
    let mut all: JavaTable<&str> = java.new_properties();
    let declared = |k: &&String| {
        NAMESRV_CONFIG_4X.contains(&k.as_str()) || NETTY_SERVER_CONFIG_4X.contains(&k.as_str())
    };
    let rest: Vec<&str> = props
        .keys()
        .filter(|k| !declared(k))
        .map(String::as_str)
        .collect();
    for group in [NAMESRV_CONFIG_4X, NETTY_SERVER_CONFIG_4X, &rest] {
        let mut fresh: JavaTable<&str> = java.new_properties();
        for key in group.iter().filter(|k| props.contains_key(**k)) {
            fresh.insert(key);
        }
        for key in fresh.iter() {
            all.insert(key);
        }
    }
    all.iter()
        .filter_map(|k| props.get_key_value(*k))
        .map(|(k, v)| format!("{k}={v}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_body_in_each_lines_order() {
        let keys = "rocketmqHome kvConfigPath configStorePath productEnvName clusterTest orderMessageEnable configBlackList listenPort serverWorkerThreads serverCallbackExecutorThreads serverSelectorThreads serverOnewaySemaphoreValue serverAsyncSemaphoreValue serverChannelMaxIdleTimeSeconds serverSocketSndBufSize serverSocketRcvBufSize writeBufferHighWaterMark writeBufferLowWaterMark serverSocketBacklog serverPooledByteBufAllocatorEnable useEpollNativeSelector";
        let props: BTreeMap<String, String> = keys
            .split(' ')
            .map(|k| (k.to_owned(), "v".to_owned()))
            .collect();
        let order = |text: String| -> Vec<String> {
            text.lines()
                .map(|l| l.split('=').next().unwrap_or("").to_owned())
                .collect()
        };
        let v4 = order(config_body(&props, false, PropertiesOrder::Java8));
        assert_eq!(v4.join(" "), "writeBufferLowWaterMark writeBufferHighWaterMark serverCallbackExecutorThreads useEpollNativeSelector productEnvName serverSocketBacklog configStorePath kvConfigPath serverAsyncSemaphoreValue rocketmqHome serverOnewaySemaphoreValue configBlackList serverSocketRcvBufSize serverPooledByteBufAllocatorEnable serverWorkerThreads clusterTest serverSocketSndBufSize orderMessageEnable serverSelectorThreads serverChannelMaxIdleTimeSeconds listenPort");
        let v5 = order(config_body(&props, true, PropertiesOrder::Java8));
        let mut sorted = v5.clone();
        sorted.sort();
        assert_eq!(v5, sorted);
    }
}
