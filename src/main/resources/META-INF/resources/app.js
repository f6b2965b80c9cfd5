// Deckhand's page. Plain JS, no build step, no network beyond this server.
'use strict';

const POLL_MS = 300;
const FAST_POLL_MS = 40;
const FAST_FOR_MS = 5000;
const CONSEQUENTIAL = ['send', 'buy', 'pay', 'delete', 'publish', 'confirm', 'submit', 'install', 'allow', 'run', 'logout'];
const $ = id => document.getElementById(id);
let csrf = null;
let policyDoc = null;
let builtins = new Set();
let chosen = null;          // the window picked for the grant card
let auditCursors = [];      // stack of "before" cursors for paging back
let auditNext = null;
let auditAsked = 0;         // the newest audit query: an older answer arriving after it is dropped
let lastRunSeq = null;      // newest run seen at load: later runs are announced

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// Every request carries the session's CSRF token, reads included (the server refuses a cookie alone);
// only the first GET /api/session, which hands the page its token, goes without (the browser's own
// Sec-Fetch-Site: same-origin stands in for it there).
async function api(method, path, body) {
  const headers = { 'Accept': 'application/json' };
  if (csrf !== null) headers['X-CSRF-Token'] = csrf;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(path, { method, headers, credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  const text = await r.text();
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { detail: text }; }
  return { ok: r.ok, status: r.status, data };
}

function problem(res) {
  const d = res.data || {};
  return (d.error ? d.error + ': ' : '') + (d.detail || ('HTTP ' + res.status));
}

// ---- sign-in and tabs ----
async function start() {
  const s = await api('GET', '/api/session');
  if (!s.ok || !s.data.signedIn) { $('signin').hidden = false; return; }
  csrf = s.data.csrf;
  $('app').hidden = false;
  document.querySelectorAll('[role=tab]').forEach(t => t.addEventListener('click', () => show(t.id.slice(4))));
  $('stop').addEventListener('click', stop);
  $('logout').hidden = false;
  $('logout').addEventListener('click', logout);
  $('windows-refresh').addEventListener('click', loadWindows);
  $('grant-form').addEventListener('submit', mint);
  $('grant-cancel').addEventListener('click', () => { chosen = null; $('grant-form').hidden = true; renderSelection(); });
  $('grant-form').addEventListener('input', summarise);
  $('model-form').addEventListener('submit', saveModel);
  $('m-provider').addEventListener('change', providerChanged);
  $('m-test').addEventListener('click', testModel);
  $('doctor-run').addEventListener('click', loadDoctor);
  $('policy-form').addEventListener('submit', savePolicy);
  document.querySelectorAll('[data-add]').forEach(b => b.addEventListener('click', () => addDeny(b.dataset.add)));
  $('audit-filter').addEventListener('submit', e => { e.preventDefault(); auditCursors = []; loadAudit(null); });
  $('a-kind').addEventListener('change', () => { auditCursors = []; loadAudit(null); });
  $('a-older').addEventListener('click', () => { if (auditNext !== null) { auditCursors.push(auditNext); loadAudit(auditNext); } });
  $('a-newer').addEventListener('click', () => { auditCursors = []; loadAudit(null); });
  for (const name of CONSEQUENTIAL) {
    $('g-consequential').append(el('label', {}, el('input', { type: 'checkbox', value: name, name: 'consequential' }), name));
  }
  await loadPolicy();
  show(location.hash.slice(1) || 'grant');
  poll();
}

/** Ends this browser's session on the server (its cookie is cleared) and shows the sign-in hint. */
async function logout() {
  await api('POST', '/api/session/logout');
  signedOut();
}

function signedOut() {
  csrf = null;
  $('app').hidden = true;
  $('logout').hidden = true;
  $('signin').hidden = false;
}

function show(name) {
  if (!$('view-' + name)) name = 'grant';
  document.querySelectorAll('[role=tab]').forEach(t => t.setAttribute('aria-selected', String(t.id === 'tab-' + name)));
  document.querySelectorAll('[role=tabpanel]').forEach(p => { p.hidden = p.id !== 'view-' + name; });
  history.replaceState(null, '', '#' + name);
  if (name === 'grant') loadWindows();
  if (name === 'model') loadModel();
  if (name === 'doctor') loadDoctor();
  if (name === 'policy') loadPolicy().then(renderPolicy);
  if (name === 'audit') { auditCursors = []; loadAudit(null); loadVerify(); }
}

// ---- live: grant indicator, approval cards, finished runs ----
// Right after Stop or a decision the page polls fast for a while, so the run's end shows promptly.
let fastUntil = 0;
async function poll() {
  if (await refreshLive()) setTimeout(poll, performance.now() < fastUntil ? FAST_POLL_MS : POLL_MS);
}

/** One live read, also called right after Stop and decisions; false once the session is gone. */
async function refreshLive() {
  try {
    const r = await api('GET', '/api/web/live');
    if (r.ok) renderLive(r.data);
    else if (r.status === 401) { signedOut(); return false; }
  } catch (e) { /* the server restarts or is busy: try again */ }
  return true;
}

function renderLive(live) {
  const g = live.grant;
  $('indicator').hidden = !g;
  $('no-grant').hidden = !!g;
  if (g) {
    $('indicator-text').textContent = `Granted: ${g.app} — “${g.title}” · ${g.inputPolicy === 'confirm_each' ? 'asks before each action' : 'acts without asking'}`
      + ` · ${g.capture === 'pixels' ? 'pixels' : 'no pixels'}` + (g.blindInput ? ' · blind input' : '')
      + ` · ${g.budgetRemaining} actions left` + (g.bound ? ' · in use' : '');
  }
  renderApprovals(live.approvals);
  const run = live.recentRuns[0];
  if (lastRunSeq === null) { lastRunSeq = run ? run.seq : 0; return; }
  const box = $('last-run');
  if (run && run.seq > lastRunSeq && box.dataset.runId !== run.runId) {
    box.hidden = false;
    box.dataset.runId = run.runId;
    box.dataset.outcome = run.outcome;
    box.dataset.shownAt = performance.now().toFixed(1);
    box.replaceChildren(el('strong', { text: 'Run ended: ' }),
      el('span', { id: 'last-run-outcome', class: 'outcome-' + run.outcome, text: run.outcome + (run.refusalCode ? ' (' + run.refusalCode + ')' : '') }),
      ` · ${run.stepsRun} step${run.stepsRun === 1 ? '' : 's'} · verdict ${run.verdict} · “${run.instruction}”`);
  }
}

const shownCards = new Map();
function renderApprovals(cards) {
  const box = $('approvals');
  const ids = new Set(cards.map(c => c.id));
  for (const [id, node] of shownCards) if (!ids.has(id)) { node.remove(); shownCards.delete(id); }
  for (const c of cards) {
    const left = Math.max(0, c.secondsLeft);
    if (shownCards.has(c.id)) {
      shownCards.get(c.id).querySelector('.countdown').textContent = left + ' s';
      continue;
    }
    const target = c.targetRole ? `${c.targetRole} “${c.targetName}”` : 'the window itself';
    const card = el('article', { class: 'approval', id: 'approval-' + c.id, 'data-approval': c.id, 'aria-label': 'Approval request' },
      el('div', {},
        el('h2', { text: c.consequential ? `Allow “${c.consequential}”?` : 'Allow this action?' }),
        el('p', {}, 'Target: ', el('strong', { class: 'target', text: target }),
          c.windowTitle ? el('span', {}, ' in window ', el('strong', { class: 'window-title', text: `“${c.windowTitle}”` })) : null),
        el('ol', {}, ...c.steps.map(s => el('li', { text: s.replace(/^\d+\.\s*/, '') }))),
        el('p', { class: 'muted' }, 'Expires in ', el('span', { class: 'countdown', text: left + ' s' }), ' (counts as deny)'),
        el('div', { class: 'row' },
          el('button', { class: 'primary approve', type: 'button', onclick: () => decide(c.id, 'approve') }, 'Approve'),
          el('button', { class: 'deny', type: 'button', onclick: () => decide(c.id, 'deny') }, 'Deny'))),
      el('div', { class: 'crop' }, el('img', { alt: `What Deckhand sees now around ${target}`, src: `/api/web/approvals/${encodeURIComponent(c.id)}/crop`,
        onerror: e => e.target.replaceWith(el('p', { class: 'muted', text: 'No picture: the window cannot be captured right now.' })) })));
    shownCards.set(c.id, card);
    box.append(card);
  }
}

async function decide(id, decision) {
  const card = shownCards.get(id);
  fastUntil = performance.now() + FAST_FOR_MS;
  if (card) card.querySelectorAll('button').forEach(b => { b.disabled = true; });
  const r = await api('POST', '/api/approvals/' + encodeURIComponent(id), { decision });
  if (!r.ok && card) card.append(el('p', { class: 'error', text: problem(r) }));
  refreshLive();
}

// The page keeps its own figures (performance.now()): when Stop was clicked and when the server had latched it.
async function stop() {
  const b = $('stop');
  b.dataset.clickedAt = performance.now().toFixed(1);
  fastUntil = performance.now() + FAST_FOR_MS;
  b.disabled = true;
  const r = await api('POST', '/api/stop');
  b.dataset.ackAt = performance.now().toFixed(1);
  b.disabled = false;
  if (!r.ok) $('indicator-text').textContent = 'Stop failed: ' + problem(r);
  refreshLive();
}

// ---- target picker and grant card ----
async function loadWindows() {
  const r = await api('GET', '/api/windows');
  const list = $('windows');
  if (!r.ok) { list.replaceChildren(el('li', { class: 'error', text: problem(r) })); return; }
  const windows = r.data.filter(w => !w.minimised);
  if (!windows.length) { list.replaceChildren(el('li', { class: 'muted', text: 'No windows on this desktop.' })); return; }
  list.replaceChildren(...windows.map(w => {
    const refused = !!w.refusal;
    const thumb = el('div', { class: 'thumb' });
    if (!refused && w.visible) {
      // One retry: a capture can be refused for a moment (an app holding the accessibility bus while it starts).
      const src = `/api/web/windows/${w.windowId}/thumbnail`;
      thumb.append(el('img', { alt: `Thumbnail of ${w.title}`, src,
        onerror: e => {
          const img = e.target;
          if (!img.dataset.retried) { img.dataset.retried = '1'; setTimeout(() => { img.src = src + '?retry=1'; }, 800); return; }
          img.replaceWith(el('span', { class: 'none', text: 'No thumbnail right now' }));
        } }));
    } else {
      thumb.append(el('span', { class: 'none', text: refused ? 'Not captured: Deckhand refuses this window' : 'Not visible' }));
    }
    return el('li', { class: 'window', 'data-window-id': w.windowId, 'data-title': w.title },
      thumb,
      el('div', { class: 'title', text: w.title || '(untitled)' }),
      el('div', { class: 'muted', text: w.app }),
      w.route === 'wayland' ? el('div', { class: 'route muted', text: 'Wayland: by accessibility only (no keys, typing, pointer or screenshots)' }) : null,
      refused ? el('div', { class: 'refusal' }, el('strong', { text: w.refusal.code }), ' ', w.refusal.detail || '')
        : el('div', { class: 'grantable', text: 'Can be granted' }),
      w.starting ? el('div', { class: 'starting muted', text: 'Starting: the app is not on the accessibility bus yet; a run waits up to 5 s for it' }) : null,
      el('button', { type: 'button', class: 'choose', disabled: refused, onclick: () => choose(w),
        'aria-label': `Choose ${w.title}` }, 'Choose'));
  }));
  renderSelection();
}

function renderSelection() {
  document.querySelectorAll('.window').forEach(li =>
    li.classList.toggle('selected', chosen !== null && li.dataset.windowId === String(chosen.windowId)));
}

function choose(w) {
  chosen = w;
  const caps = policyDoc ? policyDoc.caps : { budget: 100, idleExpirySeconds: 900 };
  $('grant-target').textContent = `“${w.title}” (${w.app})`;
  $('g-budget').value = caps.budget;
  $('g-idle').value = Math.max(1, Math.round(caps.idleExpirySeconds / 60));
  $('grant-error').textContent = '';
  $('grant-form').hidden = false;
  renderSelection();
  summarise();
  $('grant-form').scrollIntoView({ block: 'nearest' });
}

function grantBody() {
  const f = $('grant-form');
  return {
    windowId: chosen.windowId,
    scope: f.querySelector('[name=scope]:checked').value,
    budget: Number($('g-budget').value),
    idleExpirySeconds: Number($('g-idle').value) * 60,
    inputPolicy: f.querySelector('[name=input]:checked').value,
    capture: f.querySelector('[name=capture]:checked').value,
    consequential: [...f.querySelectorAll('[name=consequential]:checked')].map(c => c.value),
    blindInput: f.querySelector('[name=capture]:checked').value === 'pixels' && $('g-blind').checked,
  };
}

function summarise() {
  if (!chosen) return;
  const b = grantBody();
  const where = b.scope === 'app' ? `every window of ${chosen.app}` : `the window “${chosen.title}”`;
  const input = b.inputPolicy === 'confirm_each' ? 'You approve each action on a card before it happens.'
    : 'It acts without asking you first.';
  $('g-blind').disabled = b.capture !== 'pixels';
  if (b.capture !== 'pixels') $('g-blind').checked = false;
  const sees = b.capture === 'pixels' ? 'It may capture screenshots of the window and send them to the model.'
    : 'It reads the window’s elements only; Deckhand captures no pixels at all.';
  const blind = b.blindInput ? ' Blind input: it may type and press keys where Deckhand cannot read what receives them,'
    + ' and click where it sees no element. Deckhand cannot see a password prompt there; a terminal is a shell running'
    + ' as you, with your files (Deckhand’s own config directory included); a remote desktop passes keys to another'
    + ' machine.' : '';
  const cons = b.consequential.length ? `It may ${b.consequential.join(', ')} without a card.`
    : 'Consequential actions (send, buy, pay, delete, publish, confirm, submit, install, allow, run, log out) always need your approval.';
  const files = 'Through its own Open and Save dialogs an app can open any file you can; Deckhand only keeps it out of '
    + 'its own config directory, your keys, keyrings, browser profiles and hidden files.';
  $('grant-summary').textContent = `The agent may act in ${where}, at most ${b.budget} actions, until it is idle for ${b.idleExpirySeconds / 60} minutes. ${input} ${sees}${blind} ${cons} ${files}`;
}

async function mint(e) {
  e.preventDefault();
  if (!chosen) return;
  const r = await api('POST', '/api/grants', grantBody());
  if (!r.ok) { $('grant-error').textContent = problem(r); return; }
  $('grant-form').hidden = true;
  chosen = null;
  renderSelection();
}

// ---- model ----
let providers = {};
async function loadModel() {
  const r = await api('GET', '/api/model');
  if (!r.ok) { $('m-status').textContent = problem(r); return; }
  const m = r.data;
  providers = m.providers;
  $('m-provider').replaceChildren(...Object.keys(providers).map(p => el('option', { value: p, text: p })));
  $('m-provider').value = m.providerId || Object.keys(providers)[0];
  $('m-model').value = m.modelId || '';
  $('m-base').value = m.baseUrl || '';
  $('m-key').value = '';
  $('m-key-state').textContent = m.apiKeySet ? `Stored: ${m.apiKey}. Leave empty to keep it.` : 'No key stored.';
  $('m-status').textContent = m.problem ? m.problem : (m.bound ? `Bound to ${m.providerId} / ${m.modelId}.` : 'No model is bound yet.');
  providerChanged();
}

function providerChanged() {
  const p = providers[$('m-provider').value] || {};
  $('m-base').placeholder = p.defaultBaseUrl || 'required, e.g. http://127.0.0.1:8000/v1';
  $('m-base').required = !!p.baseUrlRequired;
  $('m-key-label').hidden = false;
  $('m-key').placeholder = p.keyRequired ? 'required' : 'optional';
}

async function saveModel(e) {
  e.preventDefault();
  const body = { providerId: $('m-provider').value, modelId: $('m-model').value.trim() };
  if ($('m-base').value.trim()) body.baseUrl = $('m-base').value.trim();
  if ($('m-key').value) body.apiKey = $('m-key').value;
  $('m-error').hidden = true;
  const r = await api('PUT', '/api/model', body);
  if (!r.ok) { $('m-status').textContent = problem(r); return; }
  await loadModel();
  $('m-status').textContent = 'Saved. ' + $('m-status').textContent;
}

async function testModel() {
  $('m-status').textContent = 'Testing…';
  $('m-error').hidden = true;
  const r = await api('POST', '/api/model/test');
  if (!r.ok) { $('m-status').textContent = problem(r); return; }
  if (r.data.ok) { $('m-status').textContent = 'Connection works: the model answered.'; return; }
  $('m-status').textContent = 'Connection failed. The provider said:';
  $('m-error').textContent = r.data.error;
  $('m-error').hidden = false;
}

// ---- permission doctor ----
async function loadDoctor() {
  const list = $('doctor');
  list.replaceChildren(el('li', { class: 'muted', text: 'Checking…' }));
  const r = await api('GET', '/api/doctor');
  if (!r.ok) { list.replaceChildren(el('li', { class: 'error', text: problem(r) })); return; }
  list.replaceChildren(...r.data.checks.map(c => el('li', { class: 'check' + (c.ok ? '' : ' bad'), 'data-check': c.id },
    el('div', {}, el('span', { class: 'state', text: c.ok ? '✓ OK' : '✗ Needs attention' }), ' ', el('strong', { text: c.title })),
    el('p', { class: 'detail', text: c.detail }),
    c.fix ? el('p', { class: 'fix', text: c.fix }) : null)));
}

// ---- policy ----
async function loadPolicy() {
  const [p, b] = await Promise.all([api('GET', '/api/policy'), api('GET', '/api/policy/builtins')]);
  if (p.ok) policyDoc = p.data;
  if (b.ok) builtins = new Set(b.data.credentialApps);
}

function renderPolicy() {
  if (!policyDoc) { $('p-status').textContent = 'The policy could not be read.'; return; }
  $('p-mode').value = policyDoc.permissionMode;
  for (const list of ['credentialApps', 'commsApps', 'deniedHosts']) renderDeny(list);
  for (const cap of ['maxSteps', 'wallClockSeconds', 'budget', 'idleExpirySeconds']) $('p-' + cap).value = policyDoc.caps[cap];
  $('p-poll').value = policyDoc.pollIntervalMs;
  $('p-allowLocalFiles').checked = policyDoc.allowLocalFiles !== false;
}

function renderDeny(list) {
  const items = [...policyDoc[list]].sort();
  $('p-' + list).replaceChildren(...items.map(name => {
    const locked = list === 'credentialApps' && builtins.has(name);
    return el('li', {}, el('span', { text: name }), locked
      ? el('span', { class: 'locked', title: 'Built-in: cannot be removed' }, 'built-in, locked')
      : el('button', { type: 'button', 'aria-label': `Remove ${name}`, onclick: () => {
          policyDoc[list] = policyDoc[list].filter(x => x !== name); renderDeny(list); } }, '×'));
  }));
}

function addDeny(list) {
  const input = $('p-' + list + '-add');
  const v = input.value.trim().toLowerCase();
  if (v && !policyDoc[list].includes(v)) policyDoc[list] = [...policyDoc[list], v];
  input.value = '';
  renderDeny(list);
}

async function savePolicy(e) {
  e.preventDefault();
  const doc = { ...policyDoc, permissionMode: $('p-mode').value, pollIntervalMs: Number($('p-poll').value),
    allowLocalFiles: $('p-allowLocalFiles').checked, caps: {} };
  for (const cap of ['maxSteps', 'wallClockSeconds', 'budget', 'idleExpirySeconds']) doc.caps[cap] = Number($('p-' + cap).value);
  const r = await api('PUT', '/api/policy', doc);
  if (!r.ok) { $('p-status').textContent = problem(r); return; }
  policyDoc = r.data;
  renderPolicy();
  $('p-status').textContent = 'Saved.';
}

// ---- audit ----
async function loadVerify() {
  const r = await api('GET', '/api/audit/verify');
  const b = $('verify');
  if (!r.ok) { b.className = 'badge bad'; b.textContent = problem(r); return; }
  b.className = 'badge ' + (r.data.ok ? 'ok' : 'bad');
  b.textContent = r.data.ok ? `Chain verified: ${r.data.records} records intact` : `Chain broken: ${r.data.detail}`;
}

async function loadAudit(before) {
  const kind = $('a-kind').value;
  const q = new URLSearchParams({ limit: '20' });
  if ($('a-run').value.trim()) q.set('runId', $('a-run').value.trim());
  if ($('a-outcome').value.trim()) q.set('outcome', $('a-outcome').value.trim());
  if ($('a-refusal').value.trim()) q.set('refusal', $('a-refusal').value.trim());
  if (before !== null) q.set('before', before);
  const asked = ++auditAsked;
  const r = await api('GET', `/api/audit/${kind}?${q}`);
  if (asked !== auditAsked) return; // a later query (a filter submitted while the tab's first load ran) answers
  const rows = $('audit-rows');
  if (!r.ok) { rows.replaceChildren(el('tr', {}, el('td', { class: 'error', text: problem(r) }))); return; }
  auditNext = r.data.nextCursor;
  $('a-older').disabled = auditNext === null;
  const cols = kind === 'runs' ? ['When', 'Run', 'Instruction', 'Outcome', 'Refusal', 'Verdict', 'Steps', 'Model', 'Tokens in/out', 'Cost']
    : ['When', 'Run', 'Step', 'Record', 'Action', 'Target', 'Outcome', 'Refusal', 'Effect'];
  renderDailyCost(kind === 'runs' ? r.data.records : []);
  $('audit-head').replaceChildren(el('tr', {}, ...cols.map(c => el('th', { scope: 'col', text: c }))));
  if (!r.data.records.length) { rows.replaceChildren(el('tr', {}, el('td', { colspan: cols.length, class: 'muted', text: 'Nothing recorded matches.' }))); return; }
  rows.replaceChildren(...r.data.records.map(rec => {
    const e = rec.event;
    const when = new Date(rec.recordedAt).toLocaleString();
    const lower = v => v === null || v === undefined ? '' : String(v).toLowerCase();
    if (kind === 'runs') {
      const m = e.model;
      const report = m && m.finalReport ? el('div', { class: 'muted final-report',
        text: 'The model’s own report (not a verdict): “' + m.finalReport + '”' }) : null;
      const timings = e.timings ? el('div', { class: 'muted timings', text: e.timings }) : null;
      return el('tr', { 'data-run-id': e.runId }, el('td', { text: when }), el('td', {}, el('code', { text: e.runId })),
        el('td', {}, e.instruction, report, timings), el('td', { class: 'outcome-' + lower(e.outcome), text: lower(e.outcome) }),
        el('td', { text: e.refusalCode || '' }), el('td', { text: lower(e.verdict) }), el('td', { text: e.stepsRun }),
        el('td', { class: 'run-model', text: m ? m.provider + ' · ' + m.model + ' · ' + m.modelTurns + ' turn' + (m.modelTurns === 1 ? '' : 's') : '' }),
        el('td', { class: 'run-tokens', text: m ? m.inputTokens + ' / ' + m.outputTokens : '' }),
        el('td', { class: 'run-cost', text: m ? (m.costUsd === null ? 'unpriced' : '$' + m.costUsd) : '' }));
    }
    const t = e.target || {};
    return el('tr', { 'data-run-id': e.runId }, el('td', { text: when }), el('td', {}, el('code', { text: e.runId })),
      el('td', { text: e.step }), el('td', { text: rec.kind.replace('action_', '') }), el('td', { text: lower(e.action) }),
      el('td', { text: [t.app, t.elementRole].filter(Boolean).join(' · ') }),
      el('td', { class: 'outcome-' + lower(e.outcome), text: lower(e.outcome) }), el('td', { text: e.refusalCode || '' }),
      el('td', { class: 'effect', text: e.effect || '' }));
  }));
}

/** The cost of the runs shown, per day (runs of an unpriced model are counted apart, never guessed). */
function renderDailyCost(records) {
  const days = new Map();
  for (const rec of records) {
    const m = rec.event.model;
    if (!m) continue;
    const day = new Date(rec.recordedAt).toLocaleDateString();
    const d = days.get(day) || { cost: 0, runs: 0, unpriced: 0, input: 0, output: 0 };
    d.runs++; d.input += m.inputTokens; d.output += m.outputTokens;
    if (m.costUsd === null) d.unpriced++; else d.cost += Number(m.costUsd);
    days.set(day, d);
  }
  $('audit-daily').replaceChildren(...[...days].map(([day, d]) => el('li', { 'data-day': day,
    text: `${day}: $${d.cost.toFixed(4)} over ${d.runs} run${d.runs === 1 ? '' : 's'} (${d.input} / ${d.output} tokens)`
      + (d.unpriced ? `, ${d.unpriced} of an unpriced model` : '') })));
}

document.addEventListener('DOMContentLoaded', start);
