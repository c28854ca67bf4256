/*
 * The bodies Java's NameServer writes for one cluster state, in the order its collections give them
 * (tests/wire_order.rs builds the same state in RouteLab and compares the bytes).
 *
 * The state: ten brokers register in this order, each master with its topics, to a 4.9.8 and to
 * a 5.x NameServer. The program performs exactly the collection operations RouteInfoManager
 * performs for those registrations (its table types and initial capacities, its copies and sets;
 * see RouteInfoManager.registerBroker / pickupTopicRouteData / getAllTopicList / getSystemTopicList
 * in rocketmq-all-4.9.8 and rocketmq-all-5.3.3) with the JDK's own HashMap, HashSet and
 * ConcurrentHashMap, and writes the bodies as fastjson's default serializer does (bean fields in
 * alphabetical order, Long map keys bare, collections in iteration order). A register body's topics
 * arrive in name order and are walked as the ConcurrentHashMap fastjson parses them into.
 *
 * Regenerate (any JDK 8 to 18; 19 sized copied maps differently):
 *   javac -d /tmp/bo tests/data/java_order/BodyOrders.java
 *   java -cp /tmp/bo BodyOrders > tests/data/java_order/bodies.json
 */
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;

public class BodyOrders {
    record Reg(String cluster, String name, long id, String addr, String[] topics) {}

    static String[] range(String prefix, int from, int to, String... more) {
        List<String> out = new ArrayList<>(Arrays.asList(more));
        for (int i = from; i < to; i++) out.add(String.format("%s%02d", prefix, i));
        return out.toArray(new String[0]);
    }

    static final Reg[] REGS = {
        new Reg("DefaultCluster", "broker-a", 0, "10.0.0.1:10911", range("T-", 0, 10, "TopicTest")),
        new Reg("DefaultCluster", "broker-a", 1, "10.0.0.2:10911", range("T-", 0, 10, "TopicTest")),
        new Reg("DefaultCluster", "broker-b", 0, "10.0.0.3:10911", range("T-", 5, 15, "TopicTest")),
        new Reg("DefaultCluster", "broker-b", 9, "10.0.0.4:10911", new String[0]),
        new Reg("DefaultCluster", "broker-b", 2, "10.0.0.8:10911", new String[0]),
        new Reg("DefaultCluster", "broker-c", 1, "10.0.0.5:10911", new String[0]),
        new Reg("DefaultCluster", "broker-c", 4, "10.0.0.6:10911", new String[0]),
        new Reg("DefaultCluster", "broker-q", 0, "10.0.0.7:10911", range("T-", 10, 20, "TopicTest")),
        new Reg("c2", "broker-x", 0, "10.1.0.1:10911", new String[] {"TopicTest", "T-20"}),
        new Reg("c2", "broker-y", 0, "10.1.0.2:10911", new String[] {"TopicTest", "T-00"}),
    };

    public static void main(String[] args) {
        System.out.println("{\"v4\":" + run(false) + ",\n\"v5\":" + run(true) + "}");
    }

    static <K, V> Map<K, V> table(boolean v5, int cap) {
        return v5 ? new ConcurrentHashMap<>(cap) : new HashMap<>(cap);
    }

    static String q(String s) { return "\"" + s + "\""; }

    static String run(boolean v5) {
        Map<String, Map<String, String>> topicQueueTable = table(v5, 1024);
        Map<String, HashMap<Long, String>> brokerAddrTable = table(v5, 128);
        Map<String, String> clusterOf = new HashMap<>();
        Map<String, Set<String>> clusterAddrTable = table(v5, 32);
        Map<String, Long> brokerLiveTable = table(v5, 256); // 5.x keys are BrokerAddrInfo: see liveKey
        List<String> liveKeys = new ArrayList<>();
        Map<Object, String> live5 = v5 ? new ConcurrentHashMap<>(256) : null;
        for (Reg r : REGS) {
            clusterAddrTable.computeIfAbsent(r.cluster, k -> new HashSet<>()).add(r.name);
            HashMap<Long, String> addrs = brokerAddrTable.get(r.name);
            if (addrs == null) {
                addrs = new HashMap<>();
                brokerAddrTable.put(r.name, addrs);
                clusterOf.put(r.name, r.cluster);
            }
            addrs.put(r.id, r.addr);
            if (r.id == 0) {
                String[] sorted = r.topics.clone();
                Arrays.sort(sorted);
                ConcurrentHashMap<String, Boolean> tcTable = new ConcurrentHashMap<>();
                for (String t : sorted) tcTable.put(t, true);
                for (String t : tcTable.keySet()) {
                    Map<String, String> inner = topicQueueTable.get(t);
                    if (inner == null) {
                        inner = new HashMap<>();
                        inner.put(r.name, r.name);
                        topicQueueTable.put(t, inner);
                    } else {
                        inner.put(r.name, r.name);
                    }
                }
            }
            if (v5) live5.put(new BrokerAddrInfo(r.cluster, r.addr), r.addr);
            else brokerLiveTable.put(r.addr, 0L);
        }
        List<String> liveOrder = new ArrayList<>(v5 ? live5.values() : brokerLiveTable.keySet());

        // GET_BROKER_CLUSTER_INFO: the live tables.
        StringBuilder ci = new StringBuilder("{\"brokerAddrTable\":{");
        boolean first = true;
        for (Map.Entry<String, HashMap<Long, String>> e : brokerAddrTable.entrySet()) {
            if (!first) ci.append(',');
            first = false;
            ci.append(q(e.getKey())).append(':').append(brokerData(e.getKey(), clusterOf.get(e.getKey()), e.getValue(), v5));
        }
        ci.append("},\"clusterAddrTable\":{");
        first = true;
        for (Map.Entry<String, Set<String>> e : clusterAddrTable.entrySet()) {
            if (!first) ci.append(',');
            first = false;
            ci.append(q(e.getKey())).append(":[").append(join(e.getValue())).append(']');
        }
        ci.append("}}");

        // GET_ROUTEINFO_BY_TOPIC TopicTest, legacy.
        Map<String, String> qdm = topicQueueTable.get("TopicTest");
        List<String> queueDatas = new ArrayList<>(qdm.values());
        Set<String> nameSet;
        if (v5) {
            nameSet = new HashSet<>(qdm.keySet());
        } else {
            nameSet = new HashSet<>();
            nameSet.addAll(qdm.keySet());
        }
        StringBuilder route = new StringBuilder("{\"brokerDatas\":[");
        first = true;
        for (String n : nameSet) {
            HashMap<Long, String> copy = v5 ? new HashMap<>(brokerAddrTable.get(n))
                : (HashMap<Long, String>) brokerAddrTable.get(n).clone();
            if (!first) route.append(',');
            first = false;
            route.append(brokerData(n, clusterOf.get(n), copy, v5));
        }
        route.append("],\"filterServerTable\":{},\"queueDatas\":[");
        first = true;
        for (String n : queueDatas) {
            if (!first) route.append(',');
            first = false;
            route.append("{\"brokerName\":").append(q(n))
                .append(",\"perm\":6,\"readQueueNums\":8,\"topicSysFlag\":0,\"writeQueueNums\":8}");
        }
        route.append("]}");

        // GET_ALL_TOPIC_LIST_FROM_NAMESERVER: TopicList's set, addAll of the table's keys.
        Set<String> all = v5 ? ConcurrentHashMap.newKeySet() : new HashSet<>();
        all.addAll(topicQueueTable.keySet());
        String allTopics = "{\"topicList\":[" + join(all) + "]}";

        // GET_SYSTEM_TOPIC_LIST_FROM_NS.
        Set<String> sys = v5 ? ConcurrentHashMap.newKeySet() : new HashSet<>();
        for (Map.Entry<String, Set<String>> e : clusterAddrTable.entrySet()) {
            sys.add(e.getKey());
            sys.addAll(e.getValue());
        }
        String brokerAddr = null;
        for (String n : brokerAddrTable.keySet()) {
            HashMap<Long, String> addrs = brokerAddrTable.get(n);
            if (!addrs.isEmpty()) {
                brokerAddr = addrs.get(addrs.keySet().iterator().next());
                break;
            }
        }
        String sysTopics = "{\"brokerAddr\":" + q(brokerAddr) + ",\"topicList\":[" + join(sys) + "]}";

        return "{\"cluster_info\":" + q(esc(ci.toString())) + ",\n\"route_TopicTest\":" + q(esc(route.toString()))
            + ",\n\"all_topics\":" + q(esc(allTopics)) + ",\n\"system_topics\":" + q(esc(sysTopics))
            + ",\n\"live_order\":[" + join(liveOrder) + "]}";
    }

    static String brokerData(String name, String cluster, Map<Long, String> addrs, boolean v5) {
        StringBuilder b = new StringBuilder("{\"brokerAddrs\":{");
        boolean first = true;
        for (Map.Entry<Long, String> e : addrs.entrySet()) {
            if (!first) b.append(',');
            first = false;
            b.append(e.getKey()).append(':').append(q(e.getValue()));
        }
        b.append("},\"brokerName\":").append(q(name)).append(",\"cluster\":").append(q(cluster));
        if (v5) b.append(",\"enableActingMaster\":false");
        return b.append('}').toString();
    }

    static String join(Collection<String> xs) {
        StringJoiner j = new StringJoiner(",");
        for (String x : xs) j.add(q(x));
        return j.toString();
    }

    static String esc(String s) { return s.replace("\\", "\\\\").replace("\"", "\\\""); }

    /** 5.x's BrokerAddrInfo: hashCode of cluster + "_" + addr, equals on both. */
    static final class BrokerAddrInfo {
        final String cluster, addr;
        BrokerAddrInfo(String cluster, String addr) { this.cluster = cluster; this.addr = addr; }
        @Override public boolean equals(Object o) {
            return o instanceof BrokerAddrInfo b && cluster.equals(b.cluster) && addr.equals(b.addr);
        }
        @Override public int hashCode() {
            int h = 0;
            for (int i = 0; i < cluster.length(); i++) h = 31 * h + cluster.charAt(i);
            h = 31 * h + '_';
            for (int i = 0; i < addr.length(); i++) h = 31 * h + addr.charAt(i);
            return h;
        }
    }
}
