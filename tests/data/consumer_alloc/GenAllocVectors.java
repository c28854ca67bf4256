/*
 * GenAllocVectors.java -- provenance of tests/data/consumer_alloc/vectors.json.
 *
 * What it generates: what RocketMQ's own client classes answer, so that RouteLab's consumer
 * (src/consumer/) can be checked against them case by case (tests/consumer_alloc_vectors.rs):
 *
 *   "cases"  allocations by the four strategies a push consumer can be given by name:
 *            AllocateMessageQueueAveragely ("AVG"), AllocateMessageQueueAveragelyByCircle
 *            ("AVG_BY_CIRCLE"), AllocateMessageQueueConsistentHash ("CONSISTENT_HASH", with the
 *            default 10 virtual nodes and other counts) and AllocateMessageQueueByConfig ("CONFIG"),
 *            each called as RebalanceImpl.rebalanceByTopic calls it: allocate(group, currentCID,
 *            mqAll, cidAll) -- mostly with both lists sorted as rebalanceByTopic sorts them, some
 *            unsorted (the strategy takes the order it is given), with uneven splits, more members
 *            than queues, a member missing from cidAll, empty lists and an empty currentCID (the
 *            exceptions' messages are recorded).
 *   "sorts"  Collections.sort of MessageQueue lists (MessageQueue.compareTo) and of client ids
 *            (String.compareTo), and each queue's toString (the consistent hash's key).
 *   "hashes" ConsistentHashRouter's default hash (MD5, the first four bytes as an unsigned int).
 *
 * The classes are RocketMQ's own, compiled from the rocketmq-all-4.9.8 tag of apache/rocketmq
 * (Maven Central is not reachable from RouteLab's build machines, so the jar is rebuilt from its
 * sources): client/.../consumer/AllocateMessageQueueStrategy.java,
 * client/.../consumer/rebalance/{AbstractAllocateMessageQueueStrategy, AllocateMessageQueueAveragely,
 * AllocateMessageQueueAveragelyByCircle, AllocateMessageQueueConsistentHash,
 * AllocateMessageQueueByConfig}.java, common/.../common/message/MessageQueue.java,
 * common/.../common/consistenthash/*.java and logging/.../logging/InternalLogger.java. Two
 * stand-ins in shim/ replace what those files import and the allocations do not depend on:
 * commons-collections' CollectionUtils.isEmpty (null or empty, as documented) and the client's
 * logger (which writes nothing). commons-lang3 is Debian's (/usr/share/java/commons-lang3.jar).
 *
 * How to regenerate (not run by CI; nothing compiled is committed), from the repository root with
 * an apache/rocketmq clone in $ROCKETMQ:
 *
 *   rm -rf /tmp/alloc && mkdir -p /tmp/alloc/src
 *   git -C "$ROCKETMQ" archive rocketmq-all-4.9.8 \
 *     client/src/main/java/org/apache/rocketmq/client/consumer/AllocateMessageQueueStrategy.java \
 *     client/src/main/java/org/apache/rocketmq/client/consumer/rebalance \
 *     common/src/main/java/org/apache/rocketmq/common/message/MessageQueue.java \
 *     common/src/main/java/org/apache/rocketmq/common/consistenthash \
 *     logging/src/main/java/org/apache/rocketmq/logging/InternalLogger.java | tar -x -C /tmp/alloc/src
 *   rm /tmp/alloc/src/client/src/main/java/org/apache/rocketmq/client/consumer/rebalance/AllocateMachineRoomNearby.java \
 *      /tmp/alloc/src/client/src/main/java/org/apache/rocketmq/client/consumer/rebalance/AllocateMessageQueueByMachineRoom.java
 *   javac -encoding UTF-8 -cp /usr/share/java/commons-lang3.jar -d /tmp/alloc/classes \
 *     $(find /tmp/alloc/src tests/data/consumer_alloc/shim -name '*.java') tests/data/consumer_alloc/GenAllocVectors.java
 *   java -Dfile.encoding=UTF-8 -cp /tmp/alloc/classes:/usr/share/java/commons-lang3.jar \
 *     GenAllocVectors tests/data/consumer_alloc/vectors.json
 *
 * -Dfile.encoding=UTF-8: the MD5 hash reads String.getBytes() in the platform's charset; the few
 * non-ASCII ids below are hashed as UTF-8, the charset every JDK since 18 uses by default.
 * The committed file was generated with OpenJDK 17.0.15. Every case comes from one
 * java.util.Random(SEED), so the same classes regenerate the file byte for byte.
 */

import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.apache.rocketmq.client.consumer.AllocateMessageQueueStrategy;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragelyByCircle;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueByConfig;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueConsistentHash;
import org.apache.rocketmq.common.message.MessageQueue;

public class GenAllocVectors {
    static final long SEED = 20261205L;

    static final String[] TOPICS = {"TopicTest", "orders", "Orders", "T-1", "T-10", "T-2", "%RETRY%cg-1", "a"};
    static final String[] BROKERS = {"broker-a", "broker-b", "broker-c", "Broker-A", "broker-10", "broker-2", "b",
        "broker-\u00e9", "\ud83d\ude00-broker", "\uff21-broker"};

    public static void main(String[] args) throws Exception {
        Random r = new Random(SEED);
        StringBuilder out = new StringBuilder();
        out.append("{\"generator\": \"GenAllocVectors\", \"rocketmq\": \"rocketmq-all-4.9.8\", \"jdk\": ")
            .append(str(System.getProperty("java.runtime.version"))).append(", \"seed\": ").append(SEED).append(",\n");

        out.append("\"cases\": [\n");
        int n = 0;
        String[] strategies = {"AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH", "CONFIG"};
        for (int i = 0; i < 1200; i++) {
            String strategy = strategies[i % strategies.length];
            String topic = TOPICS[r.nextInt(TOPICS.length)];
            List<MessageQueue> mqAll = queues(r, topic);
            List<String> cidAll = clientIds(r);
            String current;
            int pick = r.nextInt(20);
            if (pick == 0) {
                current = "";
            } else if (pick == 1 || cidAll.isEmpty()) {
                current = clientId(r);
            } else {
                current = cidAll.get(r.nextInt(cidAll.size()));
            }
            boolean sorted = r.nextInt(5) != 0;
            if (sorted) {
                Collections.sort(mqAll);
                Collections.sort(cidAll);
            } else {
                Collections.shuffle(mqAll, r);
                Collections.shuffle(cidAll, r);
            }
            int vnodes = 10;
            List<MessageQueue> config = null;
            AllocateMessageQueueStrategy s;
            switch (strategy) {
                case "AVG": s = new AllocateMessageQueueAveragely(); break;
                case "AVG_BY_CIRCLE": s = new AllocateMessageQueueAveragelyByCircle(); break;
                case "CONSISTENT_HASH": {
                    int[] counts = {10, 10, 10, 0, 1, 3, 50};
                    vnodes = counts[r.nextInt(counts.length)];
                    s = vnodes == 10 ? new AllocateMessageQueueConsistentHash() : new AllocateMessageQueueConsistentHash(vnodes);
                    break;
                }
                default: {
                    config = new ArrayList<>();
                    for (MessageQueue mq : mqAll) {
                        if (r.nextBoolean()) {
                            config.add(mq);
                        }
                    }
                    AllocateMessageQueueByConfig c = new AllocateMessageQueueByConfig();
                    c.setMessageQueueList(config);
                    s = c;
                }
            }
            // The result, or the message of the exception AbstractAllocateMessageQueueStrategy.check throws.
            String outcome;
            try {
                outcome = "\"result\": " + mqs(s.allocate("cg-vectors", current, mqAll, cidAll));
            } catch (IllegalArgumentException e) {
                outcome = "\"error\": " + str(e.getMessage());
            }
            out.append(n++ == 0 ? "" : ",\n");
            out.append("{\"strategy\": ").append(str(s.getName()))
                .append(strategy.equals("CONSISTENT_HASH") ? ", \"virtual_nodes\": " + vnodes : "")
                .append(", \"sorted\": ").append(sorted)
                .append(", \"current\": ").append(str(current))
                .append(", \"mq_all\": ").append(mqs(mqAll))
                .append(", \"cid_all\": ").append(strs(cidAll))
                .append(config != null ? ", \"config\": " + mqs(config) : "")
                .append(", ").append(outcome).append("}");
        }
        out.append("\n],\n\"sorts\": [\n");
        for (int i = 0; i < 60; i++) {
            List<MessageQueue> mixed = new ArrayList<>();
            int count = 1 + r.nextInt(12);
            for (int k = 0; k < count; k++) {
                mixed.add(new MessageQueue(TOPICS[r.nextInt(TOPICS.length)], BROKERS[r.nextInt(BROKERS.length)], r.nextInt(12)));
            }
            List<String> ids = clientIds(r);
            List<MessageQueue> sortedMqs = new ArrayList<>(mixed);
            Collections.sort(sortedMqs);
            List<String> sortedIds = new ArrayList<>(ids);
            Collections.sort(sortedIds);
            List<String> names = new ArrayList<>();
            for (MessageQueue mq : mixed) {
                names.add(mq.toString());
            }
            out.append(i == 0 ? "" : ",\n");
            out.append("{\"mqs\": ").append(mqs(mixed)).append(", \"sorted_mqs\": ").append(mqs(sortedMqs))
                .append(", \"to_string\": ").append(strs(names))
                .append(", \"ids\": ").append(strs(ids)).append(", \"sorted_ids\": ").append(strs(sortedIds)).append("}");
        }
        out.append("\n],\n\"hashes\": [\n");
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        List<String> keys = new ArrayList<>();
        keys.add("");
        keys.add("192.168.0.1@1234-0");
        keys.add("MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=0]");
        keys.add("\u00e9\u4e2d\ud83d\ude00");
        for (int i = 0; i < 40; i++) {
            keys.add(clientId(r) + "-" + r.nextInt(12));
        }
        for (int i = 0; i < keys.size(); i++) {
            // ConsistentHashRouter.MD5Hash.hash, written out: the class is private.
            md5.reset();
            md5.update(keys.get(i).getBytes());
            byte[] d = md5.digest();
            long h = 0;
            for (int k = 0; k < 4; k++) {
                h <<= 8;
                h |= ((int) d[k]) & 0xFF;
            }
            out.append(i == 0 ? "" : ",\n");
            out.append("{\"key\": ").append(str(keys.get(i))).append(", \"hash\": ").append(h).append("}");
        }
        out.append("\n]}\n");
        try (Writer w = new OutputStreamWriter(new FileOutputStream(args[0]), StandardCharsets.UTF_8)) {
            w.write(out.toString());
        }
    }

    /** Queues of one topic on 1-4 brokers, 0-8 readable queues each (some queue ids skipped). */
    static List<MessageQueue> queues(Random r, String topic) {
        List<MessageQueue> list = new ArrayList<>();
        if (r.nextInt(25) == 0) {
            return list;
        }
        int brokers = 1 + r.nextInt(4);
        List<String> names = new ArrayList<>();
        while (names.size() < brokers) {
            String b = BROKERS[r.nextInt(BROKERS.length)];
            if (!names.contains(b)) {
                names.add(b);
            }
        }
        for (String b : names) {
            int q = r.nextInt(9);
            for (int i = 0; i < q; i++) {
                list.add(new MessageQueue(topic, b, i));
            }
        }
        return list;
    }

    static List<String> clientIds(Random r) {
        List<String> ids = new ArrayList<>();
        if (r.nextInt(25) == 0) {
            return ids;
        }
        int n = 1 + r.nextInt(r.nextInt(4) == 0 ? 20 : 6);
        while (ids.size() < n) {
            String id = clientId(r);
            if (!ids.contains(id)) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** Client ids in the forms MQClientInstance builds (IP@instanceName, with a unit name), and a few odd ones. */
    static String clientId(Random r) {
        switch (r.nextInt(8)) {
            case 0: return "10.0.0." + r.nextInt(20) + "@DEFAULT";
            case 1: return "192.168.1." + r.nextInt(256) + "@" + (1000 + r.nextInt(9000)) + "#" + (100000000L + r.nextInt(900000000));
            case 2: return "172.16.0." + r.nextInt(10) + "@" + (1000 + r.nextInt(9000)) + "@unit-" + r.nextInt(3);
            case 3: return "consumer-\u00e9" + r.nextInt(5);
            case 4: return "Z" + r.nextInt(10);
            default: return "192.168.0." + r.nextInt(256) + "@" + (1000 + r.nextInt(9000));
        }
    }

    static String mqs(List<MessageQueue> list) {
        if (list == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < list.size(); i++) {
            MessageQueue mq = list.get(i);
            b.append(i == 0 ? "" : ", ").append("[").append(str(mq.getTopic())).append(", ")
                .append(str(mq.getBrokerName())).append(", ").append(mq.getQueueId()).append("]");
        }
        return b.append("]").toString();
    }

    static String strs(List<String> list) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < list.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(str(list.get(i)));
        }
        return b.append("]").toString();
    }

    /** A JSON string: escapes quotes, backslashes and control characters; everything else as is (UTF-8). */
    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
