import { chromium } from 'playwright-core';
const [,, url, out, w, h, lang, preset] = process.argv;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
const phone = Number(w) < 700;
const c = await b.newContext({ viewport: { width: Number(w), height: Number(h) }, locale: lang === 'zh' ? 'zh-CN' : 'en-US', hasTouch: phone, isMobile: phone });
const p = await c.newPage();
p.on('pageerror', (e) => console.log('pageerror', String(e)));
await p.goto(url, { waitUntil: 'load' });
await p.locator('[data-testid=clock]').waitFor({ timeout: 30000 });
if (preset) {
  await p.$eval('[data-testid=preset]', (s, v) => { s.value = v; s.dispatchEvent(new Event('change', { bubbles: true })); }, preset);
  await p.locator(`[data-testid=scenario-bar][data-preset="${preset}"]:not([aria-busy])`).waitFor({ state: 'attached', timeout: 60000 });
}
if (await p.locator('[data-testid=topology]').count() === 0) await p.click('[data-testid=picture-toggle]');
if (process.env.ADV) await p.$eval(`[data-testid=advance][data-secs="${process.env.ADV}"]`, (b) => b.click());
await p.waitForTimeout(1500);
const info = await p.evaluate(() => {
  const t = document.querySelector('[data-testid=topology]');
  const r = t?.getBoundingClientRect();
  return { fit: t?.getAttribute('data-fit'), top: r?.top, bottom: r?.bottom, width: r?.width, sw: document.scrollingElement.scrollWidth, sh: document.scrollingElement.scrollHeight };
});
console.log(JSON.stringify(info));
if (process.env.EL) await p.locator(process.env.EL).screenshot({ path: out }); else await p.screenshot({ path: out, fullPage: process.env.FULL === '1' });
await b.close();
