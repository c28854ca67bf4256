// What the end-to-end tests that start servers share: a free loopback port, and waiting for a
// condition with a deadline.
import net from 'node:net';

// A loopback port free at the moment of asking.
export function freePort() {
  return new Promise((res) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => res(port));
    });
  });
}

// Calls `check` every 100 ms until it returns something truthy (returned) or `ms` passed (throws,
// naming `what`, or what `what()` says then). A `check` that throws counts as not yet.
export async function waitFor(check, what, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch { /* not yet */ }
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
