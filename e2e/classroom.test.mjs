// End-to-end classroom: `routelab classroom` as a teacher starts it (the release binary scripts/release
// builds, or ROUTELAB_BIN with ROUTELAB_DIST for a debug run), the teacher's page and a student's page
// in Debian's Chromium. The teacher freezes a broker and jumps to the expiry; the student's page shows
// the same route view; the student explores (freezes another broker), follows again and matches the
// teacher. Screenshots in English and 简体中文 under E2E_SHOTS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, waitFor } from './support/process.mjs';
import { launchChromium } from './support/workshop.mjs';

const SHOTS = process.env.E2E_SHOTS ?? 'target/e2e';
const BIN = resolve(process.env.ROUTELAB_BIN ?? process.env.ROUTELAB_RELEASE_BIN ?? 'target/release/routelab');
const DIST = process.env.ROUTELAB_DIST; // unset: the dashboard inside the release binary

let context;
let scratch;
let hub;
let lessonTeacher; // the second test's teacher's page, replaced by the third's

// Starts the classroom and reads its two links from the lines it prints.
async function startClassroom(port) {
  const args = ['classroom', '--listen', `127.0.0.1:${port}`, '--state', join(scratch, 'classroom.sqlite3')];
  if (DIST) args.push('--dist', DIST);
  const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.output = '';
  child.stdout.on('data', (d) => { child.output += d; });
  child.stderr.on('data', (d) => { child.output += d; });
  await waitFor(() => /^students: /m.test(child.output), 'the classroom\'s links');
  const line = (name) => child.output.match(new RegExp(`^${name}: (\\S+)$`, 'm'))[1];
  return { child, teacher: line('teacher'), students: line('students') };
}

before(async () => {
  assert.ok(existsSync(BIN), `${BIN} is missing: run scripts/release`);
  mkdirSync(SHOTS, { recursive: true });
  scratch = mkdtempSync(join(tmpdir(), 'routelab-classroom-'));
  context = await launchChromium(join(scratch, 'chromium'));
});

after(async () => {
  await context?.close();
  hub?.child.kill('SIGKILL');
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function openPage(url) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url, { waitUntil: 'load' });
  await page.locator('[data-testid=clock]').waitFor({ timeout: 30_000 });
  return { page, errors };
}

const clock = (page) => page.textContent('[data-testid=clock]');
const routeOf = (page) => page.textContent('[data-testid=route-view] [data-namesrv="ns-1"]');
const card = (addr) => `[data-testid=broker-card][data-addr="${addr}"]`;
const stateOf = (page, addr) => page.getAttribute(card(addr), 'data-state');
// A screenshot from the top of the page, where the class bar is.
async function shot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, name) });
}
const barState = (page) => page.getAttribute('[data-testid=class-bar]', 'data-state');

// The student's page shows the teacher's moment: the same clock, route view and broker states.
async function sameAsTeacher(teacher, student, what) {
  await waitFor(async () => (await clock(student)) === (await clock(teacher))
    && (await routeOf(student)) === (await routeOf(teacher)), what, 15_000);
  for (const n of [1, 2, 3, 4]) {
    const addr = `10.0.0.${n}:10911`;
    assert.equal(await stateOf(student, addr), await stateOf(teacher, addr), `${addr} ${what}`);
  }
}

test('a student follows the teacher, explores on their own, and follows again', async () => {
  const port = await freePort();
  hub = await startClassroom(port);
  assert.match(hub.teacher, new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?room=[A-Z2-9]{6}&teacher=[0-9a-f]{32}$`));
  assert.match(hub.students, new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?room=[A-Z2-9]{6}$`));

  const { page: teacher, errors: teacherErrors } = await openPage(hub.teacher);
  await teacher.locator('[data-testid=class-bar][data-state=teaching]').waitFor();
  assert.equal(await teacher.textContent('[data-testid=class-students-link]'), hub.students);
  await waitFor(() => teacher.$eval('[data-testid=class-qr]', (img) => img.complete && img.naturalWidth > 0), 'the QR code');

  const { page: student, errors: studentErrors } = await openPage(hub.students);
  await student.locator('[data-testid=class-bar][data-state=following]').waitFor({ timeout: 15_000 });
  await teacher.locator('[data-testid=class-roster][data-following="1"]').waitFor({ timeout: 10_000 });

  // The teacher freezes broker-b and jumps to the expiry.
  await teacher.click(`${card('10.0.0.2:10911')} >> text=freeze`);
  await teacher.click('[data-testid=advance-to-expiry]');
  await sameAsTeacher(teacher, student, 'after the jump to the expiry');
  assert.equal(await stateOf(student, '10.0.0.2:10911'), 'frozen');
  await shot(teacher, 'classroom-teacher-en.png');
  await shot(student, 'classroom-student-en.png');

  // The student steps aside and freezes broker-d on their own: the teacher's world is untouched.
  await student.click('[data-testid=class-explore]');
  assert.equal(await barState(student), 'exploring');
  await student.click(`${card('10.0.0.4:10911')} >> text=freeze`);
  assert.equal(await stateOf(student, '10.0.0.4:10911'), 'frozen');
  assert.equal(await stateOf(teacher, '10.0.0.4:10911'), 'running');
  await teacher.locator('[data-testid=class-roster][data-exploring="1"]').waitFor({ timeout: 10_000 });
  // Meanwhile the teacher goes on.
  await teacher.click('[data-testid=advance][data-secs="30"]');

  // Back to the teacher: the student's own change is gone and the worlds match again.
  await student.click('[data-testid=class-follow]');
  await student.locator('[data-testid=class-bar][data-state=following]').waitFor();
  await sameAsTeacher(teacher, student, 'after following again');
  assert.equal(await stateOf(student, '10.0.0.4:10911'), 'running');
  await teacher.locator('[data-testid=class-roster][data-following="1"][data-exploring="0"]').waitFor({ timeout: 10_000 });

  // Both pages in 简体中文.
  for (const page of [teacher, student]) await page.click('[data-testid=lang-toggle]');
  await teacher.locator('text=你正在主持课堂').waitFor();
  await student.locator('text=正在跟随老师').waitFor();
  await shot(teacher, 'classroom-teacher-zh.png');
  await shot(student, 'classroom-student-zh.png');
  assert.deepEqual(teacherErrors, []);
  assert.deepEqual(studentErrors, []);
});

test('the class answers the teacher\'s lesson question, and the teacher reveals the result', async () => {
  assert.ok(hub, 'the first test started the classroom');
  const { page: teacher, errors: teacherErrors } = await openPage(`${hub.teacher}#lesson=lesson-2-heartbeats`);
  await teacher.locator('[data-testid=lesson]').waitFor({ timeout: 15_000 });
  const { page: student, errors: studentErrors } = await openPage(hub.students);
  await student.locator('[data-testid=lesson]').waitFor({ timeout: 15_000 });
  assert.equal(await student.textContent('[data-testid=lesson-step]'), '1 / 6');
  assert.equal(await student.locator('[data-testid=lesson-next]').count(), 0, 'the teacher leads');

  // Step 2 asks why broker-a will be removed: the student answers, the teacher sees it.
  await teacher.click('[data-testid=lesson-next]');
  await waitFor(async () => (await student.textContent('[data-testid=lesson-step]')) === '2 / 6', 'the teacher\'s step');
  await sameAsTeacher(teacher, student, 'at step 2');
  await student.click('[data-testid=predict-choice][data-index="1"]');
  await student.locator('[data-testid=predict-waiting]').waitFor();
  assert.equal(await student.locator('[data-testid=predict-choice][data-correct]').count(), 0, 'not before the reveal');
  await teacher.locator('[data-testid=class-tally-bar][data-count="1"]').waitFor({ timeout: 10_000 });
  await shot(teacher, 'classroom-lesson-teacher.png');

  await teacher.click('[data-testid=class-reveal]');
  await student.locator('[data-testid=predict-result]').waitFor({ timeout: 10_000 });
  assert.equal(await student.getAttribute('[data-testid=predict-choice][data-index="1"]', 'data-correct'), 'true');
  await shot(student, 'classroom-lesson-student.png');
  lessonTeacher = teacher;
  assert.deepEqual(teacherErrors, []);
  assert.deepEqual(studentErrors, []);
});

test('after the hub restarts, the teacher\'s page and the students reconnect and the room goes on', async () => {
  assert.ok(hub, 'the first test started the classroom');
  const port = Number(new globalThis.URL(hub.teacher).port);
  const { page: teacher, errors: teacherErrors } = await openPage(hub.teacher);
  await teacher.locator('[data-testid=class-bar][data-state=teaching]').waitFor();
  // One page drives a room: the earlier teacher's page says another took over, and stays out.
  await lessonTeacher.locator('[data-testid=class-bar][data-state=replaced]').waitFor({ timeout: 10_000 });
  assert.equal(await lessonTeacher.locator('[data-testid=class-drive]').count(), 1);
  const { page: student, errors: studentErrors } = await openPage(hub.students);
  await student.locator('[data-testid=class-bar][data-state=following]').waitFor({ timeout: 15_000 });
  await sameAsTeacher(teacher, student, 'before the restart');

  const before = hub.teacher;
  hub.child.kill('SIGTERM');
  await new Promise((r) => hub.child.once('exit', r));
  await teacher.locator('[data-testid=class-bar][data-state=lost]').waitFor({ timeout: 10_000 });
  hub = await startClassroom(port);
  assert.equal(hub.teacher, before, 'the same room and token, kept in --state');
  await teacher.locator('[data-testid=class-bar][data-state=teaching]').waitFor({ timeout: 20_000 });
  await student.locator('[data-testid=class-bar][data-state=following]').waitFor({ timeout: 20_000 });

  await teacher.click('[data-testid=advance][data-secs="30"]');
  await sameAsTeacher(teacher, student, 'after the restart');
  // The pages' own reconnection attempts are logged by the browser as failed connections.
  const real = (errors) => errors.filter((e) => !/WebSocket connection .* failed/.test(e));
  assert.deepEqual(real(teacherErrors), []);
  assert.deepEqual(real(studentErrors), []);
});
