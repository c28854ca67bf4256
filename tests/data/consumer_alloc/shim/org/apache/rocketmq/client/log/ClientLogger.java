// RouteLab's stand-in for RocketMQ's client logger: the allocation strategies only log through it
// (a member missing from cidAll), so the vectors need a logger that writes nothing. Compiled only by
// GenAllocVectors (see its header).
package org.apache.rocketmq.client.log;

import java.lang.reflect.Proxy;
import org.apache.rocketmq.logging.InternalLogger;

public class ClientLogger {
    public static InternalLogger getLog() {
        return (InternalLogger) Proxy.newProxyInstance(ClientLogger.class.getClassLoader(),
            new Class<?>[] {InternalLogger.class}, (proxy, method, args) -> null);
    }
}
