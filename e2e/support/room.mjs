// What the end-to-end tests of the release binary's pages share: Debian's Chromium (headless, a
// context per page), a `routelab` command started and read until it is ready, and a classroom.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { freePort, waitFor } from './process.mjs';

// Debian's Chromium (playwright-core never downloads one), quiet and headless.
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// Starts `bin args…` and waits until its output matches `ready`; the child keeps its output in
// `child.output`. The caller kills it.
export async function startRoutelab(bin, args, ready) {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.output = '';
  child.stdout.on('data', (d) => { child.output += d; });
  child.stderr.on('data', (d) => { child.output += d; });
  await waitFor(() => ready.test(child.output), () => `${args[0]} to start: ${child.output}`, 30_000);
  return child;
}

// `routelab classroom` on a free loopback port, its state in `dir`: the hub, the teacher's and the
// students' links, and the base URL.
export async function startClassroom(bin, dir) {
  const port = await freePort();
  const hub = await startRoutelab(bin,
    ['classroom', '--listen', `127.0.0.1:${port}`, '--state', join(dir, 'room.sqlite3')], /^students: /m);
  const line = (name) => hub.output.match(new RegExp(`^${name}: (\\S+)$`, 'm'))[1];
  return { hub, teacher: line('teacher'), students: line('students'), base: `http://127.0.0.1:${port}` };
}
