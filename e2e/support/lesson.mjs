// A lesson walked in Debian's Chromium, shared by the failover lessons' end-to-end tests: one
// browser for the file (closed after its tests), a page per locale and viewport opened on
// `#lesson=NAME` with its errors collected, and the lesson panel's controls.
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { URL } from './workshop.mjs';

export const stepText = (page) => page.textContent('[data-testid=lesson-step]');
export const clock = async (page) => Number((await page.textContent('[data-testid=clock]')).match(/([\d.]+) s/)[1]);
export const card = (addr) => `[data-testid=broker-card][data-addr="${addr}"]`;
export const node = (addr) => `[data-testid="node-broker-${addr}"]`;

// Returns `open(locale, viewport)` for lesson `name`: `{ page, errors }` once the lesson panel shows.
export function lessonBrowser(name) {
  let browser;
  after(async () => browser?.close());
  return async (locale, viewport) => {
    browser ??= await chromium.launch({
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    const context = await browser.newContext({ locale, viewport });
    const p = await context.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(String(e)));
    p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await p.goto(new globalThis.URL(`./#lesson=${name}`, URL).href);
    await p.locator('[data-testid=lesson]').waitFor({ timeout: 30_000 });
    return { page: p, errors };
  };
}

// Answers the step's question with choice `i` and checks it was the right one.
export async function answer(p, i, right) {
  await p.click(`[data-testid=predict-choice][data-index="${i}"]`);
  assert.equal(await p.getAttribute(`[data-testid=predict-choice][data-index="${i}"]`, 'data-correct'), 'true');
  assert.match(await p.textContent('[data-testid=predict-result]'), right);
}
