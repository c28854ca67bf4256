// Computes the ACL signature vectors of tests/data/acl/vectors.json the way RocketMQ's client
// does (client/.../acl/common in 5.3.3, acl/.../common in 4.9.8): AclClientRPCHook adds AccessKey
// to the extFields, puts them in a TreeMap (Java's String order), AclUtils.combineRequestContent
// concatenates every value but Signature's as UTF-8 and appends the body, and AclSigner signs that
// with HmacSHA1 keyed by the secret key's UTF-8 bytes, Base64-encoded. Only the JDK is used (the
// same javax.crypto Mac and a standard Base64 that commons-codec's encodeBase64 matches), so it
// runs where Maven Central does not: `java AclVectors.java > vectors.json`.
import java.nio.charset.StandardCharsets;
import java.util.*;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class AclVectors {
    static String sign(Map<String, String> ext, byte[] body, String ak, String sk) throws Exception {
        Map<String, String> fields = new HashMap<>(ext);
        fields.put("AccessKey", ak);
        SortedMap<String, String> sorted = new TreeMap<>(fields);
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            if (!"Signature".equals(e.getKey())) {
                sb.append(e.getValue());
            }
        }
        byte[] head = sb.toString().getBytes(StandardCharsets.UTF_8);
        byte[] total = new byte[head.length + (body == null ? 0 : body.length)];
        System.arraycopy(head, 0, total, 0, head.length);
        if (body != null) System.arraycopy(body, 0, total, head.length, body.length);
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(sk.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        return Base64.getEncoder().encodeToString(mac.doFinal(total));
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static void vector(List<String> out, String name, String ak, String sk, String[][] ext, byte[] body) throws Exception {
        Map<String, String> m = new LinkedHashMap<>();
        StringBuilder e = new StringBuilder("{");
        for (String[] kv : ext) {
            m.put(kv[0], kv[1]);
            if (e.length() > 1) e.append(',');
            e.append(q(kv[0])).append(':').append(q(kv[1]));
        }
        e.append('}');
        String bodyHex = body == null ? "" : HexFormat.of().formatHex(body);
        out.add("  {\"name\":" + q(name) + ",\"access_key\":" + q(ak) + ",\"secret_key\":" + q(sk)
            + ",\"ext_fields\":" + e + ",\"body_hex\":" + q(bodyHex)
            + ",\"signature\":" + q(sign(m, body, ak, sk)) + "}");
    }

    public static void main(String[] args) throws Exception {
        List<String> out = new ArrayList<>();
        vector(out, "no fields, no body", "RocketMQ", "12345678", new String[][] {}, null);
        vector(out, "consume stats as routelab admin sends it", "rocketmq2", "12345678",
            new String[][] {{"consumerGroup", "GID_orders"}}, null);
        vector(out, "consume time span", "AK", "SK",
            new String[][] {{"topic", "TopicTest"}, {"group", "GID_backlog"}}, null);
        vector(out, "a stale signature is not signed over", "ak", "sk",
            new String[][] {{"topic", "T"}, {"Signature", "old"}}, null);
        vector(out, "keys sort as Java's TreeMap: upper case first", "ak", "sk",
            new String[][] {{"b", "2"}, {"B", "1"}, {"a", "3"}, {"Z", "4"}}, null);
        vector(out, "Chinese values and secret", "运维", "密钥-秘密",
            new String[][] {{"topic", "订单主题"}, {"consumerGroup", "消费组"}}, null);
        vector(out, "a body is appended", "ak", "sk",
            new String[][] {{"brokerName", "broker-a"}},
            "{\"topic\":\"T\",\"queueId\":3}".getBytes(StandardCharsets.UTF_8));
        vector(out, "a binary body", "ak", "sk", new String[][] {{"k", "v"}},
            new byte[] {0, 1, 2, (byte) 0xff, (byte) 0x80, 10});
        System.out.println("[\n" + String.join(",\n", out) + "\n]");
    }
}
