// The core benchmark suite (routelab::bench, the same code `cargo bench --bench core` runs natively)
// inside headless Chromium, through the JavaScript module built by scripts/build-module:
//   node benches/wasm_core.mjs [DIST] [OUT.json]     (default dist/, which holds module/routelab.js)
// Serves DIST on a loopback port of its own, calls benchCore(() => performance.now()) in a page (after
// a shorter warm-up pass) and prints one line per operation; OUT.json gets the figures for scripts/bench. Not a test.
import { createServer } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';

const DIST = process.argv[2] ?? 'dist';
const OUT = process.argv[3];
const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  try {
    const body = path === '/' ? '<!doctype html><title>bench</title>' : await readFile(join(DIST, path));
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/html' });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  const page = await browser.newPage();
  await page.goto(url);
  const results = await page.evaluate(async () => {
    const m = await import('/module/routelab.js');
    await m.default();
    if (typeof m.benchCore !== 'function') throw new Error('module/routelab.js has no benchCore: rebuild it');
    // Warm-up, results dropped: V8 first runs wasm in its baseline compiler and swaps in optimised
    // code from a background thread once a function is hot. On a 2-core machine that swap can land
    // in the middle of the measured runs (one row's figure then doubles from one run to the next);
    // a shorter pass first lets it finish, so the figures are the steady state native code is in.
    m.benchCore(() => performance.now(), 0.3);
    return m.benchCore(() => performance.now(), 1);
  });
  for (const r of results) console.log(`${r.name.padEnd(72)} ${r.median_us.toFixed(3).padStart(9)} µs`);
  const version = browser.version();
  if (OUT) await writeFile(OUT, JSON.stringify({ browser: version, results }, null, 2));
} finally {
  await browser.close();
  server.close();
}
