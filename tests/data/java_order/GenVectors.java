/*
 * GenVectors.java -- provenance of tests/data/java_order/vectors.json.
 *
 * What it generates: test vectors of the exact iteration order of the JDK's hash collections, as
 * the JDK that runs this program produces it:
 *
 *   "HashMap"                      java.util.HashMap            (plus the order of its clone() and of
 *                                                                new HashSet<>(map.keySet()))
 *   "HashSet"                      java.util.HashSet
 *   "Hashtable"                    java.util.Hashtable          (what java.util.Properties is on Java 8)
 *   "ConcurrentHashMap"            java.util.concurrent.ConcurrentHashMap, used from one thread
 *   "ConcurrentHashMap.newKeySet"  ConcurrentHashMap.newKeySet() / newKeySet(cap)
 *   "Properties"                   java.util.Properties of this JDK (a ConcurrentHashMap inside since
 *                                  JDK 9), filled with setProperty, iterated through entrySet()
 *
 * The committed vectors.json was generated with OpenJDK 17.0.15 (17.0.15+6-Debian-1deb12u1, Debian
 * 12); the generating JDK's version is also written into the file ("jdk"). All cases come from
 * java.util.Random streams with fixed seeds, so the same JDK regenerates the file byte for byte: every
 * case from one Random(SEED) (written as "seed"), except the computeIfAbsent cases at the end of the
 * list (their notes start with "computeIfAbsent: "), which draw from a second Random(COMPUTE_SEED), so
 * that adding them left every earlier case unchanged.
 *
 * How to regenerate (from the repository root; not run by CI, and the .class files are not
 * committed):
 *
 *   javac -d /tmp/genv tests/data/java_order/GenVectors.java
 *   java -cp /tmp/genv GenVectors tests/data/java_order/vectors.json
 *
 * javac warns that sun.misc.Unsafe is internal API: the Probe class below reads the collections'
 * private bucket arrays through it, only to describe each case (final table length, whether a bin
 * was ever a red-black tree). Nothing it reads influences the keys, the operations or the orders.
 *
 * File format (one JSON object; one case or one hash per line):
 *
 *   {"generator":..., "jdk":..., "seed":...,
 *    "hashes": [ {"s": string, "hash": String.hashCode()}, ..., {"l": long, "hash": Long.hashCode()}, ... ],
 *    "cases":  [ case, ... ]}
 *
 *   case = {"kind": K, "cap": initialCapacity or null (null = the no-argument constructor),
 *           "keys": "string" | "long", "note": what the case exercises,
 *           "table_len": length of the bucket array after all operations (0 = never allocated),
 *           "tree": {...}            only when some bin was a tree at some point, see TreeWatch
 *                                    (counts that are 0 are left out, except treeified and end_bins),
 *           "ops": [["put", key] | ["remove", key] | ["compute", key], ...],
 *           "order": keys in iteration order after all ops,
 *           "clone_order":    HashMap only: order of ((HashMap) map).clone(),
 *           "copy_set_order": HashMap only: order of new HashSet<>(map.keySet()),
 *           "keyset_order":   Properties only, and only if keySet() order differs from entrySet() order,
 *           "property_names_order":        NameServer-configuration Properties cases only, if it differs
 *                                          from "order": the order of propertyNames() (a copy into a
 *                                          new Hashtable),
 *           "string_property_names_order": likewise for stringPropertyNames() (a copy into a new HashMap)}
 *
 *   "put" is put(key, value) (add(key) for sets, setProperty(key, value) for Properties); a put of a
 *   key already present keeps its place. "remove" may name an absent key. "compute" occurs in
 *   "HashMap" cases only and is map.computeIfAbsent(key, k -> Boolean.TRUE). Unlike put it grows the
 *   table lazily: at the START of a call, when size > threshold, even if the key is already present
 *   (so the call that takes the size past the threshold does not grow it: compute never grows for
 *   the threshold after inserting, put always does); it links a new key at the HEAD of its bucket
 *   (put appends at the tail); and it treeifies the bucket when 7 or more nodes were already in it
 *   (put: 8), where, as with put, a bucket due to treeify in a table shorter than 64 doubles the table
 *   instead. A present key keeps its place in its bucket (only that lazy growth can reorder).
 *   Long keys stay within +-(2^53 - 1) so every JSON reader keeps them exact. Values are irrelevant
 *   to the order and are not recorded. Strings are written as UTF-8 (no lone surrogates occur).
 */

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

public final class GenVectors {

    static final long SEED = 0x526F7574654C6162L; // "RouteLab"
    /** The computeIfAbsent cases' own stream, so adding them left every earlier case as it was. */
    static final long COMPUTE_SEED = 0x4966416273656E74L; // "IfAbsent"
    /** Every generator draws from RND; allSpecs() swaps in a Random(COMPUTE_SEED) for the last cases. */
    static Random RND = new Random(SEED);
    static final long MAX_JSON_LONG = (1L << 53) - 1;

    // ------------------------------------------------------------------------------------------
    // The collections under test
    // ------------------------------------------------------------------------------------------

    enum Kind {
        HASH_MAP("HashMap", true),
        HASH_SET("HashSet", true),
        HASHTABLE("Hashtable", false),
        CHM("ConcurrentHashMap", true),
        CHM_KEY_SET("ConcurrentHashMap.newKeySet", true),
        PROPERTIES("Properties", true);

        final String json;
        final boolean treeBins;

        Kind(String json, boolean treeBins) {
            this.json = json;
            this.treeBins = treeBins;
        }
    }

    enum OpKind {
        PUT("put"),
        REMOVE("remove"),
        COMPUTE("compute"); // HashMap only: computeIfAbsent(key, k -> Boolean.TRUE)

        final String json;

        OpKind(String json) {
            this.json = json;
        }
    }

    record Op(OpKind kind, Object key) {
        boolean inserts() {
            return kind != OpKind.REMOVE;
        }
    }

    record Spec(Kind kind, Integer cap, boolean longKeys, List<Op> ops, String note) {}

    /** A fresh collection of one kind, driven through put / remove / order. */
    static final class Subject {
        final Kind kind;
        final Object coll;

        Subject(Kind kind, Integer cap) {
            this.kind = kind;
            this.coll = switch (kind) {
                case HASH_MAP -> cap == null ? new HashMap<>() : new HashMap<>(cap);
                case HASH_SET -> cap == null ? new HashSet<>() : new HashSet<>(cap);
                case HASHTABLE -> cap == null ? new Hashtable<>() : new Hashtable<>(cap);
                case CHM -> cap == null ? new ConcurrentHashMap<>() : new ConcurrentHashMap<>(cap);
                case CHM_KEY_SET -> cap == null ? ConcurrentHashMap.newKeySet() : ConcurrentHashMap.newKeySet(cap);
                case PROPERTIES -> cap == null ? new Properties() : new Properties(cap);
            };
        }

        @SuppressWarnings("unchecked")
        void put(Object key, int value) {
            switch (kind) {
                case HASH_MAP, HASHTABLE, CHM -> ((Map<Object, Object>) coll).put(key, value);
                case HASH_SET, CHM_KEY_SET -> ((Set<Object>) coll).add(key);
                case PROPERTIES -> ((Properties) coll).setProperty((String) key, "v" + value);
            }
        }

        /** computeIfAbsent with a function that never returns null; only the HashMap cases use it. */
        @SuppressWarnings("unchecked")
        void compute(Object key) {
            if (kind != Kind.HASH_MAP) {
                throw new IllegalArgumentException("compute is only generated for HashMap cases");
            }
            ((HashMap<Object, Object>) coll).computeIfAbsent(key, k -> Boolean.TRUE);
        }

        void remove(Object key) {
            if (coll instanceof Map<?, ?> m) {
                m.remove(key);
            } else {
                ((Set<?>) coll).remove(key);
            }
        }

        /** Iteration order: keySet() for maps, entrySet() for Properties, the iterator for sets. */
        List<Object> order() {
            if (kind == Kind.PROPERTIES) {
                List<Object> out = new ArrayList<>();
                for (Map.Entry<Object, Object> e : ((Properties) coll).entrySet()) {
                    out.add(e.getKey());
                }
                return out;
            }
            if (coll instanceof Map<?, ?> m) {
                return new ArrayList<>(m.keySet());
            }
            return new ArrayList<>((Set<?>) coll);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Diagnostics: table length and tree bins (never feeds back into the vectors)
    // ------------------------------------------------------------------------------------------

    /**
     * Reads the private bucket arrays with sun.misc.Unsafe (module jdk.unsupported, open to the
     * class path), so the program runs with a plain "java -cp"; no --add-opens.
     */
    static final class Probe {
        static final sun.misc.Unsafe U;
        static final long HASHMAP_TABLE, HASHSET_MAP, HASHTABLE_TABLE, CHM_TABLE, PROPERTIES_MAP;
        static final Class<?> HASHMAP_TREE_NODE, CHM_TREE_BIN;

        static {
            try {
                Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                U = (sun.misc.Unsafe) f.get(null);
                HASHMAP_TABLE = U.objectFieldOffset(HashMap.class.getDeclaredField("table"));
                HASHSET_MAP = U.objectFieldOffset(HashSet.class.getDeclaredField("map"));
                HASHTABLE_TABLE = U.objectFieldOffset(Hashtable.class.getDeclaredField("table"));
                CHM_TABLE = U.objectFieldOffset(ConcurrentHashMap.class.getDeclaredField("table"));
                PROPERTIES_MAP = U.objectFieldOffset(Properties.class.getDeclaredField("map"));
                HASHMAP_TREE_NODE = Class.forName("java.util.HashMap$TreeNode");
                CHM_TREE_BIN = Class.forName("java.util.concurrent.ConcurrentHashMap$TreeBin");
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The bucket array behind a subject; null before the first put. */
        static Object[] table(Subject s) {
            Object c = s.coll;
            return (Object[]) switch (s.kind) {
                case HASH_MAP -> U.getObject(c, HASHMAP_TABLE);
                case HASH_SET -> U.getObject(U.getObject(c, HASHSET_MAP), HASHMAP_TABLE);
                case HASHTABLE -> U.getObject(c, HASHTABLE_TABLE);
                case CHM -> U.getObject(c, CHM_TABLE);
                case CHM_KEY_SET -> U.getObject(((ConcurrentHashMap.KeySetView<?, ?>) c).getMap(), CHM_TABLE);
                case PROPERTIES -> U.getObject(U.getObject(c, PROPERTIES_MAP), CHM_TABLE);
            };
        }

        static BitSet treeBins(Object[] tab) {
            BitSet out = new BitSet();
            if (tab != null) {
                for (int i = 0; i < tab.length; i++) {
                    Object e = tab[i];
                    if (e != null && (e.getClass() == HASHMAP_TREE_NODE || e.getClass() == CHM_TREE_BIN)) {
                        out.set(i);
                    }
                }
            }
            return out;
        }
    }

    /** HashMap / ConcurrentHashMap bin index of a key in a power-of-two table. */
    static int binOf(Object key, int tableLen) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & (tableLen - 1);
    }

    /**
     * Watches the tree bins across one case's operations. Counted events, written as "tree":
     * treeified - a bin became a tree; remove_untreeify - a remove turned a tree bin back into a
     * list (bin still non-empty); split_untreeify / split_tree - a resize split a tree bin and a
     * non-empty half became a list / stayed a tree; end_bins - tree bins after the last op.
     */
    static final class TreeWatch {
        int treeified, removeUntreeify, splitUntreeify, splitTree;
        boolean ever;

        /**
         * tb / lb: tree bins and table length taken before the op (the array is updated in place);
         * wasPut: the op was a put or a compute (neither untreeifies a bin).
         */
        void step(Subject s, BitSet tb, int lb, Object[] after, boolean wasPut) {
            BitSet ta = Probe.treeBins(after);
            if (!ta.isEmpty()) {
                ever = true;
            }
            int la = after == null ? 0 : after.length;
            if (la == lb) {
                for (int i = tb.nextSetBit(0); i >= 0; i = tb.nextSetBit(i + 1)) {
                    if (!ta.get(i) && after[i] != null && !wasPut) {
                        removeUntreeify++;
                    }
                }
                for (int i = ta.nextSetBit(0); i >= 0; i = ta.nextSetBit(i + 1)) {
                    if (!tb.get(i)) {
                        treeified++;
                    }
                }
                return;
            }
            // Resized (possibly by several doublings): old bin i feeds every new bin j with j % lb == i.
            int[] count = new int[la];
            for (Object k : s.order()) {
                count[binOf(k, la)]++;
            }
            for (int j = 0; j < la; j++) {
                boolean fromTree = lb > 0 && tb.get(j % lb);
                if (fromTree && count[j] > 0) {
                    if (ta.get(j)) {
                        splitTree++;
                    } else {
                        splitUntreeify++;
                    }
                } else if (!fromTree && ta.get(j)) {
                    treeified++;
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Keys
    // ------------------------------------------------------------------------------------------

    static int between(int lo, int hi) { // inclusive
        return lo + RND.nextInt(hi - lo + 1);
    }

    @SafeVarargs
    static <T> T pick(T... xs) {
        return xs[RND.nextInt(xs.length)];
    }

    static final String[] SYSTEM_TOPICS = {
        "TBW102", "SELF_TEST_TOPIC", "BenchmarkTest", "OFFSET_MOVED_EVENT", "SCHEDULE_TOPIC_XXXX",
        "RMQ_SYS_TRANS_HALF_TOPIC", "RMQ_SYS_TRACE_TOPIC", "RMQ_SYS_TRANS_OP_HALF_TOPIC",
        "TRANS_CHECK_MAX_TIME_TOPIC", "DefaultCluster_REPLY_TOPIC", "DefaultCluster", "TopicTest",
        "rmq_sys_wheel_timer", "rmq_sys_REVIVE_LOG_DefaultCluster", "rmq_sys_SYNC_BROKER_MEMBER_broker-a",
    };

    static final String[] GROUPS = {
        "please_rename_unique_group_name_4", "CID_ONSAPI_OWNER", "TOOLS_CONSUMER", "order-consumer",
        "GID_payments", "FILTERSRV_CONSUMER", "SELF_TEST_C_GROUP", "CID_RMQ_SYS_TRANS",
    };

    /** Names of NamesrvConfig / NettyServerConfig fields: what a NameServer's Properties hold. */
    static final String[] CONFIG_NAMES = {
        "rocketmqHome", "kvConfigPath", "configStorePath", "productEnvName", "clusterTest",
        "orderMessageEnable", "returnOrderTopicConfigToBroker", "clientRequestThreadPoolNums",
        "defaultThreadPoolNums", "clientRequestThreadPoolQueueCapacity", "defaultThreadPoolQueueCapacity",
        "scanNotActiveBrokerInterval", "unRegisterBrokerQueueCapacity", "supportActingMaster",
        "enableAllTopicList", "enableTopicList", "notifyMinBrokerIdChanged", "enableControllerInNamesrv",
        "needWaitForService", "waitSecondsForService", "deleteTopicWithBrokerRegistration",
        "configBlackList", "listenPort", "bindAddress", "serverWorkerThreads",
        "serverCallbackExecutorThreads", "serverSelectorThreads", "serverOnewaySemaphoreValue",
        "serverAsyncSemaphoreValue", "serverChannelMaxIdleTimeSeconds", "serverSocketSndBufSize",
        "serverSocketRcvBufSize", "writeBufferHighWaterMark", "writeBufferLowWaterMark",
        "serverSocketBacklog", "serverPooledByteBufAllocatorEnable", "useEpollNativeSelector",
        "enableShutdownGracefully", "shutdownWaitTimeSeconds",
    };

    static final String[] CJK = {"订单", "主题", "集群", "北京", "上海", "消息", "支付", "库存", "日志", "测试"};
    static final String[] NON_BMP = {"😀", "🚀", "🧡", "𝄞", "🐇", "𠀀", "🔥", "🦀"};

    /** A RocketMQ-looking name: topics, groups, brokers, clusters, addresses, CJK and emoji. */
    static String realistic() {
        return switch (RND.nextInt(14)) {
            case 0 -> "TopicTest" + (RND.nextBoolean() ? "" : Integer.toString(RND.nextInt(100)));
            case 1, 2 -> String.format(Locale.ROOT, "orders-%04d", 1 + RND.nextInt(9999));
            case 3 -> "%RETRY%" + pick(GROUPS);
            case 4 -> "%DLQ%" + pick(GROUPS) + (RND.nextBoolean() ? "" : Integer.toString(RND.nextInt(10)));
            case 5 -> pick(SYSTEM_TOPICS);
            case 6 -> RND.nextBoolean() ? "broker-" + (char) ('a' + RND.nextInt(26)) : "broker-" + RND.nextInt(64);
            case 7 -> RND.nextBoolean() ? "DefaultCluster" + (RND.nextBoolean() ? "" : "-" + RND.nextInt(8))
                                        : "cluster-" + RND.nextInt(16);
            case 8 -> "127.0.0." + (1 + RND.nextInt(254)) + ":" + pick("10911", "10909", "10912");
            case 9 -> "10.0." + RND.nextInt(4) + "." + (1 + RND.nextInt(254)) + ":10911";
            case 10 -> pick(CJK) + (RND.nextBoolean() ? "" : "-" + RND.nextInt(100));
            case 11 -> "topic-" + pick(NON_BMP) + RND.nextInt(50);
            case 12 -> pick(NON_BMP) + pick(CJK);
            default -> "%RETRY%" + pick(CJK) + "-group" + RND.nextInt(20);
        };
    }

    /** Short keys for the larger cases (keeps the file small). */
    static String compact() {
        String prefix = RND.nextInt(10) == 0 ? pick("订", "🐇") : pick("t", "q", "b", "c", "k");
        return prefix + Integer.toString(RND.nextInt(40000), 36);
    }

    /** A few oddities: empty string, single chars, tab, combining marks, non-BMP only. */
    static String odd() {
        return pick("", "a", "A", "\t", "a\tb", "é", "e\u0301", "\u0000", "ÿ", "\u07FF", "\u0800",
                    "\uFFFD", "𐀀", "\uDBFF\uDFFF", "😀🧡", "主题", "polygenelubricants", "Aa", "BB");
    }

    static String anyString() {
        int r = RND.nextInt(100);
        return r < 60 ? realistic() : r < 93 ? compact() : odd();
    }

    static long anyLong() {
        int r = RND.nextInt(100);
        if (r < 30) return RND.nextInt(21);                                    // broker ids 0..20
        if (r < 45) return 16L * RND.nextInt(65);                              // 0, 16, 32, ... share bins
        if (r < 65) return ((long) between(1, 1 << 20) << 32) | RND.nextInt(1 << 20); // above 2^32
        if (r < 75) return -(1 + RND.nextInt(1000));                           // small negatives
        if (r < 85) return -(((long) between(1, 1 << 20) << 32) | RND.nextInt(1 << 20)); // big negatives
        return RND.nextLong() >> 11;                                           // anything in +-2^52
    }

    /** Like anyLong, but mostly short numbers (for the bulk of the larger cases). */
    static long compactLong() {
        int r = RND.nextInt(100);
        if (r < 40) return RND.nextInt(1000);
        if (r < 60) return 16L * RND.nextInt(256);
        if (r < 75) return -(1 + RND.nextInt(999));
        if (r < 90) return ((long) between(1, 15) << 32) + RND.nextInt(100) - 50;
        return RND.nextLong() >> 11;
    }

    static List<Object> distinct(int n, Supplier<?> gen) {
        LinkedHashSet<Object> out = new LinkedHashSet<>();
        for (int tries = 0; out.size() < n && tries < 100 * n + 100; tries++) {
            out.add(gen.get());
        }
        return new ArrayList<>(out);
    }

    static List<Object> pool(int n, boolean longs) {
        return distinct(n, longs ? GenVectors::anyLong : GenVectors::anyString);
    }

    /** Ordinary keys in bulk (compact strings keep the file small). */
    static List<Object> fillers(int n, boolean longs) {
        return distinct(n, longs ? GenVectors::compactLong : GenVectors::compact);
    }

    /** Two-character strings that share a hashCode: c1 c2 and (c1+1) (c2-31). */
    static final String[][] PAIRS = {
        {"Aa", "BB"}, {"Aa", "BB"}, {"Aa", "BB"}, {"Ab", "BC"}, {"ra", "sB"}, {"主题", "丼项"}, {"😀", "🧡"},
    };

    /**
     * Strings with one hashCode: prefix + n blocks, each block either half of a pair, + suffix.
     * Returns `count` of the 2^blocks such strings, shuffled.
     */
    static List<Object> colliding(int count) {
        String[] pair = pick(PAIRS);
        String prefix = RND.nextInt(3) > 0 ? "" : pick("t-", "orders-", "%RETRY%", "主", "🚀");
        String suffix = RND.nextInt(4) > 0 ? "" : pick("-0", "@x");
        int blocks = Math.max(1, 32 - Integer.numberOfLeadingZeros(count - 1)); // 2^blocks >= count
        List<Object> all = new ArrayList<>();
        for (int m = 0; m < (1 << blocks); m++) {
            StringBuilder sb = new StringBuilder(prefix);
            for (int b = 0; b < blocks; b++) {
                sb.append(pair[(m >>> b) & 1]);
            }
            all.add(sb.append(suffix).toString());
        }
        Collections.shuffle(all, RND);
        return new ArrayList<>(all.subList(0, count));
    }

    /** Longs with one Long.hashCode(): hash = (int) (hi ^ lo), so vary hi and set lo = target ^ hi. */
    static List<Object> collidingLongs(int count) {
        int target = RND.nextInt(4) == 0 ? RND.nextInt(64) : RND.nextInt();
        LinkedHashSet<Object> out = new LinkedHashSet<>();
        while (out.size() < count) {
            int hi = RND.nextInt(4) == 0 ? -between(1, 1 << 20) : between(0, 1 << 20);
            out.add(((long) hi << 32) | ((target ^ hi) & 0xFFFFFFFFL));
        }
        return new ArrayList<>(out);
    }

    static List<Object> collidingKeys(int count, boolean longs) {
        return longs ? collidingLongs(count) : colliding(count);
    }

    /**
     * Keys from gen whose bin (spread hash & mask) is `bin`, all with different hashCodes:
     * they share a bucket in every table up to mask + 1 long, but split apart beyond that.
     */
    static List<Object> sameBin(int count, int mask, int bin, Supplier<?> gen) {
        LinkedHashMap<Integer, Object> byHash = new LinkedHashMap<>();
        while (byHash.size() < count) {
            Object k = gen.get();
            int h = k.hashCode();
            if (((h ^ (h >>> 16)) & mask) == bin) {
                byHash.putIfAbsent(h, k);
            }
        }
        return new ArrayList<>(byHash.values());
    }

    static Supplier<?> binCandidates(boolean longs) {
        return longs ? () -> (long) RND.nextInt(1 << 24) - (RND.nextBoolean() ? 0 : (1 << 23))
                     : () -> pick("t", "g", "b", "主") + Integer.toString(RND.nextInt(1 << 20), 36);
    }

    /** Keys sharing a bucket modulo a Hashtable length (index = (h & 0x7FFFFFFF) % len). */
    static List<Object> hashtableMates(int count, int len, boolean longs) {
        int bin = RND.nextInt(len);
        Supplier<?> gen = binCandidates(longs);
        LinkedHashSet<Object> out = new LinkedHashSet<>();
        while (out.size() < count) {
            Object k = gen.get();
            if ((k.hashCode() & 0x7FFFFFFF) % len == bin) {
                out.add(k);
            }
        }
        return new ArrayList<>(out);
    }

    // ------------------------------------------------------------------------------------------
    // Operation sequences
    // ------------------------------------------------------------------------------------------

    static final class Ops {
        final List<Op> list = new ArrayList<>();
        final Set<Object> live = new LinkedHashSet<>();

        void put(Object k) {
            list.add(new Op(OpKind.PUT, k));
            live.add(k);
        }

        void remove(Object k) {
            list.add(new Op(OpKind.REMOVE, k));
            live.remove(k);
        }

        void compute(Object k) {
            list.add(new Op(OpKind.COMPUTE, k));
            live.add(k);
        }

        void computeAll(Collection<?> ks) {
            ks.forEach(this::compute);
        }

        void putAll(Collection<?> ks) {
            ks.forEach(this::put);
        }

        /** Puts keys in order; now and then re-puts a live key (which must not move). */
        void putAllWithReputs(Collection<?> ks, int reputPercent) {
            for (Object k : ks) {
                put(k);
                if (RND.nextInt(100) < reputPercent) {
                    put(randomLive());
                }
            }
        }

        Object randomLive() {
            int i = RND.nextInt(live.size());
            for (Object k : live) {
                if (i-- == 0) return k;
            }
            throw new IllegalStateException();
        }
    }

    /** A random merge of two lists that keeps each list's own order. */
    static List<Object> interleave(List<?> a, List<?> b) {
        List<Object> out = new ArrayList<>(a.size() + b.size());
        int i = 0, j = 0;
        while (i < a.size() || j < b.size()) {
            boolean takeA = j == b.size() || (i < a.size() && RND.nextInt(a.size() - i + b.size() - j) < a.size() - i);
            out.add(takeA ? a.get(i++) : b.get(j++));
        }
        return out;
    }

    static List<Object> shuffled(Collection<?> xs) {
        List<Object> out = new ArrayList<>(xs);
        Collections.shuffle(out, RND);
        return out;
    }

    static Object absentKey(boolean longs) {
        return longs ? (Object) (-(1L << 40) - RND.nextInt(1000)) : "absent-" + RND.nextInt(1000);
    }

    // ------------------------------------------------------------------------------------------
    // Scenarios
    // ------------------------------------------------------------------------------------------

    static Spec empty(Kind kind, Integer cap, boolean longs) {
        Ops o = new Ops();
        int removes = RND.nextInt(3);
        for (int i = 0; i < removes; i++) {
            o.remove(absentKey(longs));
        }
        return new Spec(kind, cap, longs, o.list, removes == 0 ? "no operations" : "only removes of absent keys");
    }

    static Spec basic(Kind kind, Integer cap, boolean longs, int n) {
        Ops o = new Ops();
        o.putAllWithReputs(pool(n, longs), 15);
        if (RND.nextBoolean()) {
            o.remove(absentKey(longs));
        }
        return new Spec(kind, cap, longs, o.list, "puts of " + n + " keys, some re-put");
    }

    static Spec churn(Kind kind, Integer cap, boolean longs, int poolSize, int length) {
        List<Object> pool = pool(poolSize, longs);
        Ops o = new Ops();
        for (int i = 0; i < length; i++) {
            Object k = pool.get(RND.nextInt(pool.size()));
            if (RND.nextInt(100) < 62) o.put(k); else o.remove(k);
        }
        return new Spec(kind, cap, longs, o.list, "random puts/removes over " + pool.size() + " keys");
    }

    static Spec removeReput(Kind kind, Integer cap, boolean longs, int n) {
        List<Object> pool = pool(n, longs);
        Ops o = new Ops();
        o.putAll(pool);
        List<Object> removed = new ArrayList<>();
        for (Object k : shuffled(pool)) {
            if (RND.nextInt(100) < 40) {
                o.remove(k);
                removed.add(k);
            }
        }
        for (Object k : interleave(shuffled(removed).subList(0, removed.size() / 2 + RND.nextInt(removed.size() / 2 + 1)),
                                   shuffled(pool).subList(0, pool.size() / 3))) {
            o.put(k); // removed keys come back (maybe elsewhere), live keys stay put
        }
        for (Object k : pool(between(0, 6), longs)) {
            o.put(k);
        }
        return new Spec(kind, cap, longs, o.list, n + " puts, ~40% removed, removed and live keys re-put");
    }

    /** One or two groups of >= 9 keys with equal hashCodes, mixed with ordinary keys. */
    static Spec treeify(Kind kind, Integer cap, boolean longs) {
        int g = between(9, 24);
        List<Object> group = collidingKeys(g, longs);
        String note = "treeify: " + g + " keys with one hash";
        if (RND.nextInt(3) == 0) {
            int g2 = between(9, 14);
            group = interleave(group, collidingKeys(g2, longs));
            note += " + " + g2 + " with another";
        }
        int f = pick(0, 5, 15, 30);
        Ops o = new Ops();
        o.putAllWithReputs(interleave(group, fillers(f, longs)), 10);
        int removes = pick(0, 0, 2, 5);
        for (int i = 0; i < removes; i++) {
            o.remove(RND.nextBoolean() ? group.get(RND.nextInt(group.size())) : o.randomLive());
        }
        note += ", " + f + " others, " + removes + " removes last";
        return new Spec(kind, cap, longs, o.list, kind.treeBins ? note : note + " (Hashtable: a long chain)");
    }

    /** A tree bin built up, then shrunk by removals to 0..6 keys (and sometimes regrown). */
    static Spec treeShrink(Kind kind, Integer cap, boolean longs) {
        int g = between(12, 24);
        List<Object> group = collidingKeys(g, longs);
        int f = pick(0, 10, 30);
        Ops o = new Ops();
        o.putAll(interleave(group, fillers(f, longs)));
        int keep = pick(0, 1, 2, 2, 3, 3, 4, 5, 6);
        List<Object> order = shuffled(group);
        List<Object> removals = order.subList(0, g - keep);
        List<Object> others = new ArrayList<>(o.live);
        others.removeAll(group);
        List<Object> otherRemovals = shuffled(others).subList(0, RND.nextInt(3) == 0 ? others.size() / 3 : 0);
        for (Object k : interleave(removals, otherRemovals)) {
            o.remove(k);
        }
        String note = "shrink: tree of " + g + " cut by removals to " + keep + ", " + f + " others";
        if (RND.nextBoolean()) {
            int back = between(1, removals.size());
            for (Object k : shuffled(removals).subList(0, back)) {
                o.put(k);
            }
            note += ", then " + back + " re-put";
        }
        return new Spec(kind, cap, longs, o.list, kind.treeBins ? note : note + " (Hashtable: a long chain)");
    }

    /**
     * Keys in one bucket of a 64-table with different hashes (bit 6 set in `hi` of them), made a
     * tree, then split by the resizes that ordinary keys cause.
     */
    static Spec treeSplit(Kind kind, Integer cap, boolean longs) {
        int bin = RND.nextInt(64);
        int lo = pick(between(1, 6), between(7, 14)), hi = between(Math.max(0, 9 - lo), 14); // a half of <= 6 untreeifies
        Supplier<?> gen = binCandidates(longs);
        List<Object> group = interleave(sameBin(lo, 127, bin, gen), sameBin(hi, 127, bin | 64, gen));
        // just past a 64-table's threshold (48), or past a 128-table's (96) for a second split
        int f = (RND.nextInt(5) == 0 ? 97 : 49) - lo - hi + between(1, 6);
        Ops o = new Ops();
        List<Object> fillers = fillers(f, longs);
        int early = RND.nextInt(Math.min(f, 20));
        o.putAll(interleave(group, fillers.subList(0, early)));
        o.putAllWithReputs(fillers.subList(early, fillers.size()), 5);
        String note = "split: " + (lo + hi) + " keys sharing a 64-bucket (" + lo + "/" + hi + " by bit 6), "
                + f + " others grow the table";
        if (RND.nextInt(3) == 0) {
            int r = between(1, lo + hi);
            for (Object k : shuffled(group).subList(0, r)) {
                o.remove(k);
            }
            note += ", " + r + " of the bucket removed";
        }
        return new Spec(kind, cap, longs, o.list, note);
    }

    static Spec grow(Kind kind, Integer cap, boolean longs, int n) {
        Ops o = new Ops();
        o.putAllWithReputs(fillers(n, longs), 10);
        return new Spec(kind, cap, longs, o.list, "growth through resizes: " + n + " compact keys");
    }

    /** Several colliding groups, same-bucket keys and ordinary keys under random puts and removes. */
    static Spec mixedCollide(Kind kind, Integer cap, boolean longs) {
        List<Object> keys = new ArrayList<>(collidingKeys(between(9, 12), longs));
        keys.addAll(collidingKeys(between(4, 8), longs));
        keys.addAll(sameBin(between(4, 8), 63, RND.nextInt(64), binCandidates(longs)));
        keys.addAll(fillers(between(5, 12), longs));
        Ops o = new Ops();
        o.putAll(shuffled(keys).subList(0, keys.size() / 2));
        int length = keys.size() * 3 / 2;
        for (int i = 0; i < length; i++) {
            Object k = keys.get(RND.nextInt(keys.size()));
            if (RND.nextInt(100) < 60) o.put(k); else o.remove(k);
        }
        return new Spec(kind, cap, longs, o.list, "mixed: 2 colliding groups, a shared bucket, others; random ops over "
                + keys.size() + " keys");
    }

    /** Shapes of the NameServer's own tables. */
    static Spec rocketmq(Kind kind, boolean longs) {
        Ops o = new Ops();
        if (longs) { // brokerAddrs: broker id -> address
            List<Object> ids = new ArrayList<>(List.of(0L, 1L, 2L));
            if (RND.nextBoolean()) ids.addAll(List.of(16L, 32L, 3L));
            if (RND.nextBoolean()) ids.addAll(List.of(20L, 17L, 4L, 48L));
            o.putAll(shuffled(ids));
            o.put(0L);
            o.remove(pick(ids.toArray()));
            o.put(pick(ids.toArray()));
            o.remove(0L);
            o.put(0L);
            return new Spec(kind, pick(null, null, 4, 16), true, o.list,
                    "brokerAddrs-like: broker ids, master 0 removed and re-registered");
        }
        int n = between(3, 25);
        List<Object> names = distinct(n, RND.nextBoolean() ? GenVectors::realistic
                                             : () -> String.format(Locale.ROOT, "orders-%04d", 1 + RND.nextInt(9999)));
        o.putAllWithReputs(names, 20);
        for (Object k : shuffled(names).subList(0, RND.nextInt(n / 2 + 1))) {
            o.remove(k);
        }
        o.putAll(distinct(between(0, 5), GenVectors::realistic));
        Integer cap = pick(null, 1024, 128, 256, 32, 16);
        return new Spec(kind, cap, false, o.list, "RocketMQ table names (topics/brokers/clusters/addresses), some removed");
    }

    static final String CONFIG_NOTE = "NameServer configuration names";

    static Spec config(Kind kind, Integer cap) {
        List<Object> names = shuffled(List.of(CONFIG_NAMES)).subList(0, pick(between(3, 12), between(13, CONFIG_NAMES.length)));
        Ops o = new Ops();
        o.putAllWithReputs(names, 20);
        if (RND.nextBoolean()) {
            o.remove(pick(names.toArray()));
            o.put(pick(names.toArray()));
        }
        return new Spec(kind, cap, false, o.list, CONFIG_NOTE + " (" + names.size() + ")");
    }

    static Spec hashtableBuckets(Kind kind, Integer cap, boolean longs) {
        int len = cap == null ? 11 : Math.max(cap, 1);
        int n = between(4, 24);
        List<Object> mates = hashtableMates(n, len, longs);
        Ops o = new Ops();
        o.putAllWithReputs(interleave(mates, fillers(between(0, 20), longs)), 10);
        for (Object k : shuffled(mates).subList(0, RND.nextInt(n / 2 + 1))) {
            o.remove(k);
        }
        return new Spec(kind, cap, longs, o.list, n + " keys in one bucket of a " + len + "-slot Hashtable, then rehashes");
    }

    static Spec big(Kind kind, Integer cap, boolean longs, int n) {
        Ops o = new Ops();
        List<Object> keys = distinct(n, longs ? () -> (long) RND.nextInt(n * 3) - n / 3 : GenVectors::compact);
        List<Object> group = collidingKeys(12, longs);
        o.putAll(interleave(keys, group));
        for (Object k : shuffled(o.live).subList(0, n / 20)) {
            o.remove(k);
        }
        return new Spec(kind, cap, longs, o.list, "large: " + n + " keys plus 12 with one hash, 5% removed");
    }

    // ------------------------------------------------------------------------------------------
    // computeIfAbsent scenarios (HashMap only; drawn from the Random(COMPUTE_SEED) stream)
    // ------------------------------------------------------------------------------------------
    //
    // HashMap.computeIfAbsent differs from put in three ways these cases pin down: it grows the
    // table at the START of a call when size > threshold (so a call for a key already present can
    // grow it, and the call that passes the threshold does not), it links a new key at the HEAD of
    // its bucket (put appends at the tail), and it treeifies when 7 nodes were already in the bucket
    // (put: 8). Like put, a bucket due to treeify in a table shorter than 64 doubles the table instead.

    static final String COMPUTE_NOTE = "computeIfAbsent: ";

    static Integer computeCap() {
        return pick(null, null, 16, 32, 2, 4);
    }

    /** Length of a HashMap's first table: tableSizeFor(cap), 16 without a cap. */
    static int firstTableLen(Integer cap) {
        return cap == null ? 16 : cap <= 1 ? 1 : Integer.highestOneBit(cap - 1) << 1;
    }

    static int thresholdOf(int tableLen) {
        return (int) (tableLen * 0.75f);
    }

    /** Ordinary keys, none of them in bucket `bin` of a `tableLen`-bucket table. */
    static List<Object> fillersAvoiding(int n, boolean longs, int tableLen, int bin) {
        return distinct(n, () -> {
            while (true) {
                Object k = longs ? (Object) compactLong() : compact();
                if (binOf(k, tableLen) != bin) return k;
            }
        });
    }

    /** Keys of one bucket, new ones by compute (each becomes the head) and some by put (the tail). */
    static Spec computeHead(Integer cap, boolean longs) {
        int n = between(3, 7);
        boolean oneHash = RND.nextBoolean();
        List<Object> group = oneHash ? collidingKeys(n, longs) : sameBin(n, 15, RND.nextInt(16), binCandidates(longs));
        Set<Object> byPut = new HashSet<>(shuffled(group).subList(0, RND.nextInt(3) == 0 ? 0 : between(1, n / 2)));
        int f = pick(0, 0, 3, 8);
        Ops o = new Ops();
        for (Object k : interleave(group, fillers(f, longs))) {
            if (byPut.contains(k) || (!group.contains(k) && RND.nextBoolean())) o.put(k); else o.compute(k);
        }
        for (Object k : shuffled(group).subList(0, between(1, n))) {
            o.compute(k); // present: no move
        }
        Object back = pick(group.toArray());
        o.remove(back);
        o.compute(back); // back at the head
        String note = COMPUTE_NOTE + n + " keys in one bucket (" + (oneHash ? "one hash" : "different hashes, one 16-bucket")
                + "), " + byPut.size() + " by put, the rest by compute (head insertion), " + f
                + " others; computes of present keys, one removed and computed back";
        return new Spec(Kind.HASH_MAP, cap, longs, o.list, note);
    }

    /**
     * A map filled only by compute until it holds one key more than the threshold of the table it
     * reached after `passes` lazy growths, then an ending: 0 none (the table stays short), 1 a compute
     * of a present key (grows it), 2 a put of a present key (does not) then a compute of one (does),
     * 3 a remove (size back to the threshold), computes of a present and a new key (no growth), then
     * of a present one (grows), 4 a put of a new key (put grows after inserting).
     */
    static Spec computeLazy(Integer cap, boolean longs, int passes, int ending) {
        int len = firstTableLen(cap);
        for (int i = 0; i < passes; i++) {
            len *= 2;
        }
        int n = thresholdOf(len) + 1;
        int g = Math.min(between(3, 5), n);
        List<Object> group = sameBin(g, len - 1, RND.nextInt(len), binCandidates(longs)); // split by the growth
        List<Object> keys = interleave(group, fillers(n - g, longs));
        Ops o = new Ops();
        for (int i = 0; i < keys.size(); i++) {
            o.compute(keys.get(i));
            if (i < keys.size() - 1 && RND.nextInt(100) < 10) {
                o.compute(o.randomLive()); // size <= threshold here or growing anyway: same point
            }
        }
        String end;
        switch (ending) {
            case 0 -> end = "nothing more (table still " + len + ")";
            case 1 -> {
                o.compute(o.randomLive());
                end = "one compute of a present key grows the table";
            }
            case 2 -> {
                o.put(o.randomLive());
                o.compute(o.randomLive());
                end = "a put of a present key (no growth), then a compute of one (growth)";
            }
            case 3 -> {
                o.remove(o.randomLive());
                o.compute(o.randomLive());
                o.compute(absentKey(longs));
                o.compute(o.randomLive());
                end = "a remove, computes of a present and a new key (no growth), then of a present key (growth)";
            }
            default -> {
                o.put(absentKey(longs));
                end = "a put of a new key (put grows after inserting)";
            }
        }
        return new Spec(Kind.HASH_MAP, cap, longs, o.list, COMPUTE_NOTE + "filled only by compute to " + n
                + " keys, one past the threshold of a " + len + "-bucket table (lazy resize pending, " + g
                + " share a bucket), then " + end);
    }

    /**
     * Treeify by compute. shape 0: keys with one hash, only computes, in a table < 64 (each bin of 7+
     * doubles the table until 64, then treeifies); 1: the table at 64 first (ordinary puts), 7 keys
     * of one bucket by put, a compute of a present one (nothing), then the 8th by compute (a tree);
     * 2: like 1 but 7 by compute, the 8th by put (no tree yet: put wants 8), the 9th by compute.
     * 3: a first group with one hash grows a 16-table to 64 by compute alone, a second group treeifies.
     */
    static Spec computeTreeify(Integer cap, boolean longs, int shape) {
        Ops o = new Ops();
        String note;
        if (shape == 0) {
            int g = between(10, 14);
            List<Object> group = collidingKeys(g, longs);
            int f = pick(0, 3, 6);
            for (Object k : interleave(group, fillers(f, longs))) {
                o.compute(k);
            }
            note = g + " keys with one hash by compute only, " + f + " others: bins of 7+ double the table to 64, then treeify";
        } else if (shape == 3) {
            List<Object> a = collidingKeys(9, longs), b = collidingKeys(8, longs);
            o.computeAll(a); // 8th: 16 -> 32, 9th: 32 -> 64 (no tree: the table was short)
            List<Object> b7 = b.subList(0, 7);
            for (Object k : interleave(b7, fillersAvoiding(between(0, 4), longs, 64, binOf(b.get(0), 64)))) {
                if (b7.contains(k)) o.put(k); else o.compute(k);
            }
            o.compute(b.get(7));            // 7 in the bucket of a 64-table: a tree
            o.compute(pick(a.toArray()));    // present in a 9-node list: nothing
            note = "9 keys with one hash by compute grow the table to 64 without a tree, then 7 of another hash by put"
                    + " and the 8th by compute treeify";
        } else {
            // 64 buckets: HashMap(32) grows there at its 25th key, HashMap() / (16) at the 25th too
            int f = between(25, 30);
            boolean oneHash = RND.nextBoolean();
            List<Object> group = oneHash ? collidingKeys(9, longs) : sameBin(9, 63, RND.nextInt(64), binCandidates(longs));
            o.putAll(fillersAvoiding(f, longs, 64, binOf(group.get(0), 64)));
            List<Object> first7 = group.subList(0, 7);
            if (shape == 1) {
                o.putAll(first7);
                o.compute(pick(first7.toArray()));
                o.compute(group.get(7));
                o.compute(group.get(8));
                note = f + " others grow the table to 64, 7 keys of one bucket (" + (oneHash ? "one hash" : "different hashes")
                        + ") by put, a compute of a present one (nothing), the 8th by compute (a tree), the 9th into the tree";
            } else {
                o.computeAll(first7);
                o.put(group.get(7));
                o.compute(group.get(8));
                note = f + " others grow the table to 64, 7 keys of one bucket (" + (oneHash ? "one hash" : "different hashes")
                        + ") by compute, the 8th by put (no tree: put wants 8 before it), the 9th by compute (a tree)";
            }
        }
        return new Spec(Kind.HASH_MAP, cap, longs, o.list, COMPUTE_NOTE + note);
    }

    /**
     * compute into an existing tree bin. shape 0: a tree of keys with one hash built by put, then
     * computes of new and present members, removes, computes back; 1: the same built by compute and
     * shrunk by removes (untreeify), then computed back into the list; 2: a tree of keys sharing a
     * 64-bucket (split by bit 6), then computes fill the map to 49 keys (> 48, no growth yet) and a
     * compute of a present key grows the table at its start, splitting the tree.
     */
    static Spec computeIntoTree(Integer cap, boolean longs, int shape) {
        Ops o = new Ops();
        String note;
        if (shape == 2) {
            int bin = RND.nextInt(64);
            int lo = between(3, 8), hi = between(Math.max(1, 10 - lo), 8);
            Supplier<?> gen = binCandidates(longs);
            List<Object> group = interleave(sameBin(lo, 127, bin, gen), sameBin(hi, 127, bin | 64, gen));
            o.computeAll(group); // the table doubles to 64 on the way, then the bucket treeifies
            int f = 49 - group.size();
            o.computeAll(fillersAvoiding(f, longs, 64, bin));
            o.compute(pick(group.toArray()));
            note = "a tree of " + group.size() + " keys sharing a 64-bucket (" + lo + "/" + hi + " by bit 6) by compute, "
                    + f + " others by compute to 49 keys, then a compute of a present member grows the table, splitting the tree";
        } else {
            int g = between(11, 14);
            List<Object> group = collidingKeys(g + 4, longs);
            List<Object> base = group.subList(0, g), extra = group.subList(g, g + 4);
            List<Object> fill = fillers(pick(0, 4, 8), longs);
            if (shape == 0) {
                o.putAll(interleave(base, fill));
                List<Object> later = interleave(extra, shuffled(base).subList(0, 4));
                o.computeAll(later); // new ones go into the tree (putTreeVal), present ones do nothing
                List<Object> gone = shuffled(group).subList(0, between(2, 5));
                gone.forEach(o::remove);
                o.computeAll(shuffled(gone).subList(0, between(1, gone.size())));
                note = "a tree of " + g + " keys with one hash by put, then computes of 4 new and 4 present ones into the tree, "
                        + gone.size() + " removed, some computed back";
            } else {
                for (Object k : interleave(base, fill)) {
                    o.compute(k);
                }
                o.computeAll(extra);
                List<Object> gone = shuffled(group).subList(0, g + 4 - between(2, 5)); // a few left: untreeify
                gone.forEach(o::remove);
                List<Object> back = shuffled(gone).subList(0, between(3, 9));
                o.computeAll(back);
                note = "a tree of " + (g + 4) + " keys with one hash by compute, cut by " + gone.size()
                        + " removes to a list, then " + back.size() + " computed back (head insertion, maybe a tree again)";
            }
        }
        return new Spec(Kind.HASH_MAP, cap, longs, o.list, COMPUTE_NOTE + note);
    }

    static String clusterName() {
        return switch (RND.nextInt(6)) {
            case 0 -> "DefaultCluster" + (RND.nextBoolean() ? "" : "-" + RND.nextInt(8));
            case 1, 2 -> "cluster-" + RND.nextInt(64);
            case 3 -> pick("集群", "北京", "上海") + "-" + RND.nextInt(10);
            case 4 -> pick("prod", "staging", "gray", "test") + "-cluster-" + RND.nextInt(16);
            default -> "rmq-" + pick("bj", "sh", "hz", "sz") + "-" + RND.nextInt(32);
        };
    }

    /**
     * RocketMQ's clusterAddrTable: registerBroker calls clusterAddrTable.computeIfAbsent(clusterName,
     * k -> new HashSet<>()) on every registration and heartbeat; unregisterBroker removes a cluster
     * whose last broker left. `clusters` clusters with 1..maxBrokers brokers each register, then
     * `rounds` heartbeat rounds with brokers leaving and joining; `tail` computes by single brokers last.
     */
    static Spec clusterAddrTable(Integer cap, String table, int clusters, int maxBrokers, int rounds, int tail) {
        List<Object> names = distinct(clusters, GenVectors::clusterName);
        List<Object> brokers = new ArrayList<>(); // the cluster of each live broker
        for (Object c : names) {
            for (int b = between(1, maxBrokers); b > 0; b--) brokers.add(c);
        }
        brokers = shuffled(brokers);
        Ops o = new Ops();
        o.computeAll(brokers);
        for (int r = 0; r < rounds; r++) {
            if (brokers.size() > 1 && RND.nextBoolean()) { // a broker shuts down
                Object c = brokers.remove(RND.nextInt(brokers.size()));
                if (!brokers.contains(c)) o.remove(c);
            }
            if (RND.nextInt(3) == 0) { // a broker starts, maybe in a new cluster
                Object c = RND.nextBoolean() ? pick(names.toArray()) : clusterName();
                brokers.add(c);
                o.compute(c);
            }
            o.computeAll(shuffled(brokers)); // every 30 s each broker registers again
        }
        for (int i = 0; i < tail; i++) {
            o.compute(brokers.get(RND.nextInt(brokers.size())));
        }
        return new Spec(Kind.HASH_MAP, cap, false, o.list, COMPUTE_NOTE + table + " filled by registrations: "
                + names.size() + " clusters, " + brokers.size() + " brokers at the end, " + rounds + " heartbeat rounds"
                + (tail > 0 ? ", " + tail + " more registrations" : ""));
    }

    static List<Spec> computeSpecs() {
        List<Spec> out = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            out.add(computeHead(pick(null, 16, 16, 2, 4), i == 5));
        }
        // lazy growth: every cap, every ending; passes > 0 grow lazily more than once first
        out.add(computeLazy(null, false, 0, 1));
        out.add(computeLazy(16, false, 0, 0));
        out.add(computeLazy(32, false, 0, 1));
        out.add(computeLazy(2, false, 2, 2));
        out.add(computeLazy(4, false, 1, 3));
        out.add(computeLazy(null, false, 0, 3));
        out.add(computeLazy(16, true, 0, 4));
        out.add(computeLazy(2, true, 0, 1));
        out.add(computeTreeify(16, false, 0));
        out.add(computeTreeify(4, true, 0));
        out.add(computeTreeify(32, false, 1));
        out.add(computeTreeify(null, true, 2));
        out.add(computeTreeify(16, false, 2));
        out.add(computeTreeify(16, false, 3));
        out.add(computeIntoTree(16, false, 0));
        out.add(computeIntoTree(computeCap(), true, 0));
        out.add(computeIntoTree(2, false, 1));
        out.add(computeIntoTree(null, false, 1));
        out.add(computeIntoTree(16, false, 2));
        String rmq = "clusterAddrTable-like new HashMap<>(32)";
        out.add(clusterAddrTable(32, rmq, between(3, 5), 3, 3, 0));
        out.add(clusterAddrTable(32, rmq, between(5, 10), 2, 2, 0));
        out.add(clusterAddrTable(32, rmq, 25, 1, 0, 0));    // 25 > 24: no growth, nobody called again
        out.add(clusterAddrTable(32, rmq, 25, 1, 0, 1));    // the next registration grows it
        out.add(clusterAddrTable(32, rmq, between(26, 30), 2, 1, 0));
        out.add(clusterAddrTable(null, "ClusterInfo-like new HashMap<>()", between(8, 14), 2, 1, 0));
        return out;
    }

    // ------------------------------------------------------------------------------------------
    // The case list
    // ------------------------------------------------------------------------------------------

    static boolean coin() {
        return RND.nextInt(10) < 3; // long keys in ~30% of the cases
    }

    static Integer mapCap() {
        return pick(null, null, null, 0, 1, 2, 4, 12, 16, 32, 64, 100, 128, 256, 1024);
    }

    static Integer treeCap() {
        return pick(null, null, 16, 32, 64, 64, 128, 256, 1024);
    }

    static int smallSize() {
        return pick(between(4, 12), between(4, 12), between(13, 24), between(25, 36));
    }

    static Integer tinyCap() {
        return pick(null, 0, 1, 2, 3, 4, 8);
    }

    static void add(List<Spec> out, int times, Supplier<Spec> gen) {
        for (int i = 0; i < times; i++) out.add(gen.get());
    }

    static List<Spec> specsFor(Kind kind) {
        boolean full = kind == Kind.HASH_MAP || kind == Kind.CHM; // the NameServer's own tables
        boolean trees = kind.treeBins;
        Supplier<Boolean> longs = () -> kind != Kind.PROPERTIES && coin();
        Supplier<Integer> treeCap = () -> kind == Kind.HASHTABLE ? pick(null, 11, 16) : treeCap();
        int treeCases = full || kind == Kind.HASH_SET ? 6 : trees ? 3 : 2;
        List<Spec> out = new ArrayList<>();
        out.add(empty(kind, null, false));
        out.add(empty(kind, pick(16, 1024), longs.get()));
        add(out, 13, () -> basic(kind, tinyCap(), longs.get(), between(1, 8)));
        add(out, 8, () -> churn(kind, tinyCap(), longs.get(), between(2, 6), between(5, 15)));
        add(out, 6, () -> basic(kind, mapCap(), longs.get(), smallSize()));
        add(out, full ? 5 : 3, () -> churn(kind, mapCap(), longs.get(), between(3, 24), between(10, 48)));
        add(out, full ? 5 : 3, () -> removeReput(kind, mapCap(), longs.get(), between(5, 24)));
        add(out, 2, () -> grow(kind, pick(null, 0, 1, 2, 3, 5), longs.get(), between(50, 80)));
        if (kind == Kind.PROPERTIES) {
            add(out, 6, () -> config(kind, pick(null, null, null, 8, 16, 64)));
        } else {
            add(out, 4, () -> rocketmq(kind, longs.get()));
        }
        add(out, treeCases, () -> treeify(kind, treeCap.get(), longs.get()));
        add(out, treeCases, () -> treeShrink(kind, treeCap.get(), longs.get()));
        // A 64-bucket table when the tree forms: HashMap(null|16|32|64) grows to 64 before it treeifies;
        // ConcurrentHashMap(cap) starts at tableSizeFor(1 + cap / 0.75), 64 for caps 24..47 (without a
        // cap it jumps from 16 to 128 on the first overfull bucket).
        Supplier<Integer> splitCap = kind == Kind.HASH_MAP || kind == Kind.HASH_SET
                ? () -> pick(null, 64, 64, 16, 32) : () -> pick(24, 32, 32, 40, 47);
        if (trees) {
            add(out, treeCases, () -> treeSplit(kind, splitCap.get(), longs.get()));
        }
        add(out, full ? 2 : 1, () -> mixedCollide(kind, treeCap.get(), longs.get()));
        if (kind == Kind.HASHTABLE) {
            add(out, 10, () -> hashtableBuckets(kind, pick(null, null, 11, 16, 1, 0, 101), longs.get()));
        }
        return out;
    }

    static List<Spec> allSpecs() {
        List<Spec> out = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            out.addAll(specsFor(kind));
        }
        // a few large ones
        out.add(big(Kind.CHM, 1024, true, 2800));
        out.add(big(Kind.HASH_MAP, 128, true, 300));
        out.add(big(Kind.HASH_SET, 16, false, 250));
        out.add(big(Kind.CHM_KEY_SET, 256, false, 250));
        out.add(big(Kind.HASHTABLE, null, true, 250));
        // the computeIfAbsent cases come last, from their own Random: the ones above stay as they were
        RND = new Random(COMPUTE_SEED);
        out.addAll(computeSpecs());
        return out;
    }

    // ------------------------------------------------------------------------------------------
    // Running a case and writing JSON
    // ------------------------------------------------------------------------------------------

    /** Per kind: cases, with a tree bin, with a remove-untreeify, with a tree split, with either untreeify. */
    static final Map<String, int[]> STATS = new LinkedHashMap<>();
    static int crossChecks, crossMismatches;
    /** computes that grew the table for a key already present / that made a tree bin. */
    static int computeGrewPresent, computeTreeified;

    static String runCase(Spec spec) {
        Subject s = new Subject(spec.kind, spec.cap);
        TreeWatch watch = new TreeWatch();
        int value = 0;
        for (Op op : spec.ops) {
            Object[] before = Probe.table(s);
            BitSet treesBefore = Probe.treeBins(before);
            int lenBefore = before == null ? 0 : before.length;
            int sizeBefore = s.order().size();
            switch (op.kind) {
                case PUT -> s.put(op.key, value++);
                case REMOVE -> s.remove(op.key);
                case COMPUTE -> s.compute(op.key);
            }
            if (spec.kind.treeBins) {
                watch.step(s, treesBefore, lenBefore, Probe.table(s), op.inserts());
            }
            if (op.kind == OpKind.COMPUTE) {
                Object[] after = Probe.table(s);
                if (after.length > lenBefore && lenBefore > 0 && s.order().size() == sizeBefore) computeGrewPresent++;
                if (Probe.treeBins(after).cardinality() > treesBefore.cardinality()) computeTreeified++;
            }
        }
        List<Object> order = s.order();
        checkPermutation(spec, order);

        StringBuilder j = new StringBuilder("{");
        j.append("\"kind\":").append(str(spec.kind.json));
        j.append(",\"cap\":").append(spec.cap == null ? "null" : spec.cap.toString());
        j.append(",\"keys\":").append(str(spec.longKeys ? "long" : "string"));
        j.append(",\"note\":").append(str(spec.note));
        Object[] tab = Probe.table(s);
        j.append(",\"table_len\":").append(tab == null ? 0 : tab.length);
        if (watch.ever) {
            j.append(",\"tree\":{\"treeified\":").append(watch.treeified);
            if (watch.removeUntreeify > 0) j.append(",\"remove_untreeify\":").append(watch.removeUntreeify);
            if (watch.splitUntreeify > 0) j.append(",\"split_untreeify\":").append(watch.splitUntreeify);
            if (watch.splitTree > 0) j.append(",\"split_tree\":").append(watch.splitTree);
            j.append(",\"end_bins\":").append(Probe.treeBins(tab).cardinality()).append('}');
        }
        j.append(",\"ops\":[");
        for (int i = 0; i < spec.ops.size(); i++) {
            Op op = spec.ops.get(i);
            j.append(i == 0 ? "" : ",").append("[").append(str(op.kind.json)).append(',').append(key(op.key)).append(']');
        }
        j.append("],\"order\":").append(keys(order));
        if (spec.kind == Kind.HASH_MAP) {
            @SuppressWarnings("unchecked")
            HashMap<Object, Object> clone = (HashMap<Object, Object>) ((HashMap<Object, Object>) s.coll).clone();
            j.append(",\"clone_order\":").append(keys(new ArrayList<>(clone.keySet())));
            j.append(",\"copy_set_order\":").append(keys(new ArrayList<>(new HashSet<>(((HashMap<?, ?>) s.coll).keySet()))));
        }
        if (spec.kind == Kind.PROPERTIES) {
            Properties p = (Properties) s.coll;
            List<Object> keySetOrder = new ArrayList<>(p.keySet());
            if (!keySetOrder.equals(order)) {
                j.append(",\"keyset_order\":").append(keys(keySetOrder));
            }
        }
        if (spec.kind == Kind.PROPERTIES && spec.note.startsWith(CONFIG_NOTE)) {
            // propertyNames() copies into a new Hashtable, stringPropertyNames() into a new HashMap
            Properties p = (Properties) s.coll;
            List<Object> names = new ArrayList<>(Collections.list(p.propertyNames()));
            if (!names.equals(order)) {
                j.append(",\"property_names_order\":").append(keys(names));
            }
            List<Object> stringNames = new ArrayList<>(p.stringPropertyNames());
            if (!stringNames.equals(order)) {
                j.append(",\"string_property_names_order\":").append(keys(stringNames));
            }
        }
        crossCheck(spec, order);

        int[] st = STATS.computeIfAbsent(spec.note.startsWith(COMPUTE_NOTE) ? spec.kind.json + " (computeIfAbsent)"
                : spec.kind.json, k -> new int[5]);
        st[0]++;
        if (watch.ever) st[1]++;
        if (watch.removeUntreeify > 0) st[2]++;
        if (watch.splitUntreeify + watch.splitTree > 0) st[3]++;
        if (watch.removeUntreeify > 0 || watch.splitUntreeify > 0) st[4]++;
        return j.append('}').toString();
    }

    /** The order must be exactly the live keys (a model of what put/remove leave behind). */
    static void checkPermutation(Spec spec, List<Object> order) {
        Set<Object> live = new HashSet<>();
        for (Op op : spec.ops) {
            if (op.inserts()) live.add(op.key); else live.remove(op.key);
        }
        if (order.size() != live.size() || !live.containsAll(order)) {
            throw new AssertionError("order is not the live key set: " + spec.note);
        }
    }

    /** Sanity: Properties behaves as ConcurrentHashMap(8 or cap), newKeySet as ConcurrentHashMap, HashSet as HashMap. */
    static void crossCheck(Spec spec, List<Object> order) {
        Kind twin = switch (spec.kind) {
            case PROPERTIES, CHM_KEY_SET -> Kind.CHM;
            case HASH_SET -> Kind.HASH_MAP;
            default -> null;
        };
        if (twin == null) return; // (so a compute, a HashMap-only op, never reaches a twin)
        Integer cap = spec.kind == Kind.PROPERTIES && spec.cap == null ? Integer.valueOf(8) : spec.cap;
        Subject t = new Subject(twin, cap);
        for (Op op : spec.ops) {
            if (op.inserts()) t.put(op.key, 0); else t.remove(op.key);
        }
        crossChecks++;
        if (!t.order().equals(order)) crossMismatches++;
    }

    static String key(Object k) {
        if (k instanceof Long l) {
            if (Math.abs(l) > MAX_JSON_LONG) throw new AssertionError("long key beyond 2^53: " + l);
            return l.toString();
        }
        return str((String) k);
    }

    static String keys(List<Object> ks) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < ks.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(key(ks.get(i)));
        }
        return sb.append(']').toString();
    }

    static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }

    // ------------------------------------------------------------------------------------------
    // Hash codes
    // ------------------------------------------------------------------------------------------

    static final String[] HASH_STRINGS = {
        "", "a", "A", "Aa", "BB", "AaAa", "BBBB", "AaBB", "BBAa", "Ab", "BC", "ra", "sB",
        "TopicTest", "TopicTest1", "orders-0001", "orders-9999", "TBW102", "SCHEDULE_TOPIC_XXXX",
        "RMQ_SYS_TRANS_HALF_TOPIC", "rmq_sys_SYNC_BROKER_MEMBER_broker-a", "%RETRY%please_rename_unique_group_name_4",
        "%DLQ%order-consumer", "broker-a", "broker-0", "broker-63", "DefaultCluster", "cluster-7",
        "127.0.0.1:10911", "127.0.0.2:10911", "10.0.0.1:10911", "192.168.0.100:10909",
        "订单", "主题", "丼项", "集群-北京", "é", "e\u0301", "ÿ", "\u07FF", "\u0800", "\uFFFD", "\u0000", "a\tb",
        "😀", "🧡", "😀🧡", "🧡😀", "𝄞", "𐀀", "\uDBFF\uDFFF", "topic-🚀7", "polygenelubricants",
        "the quick brown fox jumps over the lazy dog, 0123456789 times over and over again",
    };

    static final long[] HASH_LONGS = {
        0, 1, -1, 2, 16, 20, 32, 255, 256, 65535, 65536, 2147483647L, 2147483648L, -2147483648L,
        -2147483649L, 4294967295L, 4294967296L, 4294967297L, -4294967296L, -4294967297L, 5L << 32 | 5,
        (1L << 32) | 0x80000000L, 1234567890123L, -987654321012L, 1L << 52, -(1L << 52), (1L << 53) - 1,
        -((1L << 53) - 1), 0x1F_FFFF_0000_0000L, -0x0010_0000_0001L,
    };

    // ------------------------------------------------------------------------------------------

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java -cp DIR GenVectors OUTPUT.json");
            System.exit(2);
        }
        StringBuilder out = new StringBuilder();
        out.append("{\"generator\":\"tests/data/java_order/GenVectors.java\"");
        out.append(",\"jdk\":").append(str(System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version")));
        out.append(",\"seed\":").append(SEED);
        out.append(",\n\"hashes\":[\n");
        List<String> hashes = new ArrayList<>();
        for (String s : HASH_STRINGS) hashes.add("{\"s\":" + str(s) + ",\"hash\":" + s.hashCode() + "}");
        for (long l : HASH_LONGS) hashes.add("{\"l\":" + key(l) + ",\"hash\":" + Long.hashCode(l) + "}");
        out.append(String.join(",\n", hashes));
        out.append("\n],\n\"cases\":[\n");
        List<String> cases = new ArrayList<>();
        for (Spec spec : allSpecs()) cases.add(runCase(spec));
        out.append(String.join(",\n", cases));
        out.append("\n]}\n");
        byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
        Files.write(Paths.get(args[0]), bytes);

        System.err.printf("%d cases, %d bytes%n", cases.size(), bytes.length);
        System.err.println("kind: cases / with a tree bin / with a remove-untreeify / with a split tree / shrink or split-untreeify");
        STATS.forEach((k, v) -> System.err.printf("  %-28s %3d %3d %3d %3d %3d%n", k, v[0], v[1], v[2], v[3], v[4]));
        System.err.printf("cross-checks (Properties = CHM(8|cap), newKeySet = CHM, HashSet = HashMap): %d, mismatches %d%n",
                crossChecks, crossMismatches);
        System.err.printf("computes that grew the table for a present key: %d, that made a tree bin: %d%n",
                computeGrewPresent, computeTreeified);
    }
}
