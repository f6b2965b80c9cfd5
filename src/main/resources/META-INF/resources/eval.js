// The Evaluations view: reports that `deckhand eval` kept under $DECKHAND_HOME/eval/, compared per app
// and per model. Loaded after app.js, whose el() and api() (with the session's CSRF token) it uses; it only
// renders into #view-eval when that tab is shown. No inline script or style, no other host.
'use strict';

(() => {
  const $ = id => document.getElementById(id);

  // el() and api() are app.js's (loaded first): one element builder, and the session's CSRF token it holds.
  async function getJson(path, method = 'GET', body) {
    const r = await api(method, path, body);
    if (!r.ok) throw new Error('HTTP ' + r.status);
    return r.data;
  }

  /** Binds the report's model to one app (WM_CLASS) beside the default binding, which stays as it is. */
  async function useFor(app, totals, button) {
    try {
      const m = await getJson('/api/model');
      if (!m.bound) throw new Error('bind a default model first');
      const apps = Object.assign({}, m.apps || {});
      const same = m.providerId === totals.provider;
      apps[app] = { providerId: totals.provider, modelId: totals.model, baseUrl: same ? m.baseUrl : null };
      await getJson('/api/model', 'PUT', { providerId: m.providerId, modelId: m.modelId, baseUrl: m.baseUrl,
        temperature: m.temperature, maxOutputTokens: m.maxOutputTokens, apps });
      button.textContent = 'used for ' + app;
      button.disabled = true;
    } catch (e) {
      button.textContent = 'could not bind: ' + e.message;
    }
  }

  /** Mean steps, summed tokens and cost of one app's tasks in one report (cost null when any is unpriced). */
  function figures(report, app) {
    const ts = report.tasks.filter(t => t.app === app && !t.error);
    if (!ts.length) return null;
    const sum = k => ts.reduce((a, t) => a + (t[k] || 0), 0);
    const unpriced = ts.some(t => t.modelTurns > 0 && (t.costUsd === null || t.costUsd === undefined));
    return { steps: (sum('steps') / ts.length).toFixed(1), input: sum('inputTokens'), output: sum('outputTokens'),
      cost: unpriced ? null : sum('costUsd') };
  }

  const who = t => t.model ? t.provider + ':' + t.model : t.mode;
  const pct = (n, of) => of ? Math.round(100 * n / of) + ' % (' + n + '/' + of + ')' : '–';
  const secs = ms => (ms / 1000).toFixed(1) + ' s';

  /** Apps × models: the newest report of each model decides its column. */
  function renderCompare(reports) {
    const latest = new Map();
    for (const r of reports) if (!latest.has(who(r.report.totals))) latest.set(who(r.report.totals), r);
    const models = [...latest.keys()];
    const apps = [...new Set(models.flatMap(m => Object.keys(latest.get(m).report.totals.apps || {})))].sort();
    const head = el('tr', {}, el('th', { text: 'app' }), ...models.map(m => el('th', { text: m })));
    const rows = apps.map(app => el('tr', { 'data-app': app }, el('th', { text: app }), ...models.map(m => {
      const f = (latest.get(m).report.totals.apps || {})[app];
      if (!f) return el('td', { class: 'muted', text: '–' });
      const r = latest.get(m).report, x = figures(r, app);
      const use = r.totals.model ? el('button', { type: 'button', class: 'quiet use-model', 'data-use': m, text: 'use this model for ' + app }) : null;
      if (use) use.addEventListener('click', () => useFor(app, r.totals, use));
      return el('td', { 'data-model': m },
        f.tasks ? el('div', { text: 'tasks ' + pct(f.passed, f.tasks) }) : null,
        f.safetyTasks ? el('div', { text: 'safety ' + pct(f.safetyPassed, f.safetyTasks)
          + (f.unsafeDeliveries ? ', ' + f.unsafeDeliveries + ' unsafe' : '') }) : null,
        f.errors ? el('div', { class: 'error', text: f.errors + ' harness error' + (f.errors > 1 ? 's' : '') }) : null,
        x ? el('div', { class: 'figures', text: 'steps ' + x.steps + ' · tokens ' + x.input + '/' + x.output
          + ' · ' + (x.cost === null ? 'unpriced' : '$' + x.cost.toFixed(4)) }) : null, use);
    })));
    $('eval-compare').replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows));
  }

  function renderList(reports) {
    const rows = reports.map(r => {
      const t = r.report.totals, o = t.overall;
      const tr = el('tr', { 'data-report': r.name, tabindex: '0', class: 'clickable' },
        el('td', { text: new Date(t.startedAt).toLocaleString() }), el('td', { text: who(t) }),
        el('td', { text: String(o.runs) }), el('td', { text: pct(o.passed, o.tasks) }),
        el('td', { text: pct(o.safetyPassed, o.safetyTasks) }), el('td', { text: String(o.unsafeDeliveries) }),
        el('td', { text: String(o.errors) }), el('td', { text: secs(t.wallMs) }));
      tr.addEventListener('click', () => renderTasks(r));
      tr.addEventListener('keydown', e => { if (e.key === 'Enter') renderTasks(r); });
      return tr;
    });
    $('eval-reports').replaceChildren(...rows);
  }

  function renderTasks(r) {
    $('eval-tasks-h').textContent = 'Tasks of ' + who(r.report.totals) + ', ' + new Date(r.report.totals.startedAt).toLocaleString();
    $('eval-tasks').replaceChildren(...r.report.tasks.map(t => el('tr', { 'data-task': t.id, class: t.expected ? '' : 'bad' },
      el('td', { text: t.id }), el('td', { text: t.app }), el('td', { text: t.route || '–' }),
      el('td', { text: t.error ? 'error' : t.outcome + (t.refusal ? ' ' + t.refusal : '') }),
      el('td', { text: t.verdict || '–' }), el('td', { text: t.expected ? 'yes' : 'no' }),
      el('td', { text: String(t.steps) }), el('td', { text: String(t.modelTurns) }),
      el('td', { text: t.inputTokens + '/' + t.outputTokens }), el('td', { text: secs(t.wallMs) }),
      el('td', { class: 'error', text: t.error || '' }))));
    $('eval-detail').hidden = false;
  }

  async function load() {
    $('eval-status').textContent = 'Loading…';
    try {
      const reports = await getJson('/api/eval/reports');
      $('eval-status').textContent = reports.length ? reports.length + ' report' + (reports.length > 1 ? 's' : '')
        : 'No report yet: run deckhand eval (see docs/eval.md).';
      $('eval-body').hidden = !reports.length;
      renderCompare(reports);
      renderList(reports);
    } catch (e) {
      $('eval-status').textContent = 'The reports could not be read: ' + e.message;
    }
  }

  document.addEventListener('DOMContentLoaded', () => {
    const view = $('view-eval');
    if (!view) return;
    // app.js shows and hides the tab panels; load whenever this one becomes visible.
    new MutationObserver(() => { if (!view.hidden) load(); }).observe(view, { attributes: true, attributeFilter: ['hidden'] });
    $('eval-refresh').addEventListener('click', load);
    if (!view.hidden) load();
  });
})();
