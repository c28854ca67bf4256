// The core benchmark suite (routelab::bench) side by side: natively (`cargo bench --bench core --
// --serve`) and inside headless Chromium, through the JavaScript module built by scripts/build-module:
//   node benches/wasm_core.mjs [DIST] [OUTDIR] [ROUNDS]   (default dist/, which holds module/routelab.js; 3 rounds)
// Serves DIST on a loopback port of its own and, after a warm-up pass in the page, measures each
// operation natively and then in the page (the other way round every second round), so that the two
// figures of a ratio are taken moments apart: this machine's speed drifts within seconds, by up to
// 1.5×, and a whole suite on each side in turn compared a fast moment with a slow one. Prints each
// operation's median of each side and of the rounds' ratios; OUTDIR gets core-N.json and wasm-N.json
// per round for scripts/bench; ONLY="key …" (operation keys) measures those alone. Not a test.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const DIST = process.argv[2] ?? 'dist';
const OUTDIR = process.argv[3];
const ROUNDS = Number(process.argv[4] ?? 3);
const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  try {
    const body = path === '/' ? '<!doctype html><title>bench</title>' : await readFile(join(DIST, path));
    // Cross-origin isolated (COOP + COEP): Chromium then gives performance.now() 5 µs steps instead
    // of 100 µs, which on a run of a millisecond was a 10 % error of its own.
    res.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'text/html',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

// The native side: the bench binary answers an operation's key with its figures, a JSON line each.
const native = spawn('cargo', ['bench', '--locked', '-q', '--bench', 'core', '--', '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
const answers = createInterface({ input: native.stdout })[Symbol.asyncIterator]();
const nativeRun = async (key) => {
  native.stdin.write(`${key}\n`);
  const { value, done } = await answers.next();
  if (done) throw new Error('cargo bench --bench core -- --serve stopped');
  return JSON.parse(value);
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const page = await browser.newPage();
  await page.goto(url);
  if (!(await page.evaluate(() => self.crossOriginIsolated))) throw new Error('the bench page is not cross-origin isolated: its timer would be coarse');
  const keys = await page.evaluate(async () => {
    const m = await import('/module/routelab.js');
    await m.default();
    if (typeof m.benchCore !== 'function') throw new Error('module/routelab.js has no benchCore: rebuild it');
    self.routelab = m;
    // Warm-up, results dropped: V8 first runs wasm in its baseline compiler and swaps in optimised
    // code from a background thread once a function is hot. On a 2-core machine that swap can land
    // in the middle of the measured runs (one row's figure then doubles from one run to the next);
    // a shorter pass first lets it finish, so the figures are the steady state native code is in.
    return m.benchCore(() => performance.now(), 0.3).map((r) => r.key);
  }).then((ks) => (process.env.ONLY ? ks.filter((k) => process.env.ONLY.split(' ').includes(k)) : ks));
  const wasmRun = (key) => page.evaluate((k) => self.routelab.benchCore(() => performance.now(), 1, k), key);
  const browserVersion = browser.version();
  const rows = new Map(keys.map((k) => [k, { name: '', native: [], wasm: [] }]));
  for (let round = 1; round <= ROUNDS; round++) {
    const core = [];
    const wasm = [];
    for (const key of keys) {
      let n, w;
      if (round % 2) {
        n = await nativeRun(key);
        w = await wasmRun(key);
      } else {
        w = await wasmRun(key);
        n = await nativeRun(key);
      }
      core.push(...n);
      wasm.push(...w);
      const row = rows.get(key);
      row.name = n[0]?.name ?? key;
      row.native.push(n[0]?.median_us);
      row.wasm.push(w[0]?.median_us);
    }
    if (OUTDIR) {
      await writeFile(join(OUTDIR, `core-${round}.json`), JSON.stringify(core, null, 2));
      await writeFile(join(OUTDIR, `wasm-${round}.json`), JSON.stringify({ browser: browserVersion, results: wasm }, null, 2));
    }
    console.log(`round ${round} of ${ROUNDS} done`);
  }
  console.log(`${'operation'.padEnd(72)} ${'native'.padStart(9)}    ${'wasm'.padStart(9)}    wasm/native (medians of ${ROUNDS} rounds)`);
  for (const { name, native: n, wasm: w } of rows.values()) {
    const ratio = mid(n.map((x, i) => w[i] / x));
    console.log(`${name.padEnd(72)} ${mid(n).toFixed(3).padStart(9)} µs ${mid(w).toFixed(3).padStart(9)} µs ${ratio.toFixed(2)}×`);
  }
} finally {
  native.stdin.end();
  await browser.close();
  server.close();
}
