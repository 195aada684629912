// End-to-end test of the inspector in Debian's headless Chromium, driven by playwright-core.
// Run by InspectorBrowserIT against an in-process server; by hand:
//   BASE_URL=http://127.0.0.1:8080 KEY_A=mnemo_... KEY_B=mnemo_... node inspector.e2e.mjs
// Environment: BASE_URL, KEY_A and KEY_B (keys of two tenants), SCREENSHOT (a .png path),
// PROFILE_DIR (a fresh Chromium profile), CHROMIUM (default /usr/bin/chromium).
// Exit 0 when every step passed; otherwise the failing step and why, and SCREENSHOT's
// "-failure.png" sibling holds the page as it was.
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const env = (name, dflt) => {
  const v = process.env[name] ?? dflt;
  if (v === undefined) throw new Error(`set ${name}`);
  return v;
};
const BASE = env('BASE_URL');
const KEY_A = env('KEY_A');
const KEY_B = env('KEY_B');
const SHOT = env('SCREENSHOT', join(tmpdir(), 'mnemo-inspector.png'));
const PROFILE = env('PROFILE_DIR', mkdtempSync(join(tmpdir(), 'mnemo-chromium-')));
mkdirSync(dirname(SHOT), { recursive: true });

let step = 'start';
const t0 = Date.now();
const log = (msg) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);
const check = (cond, msg) => { if (!cond) throw new Error(msg); };

/** Calls the REST API directly, as an agent would. */
async function api(key, method, path, body) {
  const res = await fetch(BASE + path, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

const context = await chromium.launchPersistentContext(PROFILE, {
  executablePath: env('CHROMIUM', '/usr/bin/chromium'),
  headless: true, // playwright passes --headless
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
  viewport: { width: 1280, height: 1000 },
});
context.setDefaultTimeout(10_000);
const page = context.pages()[0] ?? await context.newPage();
const problems = []; // console errors (a CSP violation shows here) and uncaught exceptions
page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
page.on('pageerror', (e) => problems.push('page error: ' + e.message));

async function login(key) {
  await page.fill('#key', key);
  await page.press('#key', 'Enter'); // the keyboard path
  await page.waitForSelector('#main:not([hidden])');
}

async function logout() {
  await page.click('#logout');
  await page.waitForSelector('#login:not([hidden])');
}

const ownerButton = (name) => page.locator('#owner-list button', { hasText: name });

try {
  step = 'load the page';
  await page.goto(BASE + '/inspector');
  check(await page.title() === 'Mnemo inspector', 'title: ' + await page.title());
  log(step);

  step = 'a wrong key is refused';
  await page.fill('#key', 'mnemo_nope_nope');
  await page.press('#key', 'Enter');
  await page.waitForSelector('#error:not([hidden])');
  check(await page.isHidden('#main'), 'main is shown after a refused key');
  problems.length = 0; // the browser logs the 401 itself
  log(step);

  step = 'log in with tenant A';
  await login(KEY_A);
  check(await page.evaluate(() => sessionStorage.getItem('mnemo.key')) === KEY_A, 'the key is not in sessionStorage');
  log(step);

  step = 'write through the API';
  const w1 = await api(KEY_A, 'POST', '/v1/memories',
    { owner: 'maya', text: 'Maya writes all her code in Vim.', fact_key: 'editor', valid_from: '2026-01-01' });
  const w2 = await api(KEY_A, 'POST', '/v1/memories',
    { owner: 'maya', text: 'Maya switched from Vim to Emacs.', fact_key: 'editor', valid_from: '2026-06-01' });
  for (const text of ['Maya drinks her coffee with oat milk.', 'Maya is learning to play the cello.']) {
    check((await api(KEY_A, 'POST', '/v1/memories', { owner: 'maya', text })).status === 201, 'write ' + text);
  }
  const w3 = await api(KEY_B, 'POST', '/v1/memories', { owner: 'hank', text: 'Hank sells propane and propane accessories.' });
  check(w1.status === 201 && w2.status === 201 && w3.status === 201, `writes: ${w1.status} ${w2.status} ${w3.status}`);
  const emacsId = w2.json.ids[0];
  log(step);

  step = 'see the owner and the record';
  await page.click('#refresh-owners');
  await ownerButton('maya').click();
  await page.waitForSelector(`#records tr[data-id="${emacsId}"]`);
  check(await ownerButton('hank').count() === 0, "tenant A sees tenant B's owner");
  check((await page.textContent('#records tbody')).includes('Maya switched from Vim to Emacs.'), 'record text missing');
  log(step);

  step = "see the fact's versions on the timeline";
  await page.click(`#records tr[data-id="${emacsId}"] button:has-text("Versions")`);
  await page.waitForSelector('#timeline:not([hidden])');
  const versions = await page.locator('#timeline-table tbody tr').count();
  check(versions >= 2, 'timeline versions: ' + versions);
  check(await page.locator('#timeline-chart .tl-track.valid span').count() === versions, 'timeline bars');
  log(step + ` (${versions} versions)`);

  step = 'run a recall and see the trace';
  await page.fill('#r-text', 'Which editor does Maya use?');
  await page.fill('input[name="budget_tokens"]', '300');
  // No absolute floor, and a relative one that keeps only records close to the best: one is
  // selected and the others are omitted with their reason, whatever the embedder's scale.
  await page.fill('input[name="threshold"]', '0');
  await page.fill('input[name="relative_threshold"]', '0.9');
  await page.click('#recall-form button[type="submit"]');
  await page.waitForSelector('#trace:not([hidden])');
  const rows = await page.locator('#candidates tbody tr').count();
  check(rows >= 1, 'no candidates in the trace');
  check(await page.locator('#candidates .badge.selected').count() >= 1, 'no selected candidate');
  const omitted = page.locator('#candidates tr.outcome-below_threshold td:last-child');
  check(await omitted.count() >= 1 && (await omitted.first().textContent()).includes('x best'), 'no omitted candidate with its reason');
  check(await page.locator('#candidates .bar span').count() >= 1, 'no contribution bars');
  check((await page.textContent('#block')).includes('Emacs'), 'the block lacks the current fact: ' + await page.textContent('#block'));
  const meter = await page.$eval('#budget-meter', (m) => [m.value, m.max]);
  check(meter[0] > 0 && meter[1] === 300, 'budget meter: ' + meter);
  log(step + ` (${rows} candidates, ${meter[0]} of ${meter[1]} tokens)`);

  step = "see the recall in the retrieval log: its candidates, a record's appearances, a replay";
  // the log is written in the background: wait until the recall is there
  for (let i = 0; i < 200 && (await api(KEY_A, 'GET', '/v1/recalls?owner=maya')).json.total < 1; i++) await page.waitForTimeout(25);
  await page.click(`#records tr[data-id="${emacsId}"] button:has-text("Shown in")`);
  await page.waitForSelector('#log tbody tr[data-id]');
  check((await page.textContent('#log-record-note')).includes(emacsId), 'the log is not filtered by the record');
  await page.click('#log tbody tr[data-id] button:has-text("Candidates")');
  await page.waitForSelector('#log-detail:not([hidden])');
  check(await page.locator('#log-candidates .badge.selected').count() >= 1, 'no selected candidate in the logged recall');
  check((await page.textContent('#log-summary')).includes('Which editor does Maya use?'), 'the logged question is missing');
  await page.click('#log-replay');
  await page.waitForFunction(() => document.querySelector('#log-replay-result').textContent.includes('identical'));
  log(step);

  step = 'save the screenshot';
  await page.screenshot({ path: SHOT, fullPage: true });
  log(step + ': ' + SHOT);

  step = 'forget a record, with a confirmation';
  await page.click(`#records tr[data-id="${emacsId}"] button:has-text("Forget")`);
  await page.waitForSelector('#confirm[open]');
  await page.click('#confirm-cancel');
  check(await page.locator(`#records tr[data-id="${emacsId}"]`).count() === 1, 'cancel forgot the record');
  await page.click(`#records tr[data-id="${emacsId}"] button:has-text("Forget")`);
  await page.click('#confirm-ok');
  await page.waitForSelector(`#records tr[data-id="${emacsId}"]`, { state: 'detached' });
  check((await api(KEY_A, 'GET', `/v1/owners/maya/memories/${emacsId}`)).status === 404, 'the record is still stored');
  log(step);

  step = "tenant B sees nothing of tenant A's owners";
  await logout();
  await login(KEY_B);
  await ownerButton('hank').waitFor();
  check(await ownerButton('maya').count() === 0, "tenant B's list shows tenant A's owner");
  const b = await api(KEY_B, 'GET', '/v1/owners');
  check(b.json.owners.map((o) => o.owner).join() === 'hank', 'tenant B owners: ' + JSON.stringify(b.json.owners));
  const bMaya = await api(KEY_B, 'GET', '/v1/owners/maya/memories');
  check(bMaya.status === 200 && bMaya.json.total === 0, "tenant B reads tenant A's records: " + JSON.stringify(bMaya.json));
  log(step);

  step = 'forget an owner, with a typed confirmation';
  await logout();
  await login(KEY_A);
  await ownerButton('maya').click();
  await page.click('#forget-owner');
  await page.waitForSelector('#confirm[open]');
  check(await page.isDisabled('#confirm-ok'), 'confirm is enabled before the owner is typed');
  await page.keyboard.press('Escape'); // the keyboard way out
  await page.waitForFunction(() => !document.querySelector('#confirm').open);
  check(await ownerButton('maya').count() === 1, 'Escape forgot the owner');
  await page.click('#forget-owner');
  await page.fill('#confirm-input', 'maya');
  await page.click('#confirm-ok');
  await ownerButton('maya').waitFor({ state: 'detached' });
  check((await api(KEY_A, 'GET', '/v1/owners')).json.total === 0, 'owner still listed by the API');
  log(step);

  check(problems.length === 0, 'the page logged errors:\n' + problems.join('\n'));
  log('inspector e2e: all steps passed');
  await context.close();
} catch (err) {
  console.error(`inspector e2e FAILED at step "${step}": ${err.message}`);
  if (problems.length) console.error('page errors:\n' + problems.join('\n'));
  try { await page.screenshot({ path: SHOT.replace(/\.png$/, '') + '-failure.png', fullPage: true }); } catch (e) { /* best effort */ }
  await context.close().catch(() => {});
  process.exit(1);
}
