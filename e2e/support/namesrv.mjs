// `routelab namesrv` as a child process for the end-to-end tests.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const ROUTELAB = resolve(process.env.ROUTELAB_BIN ?? 'target/debug/routelab');

// Starts it on a free loopback port with `home` as its home; resolves with the child and the
// address it prints once listening.
export function startNamesrv(home) {
  const child = spawn(ROUTELAB, ['namesrv', '--listen', '127.0.0.1:0', '--home', home],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((res, rej) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /listening on (\S+)/.exec(line);
      if (m) res({ child, addr: m[1] });
    });
    child.once('exit', (code) => rej(new Error(`routelab namesrv exited with ${code}: ${stderr}`)));
    child.once('error', rej);
  });
}

// SIGTERM, then waits for the exit.
export async function stopNamesrv(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
