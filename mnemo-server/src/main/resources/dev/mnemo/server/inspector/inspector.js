// Mnemo inspector: vanilla JavaScript over the REST API (/v1), no build step, no dependencies.
// The key lives in sessionStorage (this tab only) and goes out as "Authorization: Bearer KEY",
// exactly like any other API client; the page holds no data of its own.
'use strict';

const KEY_ITEM = 'mnemo.key';
const PAGE = 50;
const SIGNALS = ['dense', 'bm25', 'entity', 'rrf', 'recency', 'importance', 'frequency', 'authority', 'time_match'];
const WEIGHTS = ['dense', 'bm25', 'entity', 'recency', 'importance', 'frequency', 'authority', 'time_match', 'bm25_scale'];
const CATEGORIES = ['episodic', 'semantic', 'procedural', 'task'];

const $ = (sel) => document.querySelector(sel);
const state = { owner: null, ownerOffset: 0, recordOffset: 0 };

/** Builds an element: el('td', {class: 'num'}, 'text', child, ...). */
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'style') e.style.cssText = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function key() { return sessionStorage.getItem(KEY_ITEM); }

/** A problem+json (or any failed response) as one readable message. */
class ApiError extends Error {
  constructor(status, problem) {
    const lines = [(problem && (problem.detail || problem.title)) || ('HTTP ' + status)];
    for (const f of (problem && problem.errors) || []) lines.push('  ' + f.field + ': ' + f.message);
    super(lines.join('\n'));
    this.status = status;
  }
}

async function api(method, path, body) {
  const headers = { Authorization: 'Bearer ' + key() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
  if (!res.ok) {
    if (res.status === 401) logout('The key was refused (unknown or revoked). Paste a valid key.');
    throw new ApiError(res.status, json);
  }
  return json;
}

function say(msg) { $('#status').textContent = msg; }
function fail(err) {
  const e = $('#error');
  e.textContent = err instanceof Error ? err.message : String(err);
  e.hidden = false;
}
function clearError() { $('#error').hidden = true; $('#error').textContent = ''; }

/** Runs an action, showing its error (and clearing the previous one). */
async function guarded(fn) {
  clearError();
  try { await fn(); } catch (err) { fail(err); }
}

function fmt(instant) {
  if (!instant) return '—';
  return instant.replace('T', ' ').replace(/(:\d\d)(\.\d+)?Z$/, '$1Z').replace(/ 00:00:00Z$/, '');
}

// ---- login ------------------------------------------------------------------------------------

async function login(ev) {
  ev.preventDefault();
  const k = $('#key').value.trim();
  if (!k) return;
  sessionStorage.setItem(KEY_ITEM, k);
  await guarded(async () => {
    try {
      await api('GET', '/v1/owners?limit=1');
    } catch (err) {
      sessionStorage.removeItem(KEY_ITEM);
      if (err.status === 403) throw new Error('That is the admin key: it manages tenants and keys. Use a tenant\'s key to inspect memories.');
      throw err;
    }
    $('#key').value = '';
    await enter();
  });
}

async function enter() {
  const k = key();
  const m = /^mnemo_([^_]+)_/.exec(k);
  $('#key-id').textContent = m ? m[1] : 'set';
  $('#login').hidden = true;
  $('#session').hidden = false;
  $('#main').hidden = false;
  state.ownerOffset = 0;
  await loadOwners();
}

function logout(message) {
  sessionStorage.removeItem(KEY_ITEM);
  state.owner = null;
  $('#login').hidden = false;
  $('#session').hidden = true;
  $('#main').hidden = true;
  $('#owner-view').hidden = true;
  $('#owner-list').replaceChildren();
  say(message || 'Key forgotten.');
  $('#key').focus();
}

// ---- owners -----------------------------------------------------------------------------------

async function loadOwners() {
  const q = $('#owner-q').value.trim();
  const page = await api('GET', '/v1/owners?' + new URLSearchParams({ q, offset: state.ownerOffset, limit: PAGE }));
  const list = $('#owner-list');
  list.replaceChildren(...page.owners.map((o) => el('li', {},
    el('button', {
      type: 'button', 'aria-current': o.owner === state.owner ? 'true' : null,
      onclick: () => guarded(() => selectOwner(o.owner)),
    }, o.owner, el('span', { class: 'count' }, o.current + ' / ' + o.records),
    el('span', { class: 'visually-hidden' }, ' (' + o.current + ' current of ' + o.records + ' records)')))));
  if (page.owners.length === 0) list.append(el('li', {}, q ? 'No owner matches.' : 'No owners yet: this tenant has no records.'));
  pager('#owner-pager', page, (off) => { state.ownerOffset = off; return loadOwners(); });
  say(page.total + ' owner' + (page.total === 1 ? '' : 's') + ' in this tenant.');
}

function pager(sel, page, go) {
  const p = $(sel);
  const [prev, next] = p.querySelectorAll('button');
  const end = page.offset + (page.owners || page.memories).length;
  p.querySelector('.range').textContent = page.total === 0 ? '' : (page.offset + 1) + '–' + end + ' of ' + page.total;
  prev.disabled = page.offset === 0;
  next.disabled = end >= page.total;
  prev.onclick = () => guarded(() => go(Math.max(0, page.offset - page.limit)));
  next.onclick = () => guarded(() => go(page.offset + page.limit));
}

async function selectOwner(owner) {
  state.owner = owner;
  state.recordOffset = 0;
  $('#owner-name').textContent = owner;
  $('#owner-view').hidden = false;
  $('#timeline').hidden = true;
  $('#recall-result').hidden = true;
  for (const b of document.querySelectorAll('#owner-list button')) {
    if (b.firstChild.textContent === owner) b.setAttribute('aria-current', 'true');
    else b.removeAttribute('aria-current');
  }
  await loadRecords();
  state.logOffset = 0;
  $('#log-detail').hidden = true;
  $('#log-q').value = '';
  $('#log-record').value = '';
  $('#log-outcome').value = '';
  $('#log-record-note').textContent = '';
  try {
    await loadLog();
  } catch (e) {
    // a store without a retrieval log (SolrCloud) answers 501; the rest of the page still works
    $('#log-stats').textContent = 'No retrieval log: ' + (e.message || e);
  }
  $('#owner-title').focus();
}

// ---- records ----------------------------------------------------------------------------------

function ownerPath(owner) { return '/v1/owners/' + encodeURIComponent(owner); }

async function loadRecords() {
  const params = { q: $('#record-q').value.trim(), offset: state.recordOffset, limit: PAGE };
  if ($('#current-only').checked) params.current_only = 'true';
  const page = await api('GET', ownerPath(state.owner) + '/memories?' + new URLSearchParams(params));
  const body = $('#records tbody');
  body.replaceChildren(...page.memories.map(recordRow));
  if (page.memories.length === 0) body.append(el('tr', {}, el('td', { colspan: 7 }, 'No records match.')));
  pager('#record-pager', page, (off) => { state.recordOffset = off; return loadRecords(); });
  say(page.total + ' record' + (page.total === 1 ? '' : 's') + ' of ' + state.owner + (params.q ? ' matching "' + params.q + '"' : '') + '.');
}

function recordRow(r) {
  const expired = r.expired_at !== null;
  return el('tr', { class: expired ? 'expired' : null, 'data-id': r.id },
    el('td', {}, r.text, el('code', { class: 'id' }, r.id)),
    el('td', {}, r.fact_key ? el('code', {}, r.fact_key) : '—', r.fact_key ? ' v' + r.version : ''),
    el('td', {}, r.category),
    el('td', {}, fmt(r.valid_from) + ' → ' + (r.valid_to ? fmt(r.valid_to) : 'open')),
    el('td', {}, fmt(r.recorded_at) + (expired ? ' → ' + fmt(r.expired_at) : '')),
    el('td', {}, el('span', { class: 'badge ' + (expired ? 'expired' : 'current') }, expired ? 'expired' : 'current')),
    el('td', {}, el('div', { class: 'actions' },
      el('button', { type: 'button', onclick: () => guarded(() => showTimeline(r)),
        'aria-label': 'Versions of ' + (r.fact_key || 'record ' + r.id) }, 'Versions'),
      el('button', { type: 'button', onclick: () => guarded(() => showAppearances(r)),
        'aria-label': 'Recalls that showed record ' + r.id }, 'Shown in…'),
      el('button', { type: 'button', class: 'danger', onclick: () => guarded(() => forgetRecord(r)),
        'aria-label': 'Forget record ' + r.id }, 'Forget…'))));
}

async function forgetRecord(r) {
  const ok = await confirmDialog('Forget this record?',
    '"' + r.text + '" (' + r.id + ') and its clipped copies are deleted for good, with their vectors. Other versions of the fact stay.');
  if (!ok) return;
  const res = await api('DELETE', ownerPath(state.owner) + '/memories/' + encodeURIComponent(r.id));
  say('Forgot ' + res.deleted + ' record' + (res.deleted === 1 ? '' : 's') + '.');
  await loadRecords();
  await loadOwners();
}

async function forgetOwner() {
  const owner = state.owner;
  const ok = await confirmDialog('Forget owner ' + owner + '?',
    'Every record of ' + owner + ', every version and vector, is deleted for good.', owner);
  if (!ok) return;
  const res = await api('DELETE', ownerPath(owner));
  state.owner = null;
  $('#owner-view').hidden = true;
  await loadOwners();
  say('Forgot owner ' + owner + ': ' + res.deleted + ' record' + (res.deleted === 1 ? '' : 's') + ' deleted.');
}

/** A modal confirmation; with `word`, the user must type it. Resolves true only on confirm. */
function confirmDialog(title, text, word) {
  const d = $('#confirm');
  $('#confirm-title').textContent = title;
  $('#confirm-text').textContent = text;
  const typed = $('#confirm-typed');
  const input = $('#confirm-input');
  const ok = $('#confirm-ok');
  typed.hidden = !word;
  input.value = '';
  $('#confirm-word').textContent = word || '';
  ok.disabled = !!word;
  input.oninput = () => { ok.disabled = input.value !== word; };
  return new Promise((resolve) => {
    const done = (answer) => { d.onclose = null; if (d.open) d.close(); resolve(answer); };
    ok.onclick = () => done(true);
    $('#confirm-cancel').onclick = () => done(false);
    d.onclose = () => done(false); // Escape
    d.showModal();
    (word ? input : $('#confirm-cancel')).focus();
  });
}

// ---- timeline ---------------------------------------------------------------------------------

async function showTimeline(r) {
  let versions = [r];
  if (r.fact_key) {
    const h = await api('GET', ownerPath(state.owner) + '/history?' + new URLSearchParams({ fact_key: r.fact_key }));
    versions = h.versions;
  }
  $('#timeline-h').textContent = r.fact_key
    ? 'Versions of fact "' + r.fact_key + '" (' + versions.length + ')' : 'Record ' + r.id + ' (no fact key: one version)';
  const now = Date.now();
  const t = (s) => (s ? Date.parse(s) : null);
  let min = Infinity;
  let max = now;
  for (const v of versions) {
    for (const x of [v.valid_from, v.recorded_at]) min = Math.min(min, t(x));
    for (const x of [v.valid_to, v.expired_at, v.valid_from, v.recorded_at]) if (x) max = Math.max(max, t(x));
  }
  if (!(max > min)) max = min + 86400000;
  const pct = (x) => ((x - min) / (max - min)) * 100;
  const span = (from, to, label) => {
    const open = to === null;
    const a = pct(t(from));
    const b = open ? 100 : pct(t(to));
    return el('span', { class: open ? 'open' : null, style: 'left:' + a + '%;width:' + Math.max(0.4, b - a) + '%', title: label });
  };
  const chart = $('#timeline-chart');
  chart.replaceChildren(
    ...versions.map((v) => el('div', { class: 'tl-version' },
      el('div', { class: 'tl-row' }, el('span', {}, 'v' + v.version),
        el('div', { class: 'tl-track valid' }, span(v.valid_from, v.valid_to, 'valid ' + fmt(v.valid_from) + ' → ' + fmt(v.valid_to)))),
      el('div', { class: 'tl-row' }, el('span', {}, ''),
        el('div', { class: 'tl-track known' }, span(v.recorded_at, v.expired_at, 'recorded ' + fmt(v.recorded_at) + ' → ' + fmt(v.expired_at)))))),
    el('div', { class: 'tl-axis' }, el('span', {}, fmt(new Date(min).toISOString())), el('span', {}, fmt(new Date(max).toISOString()))));
  $('#timeline-table tbody').replaceChildren(...versions.map((v) => el('tr', { class: v.expired_at ? 'expired' : null },
    el('td', {}, 'v' + v.version + (v.origin ? ' (clipped from ' + v.origin + ')' : '')),
    el('td', {}, v.text), el('td', {}, fmt(v.valid_from)), el('td', {}, v.valid_to ? fmt(v.valid_to) : 'open'),
    el('td', {}, fmt(v.recorded_at)), el('td', {}, v.expired_at ? fmt(v.expired_at) : 'current'))));
  $('#timeline').hidden = false;
  $('#timeline-h').setAttribute('tabindex', '-1');
  $('#timeline-h').focus();
}

// ---- recall -----------------------------------------------------------------------------------

function numberInputs(container, names, prefix) {
  $(container).replaceChildren(...names.map((n) => el('label', {}, n.replace('_', ' '),
    el('input', { name: prefix + n, type: 'number', step: 'any', min: '0' }))));
}

/** The form as a recall request: only what the user set, so the server's defaults apply otherwise. */
function recallRequest(form) {
  const f = new FormData(form);
  const req = { owner: state.owner, text: f.get('text'), explain: f.get('explain') === 'on' };
  for (const n of ['mode', 'fusion', 'packing', 'time_filter']) req[n] = f.get(n);
  for (const n of ['at', 'asked_at', 'scope']) if (f.get(n).trim()) req[n] = f.get(n).trim();
  for (const n of ['budget_tokens', 'k', 'candidates']) if (f.get(n) !== '') req[n] = parseInt(f.get(n), 10);
  for (const n of ['threshold', 'relative_threshold', 'mmr_lambda', 'duplicate_similarity']) {
    if (f.get(n) !== '') req[n] = Number(f.get(n));
  }
  const cats = f.getAll('categories');
  if (cats.length) req.categories = cats;
  const weights = {};
  for (const n of WEIGHTS) if (f.get('w_' + n) !== '') weights[n] = Number(f.get('w_' + n));
  if (Object.keys(weights).length) req.weights = weights;
  const half = {};
  for (const n of CATEGORIES) if (f.get('h_' + n) !== '') half[n] = Number(f.get('h_' + n));
  if (Object.keys(half).length) req.half_lives = half;
  const meta = {};
  for (const line of f.get('metadata').split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) meta[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  if (Object.keys(meta).length) req.metadata = meta;
  return req;
}

async function recall(ev) {
  ev.preventDefault();
  await guarded(async () => {
    const req = recallRequest(ev.target);
    const res = await api('POST', '/v1/recall', req);
    showRecall(req, res);
  });
}

function showRecall(req, res) {
  $('#recall-result').hidden = false;
  const budget = res.trace ? res.trace.budget_tokens : (req.budget_tokens || 400);
  const meter = $('#budget-meter');
  meter.max = budget;
  meter.value = res.tokens_used;
  meter.textContent = res.tokens_used + ' / ' + budget;
  $('#budget-text').textContent = res.tokens_used + ' of ' + budget + ' tokens used by ' + res.records.length
    + ' record' + (res.records.length === 1 ? '' : 's') + ' (the rendered block: ' + res.block_tokens + ' tokens)';
  $('#block').textContent = res.block || nothingSelected(res.withheld);
  $('#trace').hidden = !res.trace;
  if (res.trace) showTrace(res.trace);
  say('Recall done: ' + res.records.length + ' selected' + (res.trace ? ' of ' + res.trace.candidates.length + ' candidates.' : '.'));
}

/** Why an answer is empty, in the words of the setting that decided it. */
function nothingSelected(w) {
  if (w && w.searched === false) return '(nothing selected: small talk, nothing to look up)';
  if (w && w.count > 0) {
    return `(nothing selected: ${w.count} withheld below min_relevance ${w.min_relevance.toFixed(3)},`
      + ` the best at relevance ${(w.best_relevance ?? 0).toFixed(3)})`;
  }
  return '(nothing selected: no eligible record matched the message closely enough)';
}

/**
 * Each candidate's score split into its parts. Ranking multiplies the fused relevance (or the
 * normalized RRF score) by 1 + the weighted ranking signals, so the relevance is one part and each
 * ranking signal adds relevance x weight x value: the parts add up to the final score. The
 * relevance is split between dense, BM25 and entity in proportion to weight x value with the
 * request's weights; the engine scales the entity weight by how specific the names are, so that
 * split is indicative, while its total is exact.
 */
function contributions(c, trace) {
  const s = c.signals;
  const w = trace.weights;
  const rrf = trace.fusion.startsWith('rrf');
  const base = rrf ? (s.rrf || 0) : (s.match ?? s.relevance ?? 0);
  const parts = [];
  if (rrf) {
    parts.push(['rrf', base]);
  } else {
    const raw = [['dense', trace.dense_floor === null ? 0 : w.dense * (s.dense || 0)],
      ['bm25', w.bm25 * (s.bm25 || 0)], ['entity', w.entity * (s.entity || 0)]];
    const sum = raw.reduce((a, [, v]) => a + v, 0);
    for (const [n, v] of raw) parts.push([n, sum > 0 ? (base * v) / sum : 0]);
  }
  for (const n of ['recency', 'importance', 'frequency', 'authority', 'time_match']) {
    parts.push([n, base * (w[n] || 0) * (s[n] || 0)]);
  }
  return parts;
}

function showTrace(trace) {
  const dl = $('#trace-summary');
  const rows = [['mode', trace.mode], ['valid time', fmt(trace.valid_time)], ['known time', fmt(trace.known_time)],
    ['asked at', fmt(trace.asked_at)], ['fusion', trace.fusion], ['packing', trace.packing], ['k', trace.k],
    ['threshold', trace.threshold], ['budget', trace.budget_tokens + ' tokens (' + trace.tokenizer + ')'],
    ['dense floor', trace.dense_floor === null ? 'no dense signal' : trace.dense_floor],
    ['query entities', trace.query_entities.join(', ') || '—'],
    ['time words', trace.time_range ? trace.time_range.expression + ': ' + fmt(trace.time_range.from) + ' → ' + fmt(trace.time_range.to) : '—'],
    ['stages (ms)', Object.entries(trace.stage_ms).map(([k, v]) => k + ' ' + v).join(', ')]];
  dl.replaceChildren(...rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]));
  const used = SIGNALS.filter((n) => (trace.fusion.startsWith('rrf') ? !['dense', 'bm25', 'entity'].includes(n) : n !== 'rrf'));
  $('#signal-legend').replaceChildren('Bars: each signal\'s part of the score —',
    ...used.map((n) => el('span', {}, el('span', { class: 'swatch seg-' + n }), ' ' + n)));
  const all = trace.candidates.map((c) => contributions(c, trace));
  const maxScore = Math.max(1e-9, ...trace.candidates.map((c) => c.signals.final || 0));
  $('#candidates tbody').replaceChildren(...trace.candidates.map((c, i) => {
    const parts = all[i].filter(([, v]) => v > 0);
    const describe = parts.map(([n, v]) => n + ' ' + v.toFixed(3)).join(', ') || 'no signal';
    return el('tr', { class: 'outcome-' + c.outcome, 'data-id': c.id },
      el('td', {}, el('span', { class: 'badge ' + c.outcome }, c.outcome.replace('_', ' '))),
      el('td', {}, c.text, el('code', { class: 'id' }, c.id + (c.fact_key ? ' · ' + c.fact_key : '') + ' · found by '
        + (c.found_by.join(', ') || '—'))),
      el('td', {},
        el('div', { class: 'bar', role: 'img', 'aria-label': describe },
          ...parts.map(([n, v]) => el('span', { class: 'seg-' + n, style: 'width:' + ((v / maxScore) * 100) + '%', title: n + ' ' + v.toFixed(3) }))),
        el('span', { class: 'bar-text' }, describe)),
      el('td', { class: 'num' }, (c.signals.final || 0).toFixed(3)),
      el('td', { class: 'num' }, c.tokens),
      el('td', {}, c.reason || (c.outcome === 'selected' ? 'fits the budget' : '—')));
  }));
}

// ---- retrieval log ----------------------------------------------------------------------------

async function loadLog() {
  const params = { owner: state.owner, offset: state.logOffset || 0, limit: PAGE };
  const q = $('#log-q').value.trim();
  const record = $('#log-record').value.trim();
  const outcome = $('#log-outcome').value;
  if (q) params.q = q;
  if (record) params.record = record;
  if (outcome) params.outcome = outcome;
  const page = await api('GET', '/v1/recalls?' + new URLSearchParams(params));
  const body = $('#log tbody');
  body.replaceChildren(...page.recalls.map((e) => el('tr', { 'data-id': e.id },
    el('td', {}, fmt(e.logged_at)),
    el('td', {}, e.text, el('code', { class: 'id' }, e.id)),
    el('td', { class: 'num' }, String(e.selected.length)),
    el('td', { class: 'num' }, String(e.omitted.length)),
    el('td', { class: 'num' }, String(e.rendered_tokens)),
    el('td', {}, el('button', { type: 'button', onclick: () => guarded(() => showLogged(e.id)),
      'aria-label': 'Candidates and reasons of recall ' + e.id }, 'Candidates')))));
  if (page.recalls.length === 0) body.append(el('tr', {}, el('td', { colspan: 6 }, 'No logged recalls match.')));
  pager('#log-pager', page, (off) => { state.logOffset = off; return loadLog(); });
  const stats = await api('GET', '/v1/recalls/stats?' + new URLSearchParams({ owner: state.owner }));
  const pct = (x) => (x === null ? '—' : (100 * x).toFixed(1) + ' %');
  $('#log-stats').textContent = stats.recalls + ' logged recalls: fetch rate ' + pct(stats.fetch_rate)
    + ', abstention rate ' + pct(stats.abstention_rate) + ', mean injected tokens '
    + (stats.mean_injected_tokens === null ? '—' : stats.mean_injected_tokens.toFixed(1)) + ', use rate ' + pct(stats.use_rate) + '.';
}

/** A record's appearances: the recalls in which it was a candidate, with its outcome there. */
async function showAppearances(r) {
  $('#log-record').value = r.id;
  $('#log-outcome').value = '';
  $('#log-record-note').textContent = 'Showing the recalls in which record ' + r.id + ' was a candidate.';
  state.logOffset = 0;
  await loadLog();
  $('#log-h').scrollIntoView();
}

async function showLogged(id) {
  const e = await api('GET', '/v1/recalls/' + encodeURIComponent(id));
  state.logged = id;
  $('#log-detail').hidden = false;
  $('#log-replay-result').textContent = '';
  $('#log-detail-h').textContent = 'Logged recall ' + id;
  const removed = Object.entries(e.ineligible).filter(([k]) => k !== 'eligible').map(([k, v]) => k.replaceAll('_', ' ') + ' ' + v);
  const rows = [['question', e.request.query], ['asked at', fmt(e.trace.asked_at)], ['mode', e.trace.mode],
    ['k / budget', e.trace.k + ' / ' + e.trace.budget_tokens + ' tokens'], ['threshold', e.trace.threshold],
    ['eligible records', e.ineligible.eligible === undefined ? '—' : e.ineligible.eligible],
    ['removed by eligibility', removed.join(', ') || '—'],
    ['engine', Object.entries(e.engine).map(([k, v]) => k + ' ' + v).join(', ')],
    ['reported used', e.used.join(', ') || '—']];
  $('#log-summary').replaceChildren(...rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]));
  $('#log-candidates tbody').replaceChildren(...e.trace.candidates.map((c) => el('tr', { class: 'outcome-' + c.outcome, 'data-id': c.id },
    el('td', {}, el('span', { class: 'badge ' + c.outcome }, c.outcome.replace('_', ' '))),
    el('td', {}, c.text, el('code', { class: 'id' }, c.id)),
    el('td', { class: 'num' }, (c.signals.final || 0).toFixed(3)),
    el('td', { class: 'num' }, (c.signals.match ?? c.signals.relevance ?? 0).toFixed(3)),
    el('td', {}, c.reason || '—'))));
  say('Logged recall ' + id + ': ' + e.selected.length + ' selected of ' + e.trace.candidates.length + ' candidates.');
}

async function replayLogged() {
  const r = await api('POST', '/v1/recalls/' + encodeURIComponent(state.logged) + '/replay');
  $('#log-replay-result').textContent = r.identical
    ? 'Replay: identical selection (' + r.selected_now.length + ' records) in ' + r.replay_ms + ' ms.'
    : 'Replay differs: added ' + (r.added.join(', ') || 'none') + '; removed ' + (r.removed.join(', ') || 'none')
      + '; ' + r.changes.length + ' candidates changed.';
}

// ---- start ------------------------------------------------------------------------------------

document.addEventListener('DOMContentLoaded', () => {
  numberInputs('#weights', WEIGHTS, 'w_');
  numberInputs('#half-lives', CATEGORIES, 'h_');
  $('#login').addEventListener('submit', login);
  $('#logout').addEventListener('click', () => logout());
  $('#owner-filter').addEventListener('submit', (ev) => { ev.preventDefault(); state.ownerOffset = 0; guarded(loadOwners); });
  $('#refresh-owners').addEventListener('click', () => guarded(loadOwners));
  $('#record-search').addEventListener('submit', (ev) => { ev.preventDefault(); state.recordOffset = 0; guarded(loadRecords); });
  $('#current-only').addEventListener('change', () => { state.recordOffset = 0; guarded(loadRecords); });
  $('#forget-owner').addEventListener('click', () => guarded(forgetOwner));
  $('#recall-form').addEventListener('submit', recall);
  $('#log-search').addEventListener('submit', (ev) => {
    ev.preventDefault(); state.logOffset = 0; $('#log-record-note').textContent = ''; guarded(loadLog);
  });
  $('#log-replay').addEventListener('click', () => guarded(replayLogged));
  $('#owner-title').setAttribute('tabindex', '-1');
  if (key()) guarded(enter);
  else $('#key').focus();
});
