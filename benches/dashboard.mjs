// Dashboard measures (not tests): first render; frame gaps and main-thread task lengths while time
// runs at 60× with the picture shown; and seeks on the timeline after an hour. Serve a release build
// first (`trunk serve --release`, or any static server over `dist/` after `trunk build --release`):
//   node benches/dashboard.mjs [URL] [CASE …]     (default http://127.0.0.1:8080/, every case below)
// A CASE is a preset's name, `NAME+picture` (the picture shown although the preset is too big for it
// to be shown by default: collapsed to groups), or a scenario file (`benches/data/twenty-brokers.json`,
// opened by a share link). Prints medians of several page loads (first render) and counts over
// several (frames); figures go to BENCHMARKS.md. With BENCH_JSON=FILE set, also writes the figures as
// JSON for scripts/bench. SEEK_PRESETS (default `big-cluster crash-hang-stop`) names the presets
// seeked; empty: none.
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const URL = process.argv[2] ?? 'http://127.0.0.1:8080/';
const PRESETS = process.argv.length > 3 ? process.argv.slice(3)
  : ['crash-hang-stop', 'benches/data/twenty-brokers.json', 'big-heartbeat', 'big-cluster', 'benches/data/big-cluster-consumers.json', 'big-cluster+picture'];
const SEEK_PRESETS = (process.env.SEEK_PRESETS ?? 'big-cluster crash-hang-stop').split(/\s+/).filter(Boolean);
const RUNS = 5;
// Page loads per preset for the frame measures.
const FRAME_RUNS = +(process.env.FRAME_RUNS ?? 3);
// Real seconds played before measuring, so the steady state is measured (big-cluster's brokers start
// one by one over the first 30 virtual seconds: half a real second at 60×).
const WARMUP_MS = 3000;
const MEASURE_MS = 5000;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

const firstRender = [];
for (let i = 0; i < RUNS; i++) {
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  await page.goto(URL, { waitUntil: 'commit' });
  await page.locator('[data-testid=clock]').waitFor();
  firstRender.push(await page.evaluate(() => performance.now()));
  await page.close();
}
console.log(`first render (navigation → dashboard on screen): median ${median(firstRender).toFixed(0)} ms of ${RUNS}`);
const results = { first_render_ms: median(firstRender), presets: {} };

/// The main thread's tasks (µs) in a Chromium trace: every RunTask of the busiest renderer thread.
function mainThreadTasks(trace) {
  const events = JSON.parse(trace.toString()).traceEvents;
  const mains = new Set(events
    .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map();
  for (const e of events) {
    if (e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && mains.has(`${e.pid}:${e.tid}`)) {
      const k = `${e.pid}:${e.tid}`;
      if (!byThread.has(k)) byThread.set(k, []);
      byThread.get(k).push(e);
    }
  }
  // A task can be traced twice, one event inside the other (RunTask within
  // ThreadControllerImpl::RunTask): only the outermost counts, or a long task counts twice.
  const outermost = (events) => {
    const out = [];
    let end = -Infinity;
    for (const e of [...events].sort((a, b) => a.ts - b.ts || b.dur - a.dur)) {
      if (e.ts + e.dur <= end) continue;
      out.push(e.dur / 1000);
      end = e.ts + e.dur;
    }
    return out;
  };
  return [...byThread.values()].map(outermost).sort((a, b) => b.length - a.length)[0] ?? [];
}

/// A share link's hash opening `json` (a scenario's text), at `atSecs` when given (paused there).
const shareHash = (json, atSecs) => `#scenario=${Buffer.from(JSON.stringify(JSON.parse(json))).toString('base64url')}`
  + (atSecs === undefined ? '' : `&t=${atSecs}`);

/// A page on the case's scenario at t = 0 with the picture shown; how long loading it took (ms).
async function openCase(page, name) {
  const [preset, picture] = name.split('+');
  if (preset.endsWith('.json')) {
    const t0 = Date.now();
    await page.goto(URL + shareHash(readFileSync(preset, 'utf8')));
    await page.locator('[data-testid=clock]', { hasText: 't = 0.0 s' }).waitFor({ timeout: 60_000 });
    return Date.now() - t0;
  }
  await page.goto(URL);
  await page.locator('[data-testid=clock]').waitFor();
  const t0 = Date.now();
  await page.selectOption('[data-testid=preset]', preset);
  // Loaded: presets other than the default are fetched first.
  await page.locator(`[data-testid=scenario-bar][data-preset="${preset}"]:not([aria-busy])`).waitFor();
  await page.locator('[data-testid=clock]', { hasText: 't = 0.0 s' }).waitFor();
  const loadMs = Date.now() - t0;
  const toggle = page.locator('[data-testid=picture-toggle]');
  if (picture === 'picture' && (await toggle.textContent()).includes('Show')) await toggle.click();
  return loadMs;
}

/// One page load of a case: play at 60× for WARMUP_MS, then record frame gaps and main-thread tasks
/// for MEASURE_MS.
async function measure(name) {
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const loadMs = await openCase(page, name);
  const picture = (await page.textContent('[data-testid=picture-toggle]')).includes('Hide');
  await page.selectOption('select[aria-label=speed]', '60');
  await page.click('[data-testid=play-pause]');
  await page.waitForTimeout(WARMUP_MS);
  await browser.startTracing(page, { categories: ['toplevel', '__metadata', 'devtools.timeline'] });
  const frames = await page.evaluate((ms) => new Promise((resolve) => {
    const gaps = [];
    let last = performance.now();
    const end = last + ms;
    const tick = (t) => {
      gaps.push(t - last);
      last = t;
      if (t < end) requestAnimationFrame(tick); else resolve(gaps);
    };
    requestAnimationFrame(tick);
  }), MEASURE_MS);
  const tasks = mainThreadTasks(await browser.stopTracing());
  const clock = await page.textContent('[data-testid=clock]');
  await page.close();
  return { loadMs, frames, tasks, clock, picture };
}

/// The scenario of a shipped preset, as the page fetches it.
const presetJson = (name) => readFileSync(`scenarios/${name}.json`, 'utf8');

/// Seeks on the timeline, as a teacher clicks it: the preset opened by a share link at one hour (the
/// simulator runs there, keeping its snapshots), then 20 times: back to the head, and a click on the
/// track at a random earlier time. Each figure is from the mousedown to the dashboard drawn at the
/// new moment (the timeline's data-now changed, then layout forced): the seek and the render, without
/// the wait for the next frame.
async function seeks(preset) {
  const HOUR = 3600;
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const t0 = Date.now();
  await page.goto(URL + shareHash(presetJson(preset), HOUR));
  await page.locator(`[data-testid=timeline][data-now="${HOUR * 1000}"]`).waitFor({ timeout: 300_000 });
  const openMs = Date.now() - t0;
  let seed = 20;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const out = [];
  for (let i = 0; i < 20; i++) {
    await page.click('[data-testid=now]').catch(() => {});
    await page.locator(`[data-testid=timeline][data-now="${HOUR * 1000}"]`).waitFor();
    const target = Math.floor(random() * HOUR * 1000);
    out.push(await page.evaluate((t) => new Promise((resolve) => {
      const tl = document.querySelector('[data-testid=timeline]');
      const track = tl.querySelector('.tl-track');
      const r = track.getBoundingClientRect();
      const span = 3_600_000; // the span an hour's head is drawn over
      const before = tl.dataset.now;
      let start;
      const done = () => {
        document.body.getBoundingClientRect(); // the layout of the new moment
        resolve({ ms: performance.now() - start, now: Number(tl.dataset.now) });
      };
      const watch = new MutationObserver(() => {
        if (tl.isConnected && tl.dataset.now !== before) { watch.disconnect(); done(); }
      });
      watch.observe(tl, { attributes: true, attributeFilter: ['data-now'] });
      start = performance.now();
      track.dispatchEvent(new MouseEvent('mousedown', {
        bubbles: true, buttons: 1, clientX: r.left + (t / span) * r.width, clientY: r.top + r.height / 2,
      }));
      if (tl.dataset.now !== before) { watch.disconnect(); done(); } // rendered within the event
    }), target));
  }
  await page.close();
  const ms = out.map((s) => s.ms).sort((a, b) => a - b);
  const row = {
    preset, open_at_hour_ms: openMs, seeks: ms.length,
    p50_ms: pct(ms, 0.5), p95_ms: ms[Math.ceil(ms.length * 0.95) - 1], max_ms: ms[ms.length - 1],
  };
  console.log(`${preset}: opened at 1 h in ${openMs} ms; 20 seeks from the head: p50 ${row.p50_ms.toFixed(1)} ms, `
    + `p95 ${row.p95_ms.toFixed(1)} ms, max ${row.max_ms.toFixed(1)} ms (to ${out.map((s) => (s.now / 1000).toFixed(0)).join(', ')} s)`);
  return row;
}

for (const preset of PRESETS) {
  // Several page loads, each its own steady state: a preset meets "no frame over 16 ms" only if no
  // run has one, so the counts below add up over the runs rather than taking a median.
  const label = preset.replace(/^.*\//, '').replace(/\.json$/, '');
  const runs = [];
  for (let i = 0; i < FRAME_RUNS; i++) runs.push(await measure(preset));
  const frames = runs.flatMap((r) => r.frames);
  const tasks = runs.flatMap((r) => r.tasks);
  const sorted = [...frames].sort((a, b) => a - b);
  // A dropped frame shows as a gap of about two refresh periods; rAF jitter alone stays under 25 ms.
  const dropped = frames.filter((g) => g > 25).length;
  const ts = [...tasks].sort((a, b) => a - b);
  const over16PerRun = runs.map((r) => r.tasks.filter((d) => d > 16).length);
  const over16 = over16PerRun.reduce((a, b) => a + b, 0);
  console.log(`${label}${runs[0].picture ? ' (picture shown)' : ''}: loaded in ${median(runs.map((r) => r.loadMs))} ms (median); at 60× for ${MEASURE_MS / 1000} s after `
    + `${WARMUP_MS / 1000} s, ${FRAME_RUNS} page loads: ${frames.length} frames, gap median ${median(frames).toFixed(1)} ms, `
    + `p95 ${pct(sorted, 0.95).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms, ${dropped} dropped (gap over 25 ms); `
    + `main-thread tasks: ${tasks.length}, p95 ${pct(ts, 0.95)?.toFixed(1)} ms, max ${ts[ts.length - 1]?.toFixed(1)} ms, `
    + `${over16} over 16 ms (per run: ${over16PerRun.join(', ')}; clocks ${runs.map((r) => r.clock).join(' / ')})`);
  results.presets[label] = {
    runs: FRAME_RUNS, seconds: (FRAME_RUNS * MEASURE_MS) / 1000,
    frames: frames.length, gap_median_ms: median(frames), gap_p95_ms: pct(sorted, 0.95),
    gap_max_ms: sorted[sorted.length - 1], dropped, tasks: tasks.length,
    task_p95_ms: pct(ts, 0.95) ?? 0, task_max_ms: ts[ts.length - 1] ?? 0, tasks_over_16ms: over16,
    tasks_over_16ms_per_run: over16PerRun, picture: runs.every((r) => r.picture),
  };
}
results.seeks = [];
for (const preset of SEEK_PRESETS) results.seeks.push(await seeks(preset));
await browser.close();
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2));
