// RouteLab's stand-in for the one method of Apache Commons Collections 3 that RocketMQ's allocation
// strategies call, with the library's documented meaning (null or empty). Compiled only by
// GenAllocVectors (see its header); not RocketMQ's or Apache Commons' code.
package org.apache.commons.collections;

import java.util.Collection;

public class CollectionUtils {
    public static boolean isEmpty(Collection<?> coll) {
        return coll == null || coll.isEmpty();
    }
}
