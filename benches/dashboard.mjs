// Dashboard measures (not tests): first render and frame times while time runs at 60×.
// Serve a release build first (e.g. `trunk serve --release`), then:
//   node benches/dashboard.mjs [URL]        (default http://127.0.0.1:8080/)
// Prints medians of several page loads; figures go to BENCHMARKS.md.
import { chromium } from 'playwright-core';

const URL = process.argv[2] ?? 'http://127.0.0.1:8080/';
const RUNS = 5;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const firstRender = [];
for (let i = 0; i < RUNS; i++) {
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  await page.goto(URL, { waitUntil: 'commit' });
  await page.locator('[data-testid=clock]').waitFor();
  firstRender.push(await page.evaluate(() => performance.now()));
  await page.close();
}
console.log(`first render (navigation → dashboard on screen): median ${median(firstRender).toFixed(0)} ms of ${RUNS}`);

for (const preset of ['crash-hang-stop', 'big-heartbeat']) {
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  await page.goto(URL);
  await page.locator('[data-testid=clock]').waitFor();
  await page.selectOption('[data-testid=preset]', preset);
  await page.selectOption('select[aria-label=speed]', '60');
  await page.click('[data-testid=play-pause]');
  const frames = await page.evaluate(() => new Promise((resolve) => {
    const gaps = [];
    let last = performance.now();
    const end = last + 5000;
    const tick = (t) => {
      gaps.push(t - last);
      last = t;
      if (t < end) requestAnimationFrame(tick); else resolve(gaps);
    };
    requestAnimationFrame(tick);
  }));
  const sorted = [...frames].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)];
  // A dropped frame shows as a gap of about two refresh periods; rAF jitter alone stays under 25 ms.
  const dropped = frames.filter((g) => g > 25).length;
  const clock = await page.textContent('[data-testid=clock]');
  console.log(`${preset} at 60× for 5 s: ${frames.length} frames, median ${median(frames).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms, ${dropped} dropped (gap over 25 ms) (${clock})`);
  await page.close();
}
await browser.close();
