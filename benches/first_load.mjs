// What a class downloads: the workshop's first load from `routelab classroom` (the release binary,
// the dashboard inside it) in Debian's Chromium, counted by Chromium itself (the encodedDataLength
// of every response, headers included), as a browser gets it (brotli) and as one asking for
// nothing gets it (the bytes before precompression); a reload (what the cache saves); then
// STUDENTS pages of their own (fresh caches) opening the students' link at once: total bytes, the
// time until every page has its bundle and until every page shows the clock (on a 2-core machine
// that last one is mostly Chromium compiling and running all those pages itself).
//   node benches/first_load.mjs BIN [STUDENTS]      (BENCH_JSON=FILE writes the figures)
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { freePort, waitFor } from '../e2e/support/process.mjs';

const [bin, studentsArg] = process.argv.slice(2);
if (!bin) {
  console.error('usage: node benches/first_load.mjs BIN [STUDENTS]');
  process.exit(2);
}
const STUDENTS = Number(studentsArg ?? 200);
const scratch = mkdtempSync(join(tmpdir(), 'routelab-first-load-'));
const port = await freePort();
const hub = spawn(bin, ['classroom', '--listen', `127.0.0.1:${port}`, '--state', join(scratch, 'room.sqlite3'),
  '--max-students', String(STUDENTS + 10)], { stdio: ['ignore', 'pipe', 'pipe'] });
hub.output = '';
hub.stdout.on('data', (d) => { hub.output += d; });
hub.stderr.on('data', (d) => { hub.output += d; });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

try {
  await waitFor(() => /^students: /m.test(hub.output), 'the classroom\'s links', 30_000);
  const students = hub.output.match(/^students: (\S+)$/m)[1];
  const workshop = `http://127.0.0.1:${port}/`;

  // One page in a context of its own; every byte Chromium received for it until the clock shows
  // and the network is idle.
  async function load(context, url) {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const files = new Map();
    cdp.on('Network.responseReceived', (e) => files.set(e.requestId, {
      url: e.response.url, status: e.response.status,
      encoding: e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? 'identity',
      bytes: 0,
    }));
    cdp.on('Network.loadingFinished', (e) => { const f = files.get(e.requestId); if (f) f.bytes = e.encodedDataLength; });
    const t0 = performance.now();
    await page.goto(url, { waitUntil: 'load' });
    await page.locator('[data-testid=clock]').waitFor({ timeout: 120_000 });
    const drawnMs = performance.now() - t0;
    await page.waitForLoadState('networkidle');
    const list = [...files.values()];
    return { page, drawnMs, bytes: list.reduce((a, f) => a + f.bytes, 0), files: list };
  }

  const fresh = async (headers) => browser.newContext(headers ? { extraHTTPHeaders: headers } : {});
  const report = {};
  {
    const ctx = await fresh();
    const first = await load(ctx, workshop);
    report.first_load_bytes = first.bytes;
    report.first_load_files = first.files.map((f) => ({ file: new URL(f.url).pathname, encoding: f.encoding, bytes: f.bytes }));
    const again = await load(ctx, workshop);
    report.reload_bytes = again.bytes;
    await ctx.close();
  }
  {
    const ctx = await fresh({ 'Accept-Encoding': 'identity' });
    const plain = await load(ctx, workshop);
    report.identity_bytes = plain.bytes;
    report.identity_encodings = [...new Set(plain.files.map((f) => f.encoding))];
    await ctx.close();
  }

  // The hub alone: STUDENTS clients fetching the files a page loads, all at once, as Chromium asks
  // for them (brotli), without rendering anything: the time until the last byte of the last one.
  {
    const get = (path) => new Promise((res, rej) => {
      http.get(`${workshop.replace(/\/$/, '')}${path}`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } }, (r) => {
        let n = 0;
        r.on('data', (d) => { n += d.length; });
        r.on('end', () => res(n));
      }).on('error', rej);
    });
    const t0 = performance.now();
    const sizes = await Promise.all(Array.from({ length: STUDENTS },
      () => Promise.all(report.first_load_files.map((f) => get(f.file)))));
    report.hub_all_served_ms = performance.now() - t0;
    report.hub_body_bytes = sizes.flat().reduce((a, b) => a + b, 0);
  }

  // The class opens the students' link at once, each page in a fresh context (its own cache).
  const contexts = await Promise.all(Array.from({ length: STUDENTS }, () => fresh()));
  const t0 = performance.now();
  const pages = await Promise.all(contexts.map(async (ctx) => {
    const page = await ctx.newPage();
    let bytes = 0;
    let downloaded = null;
    page.on('requestfinished', async (req) => {
      // The bundle is the last and largest file a page needs: its arrival ends the download.
      if (req.url().endsWith('_bg.wasm')) downloaded = performance.now() - t0;
      const sizes = await req.sizes().catch(() => null);
      if (sizes) bytes += sizes.responseHeadersSize + sizes.responseBodySize;
    });
    await page.goto(students, { waitUntil: 'load', timeout: 600_000 });
    await page.locator('[data-testid=clock]').waitFor({ timeout: 600_000 });
    const at = performance.now() - t0;
    await page.waitForLoadState('networkidle', { timeout: 600_000 });
    return { at, bytes: () => bytes, downloaded: () => downloaded };
  }));
  report.students = STUDENTS;
  report.class_all_downloaded_ms = Math.max(...pages.map((p) => p.downloaded() ?? Infinity));
  report.class_all_drawn_ms = Math.max(...pages.map((p) => p.at));
  report.class_bytes = pages.reduce((a, p) => a + p.bytes(), 0);
  await Promise.all(contexts.map((c) => c.close()));

  console.log(JSON.stringify(report, null, 1));
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(report));
} finally {
  await browser.close();
  hub.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
}
