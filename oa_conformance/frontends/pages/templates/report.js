/* The report page's matrix, drawn from the JSON in #report-data (report_page.page_data, MATRIX):
     runs     each run's column name          v        every case's verdict codes, run after run
     codes    a code per verdict, in order    fx       fixtures in order: [capability, folder, file's stem, case count]
     classes / symbols / verdicts             names    each case's name (an index into n), -1 for a fixture's one case
     severity the codes, most severe first    ids      case index -> its id, where it is not <capability>/<stem>[name]
     good/bad the codes of diff's GOOD / BAD  caps, folders, n  the tables the indexes above point into
   and what a case opens to from #report-details, parsed when a case is first opened:
     d        case index -> per run [run, entry, findings, notes] or [run, same as run]
     s, paths, entries  the tables d's indexes point into (strings, [shown, link], expectations entries)
     cov      case index -> [statement ids it proves, it checks, it only cites]; statements: id -> its text
     bases    per run, what comes before a fixture's path in its links: a finding's path -2 - k is the
              case's own fixture after base k, -1 no file, else an index into paths ([shown, link])
   Only the rows near the view are drawn (ROWS at a time, more as the table is scrolled), and a case's
   findings only when it is opened. The filters' state is the URL's fragment: a view is a link. */
(() => {
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("report-data").textContent);
  let detailTables = null;  // #report-details, parsed when a case is first opened
  const tables = () => detailTables ??= JSON.parse($("report-details").textContent);
  const ROWS = 150;  // rows drawn at a time: a few screens
  const RUNS = data.runs.length, CASES = data.names.length;
  const v = data.v;
  const good = new Set(data.good), bad = new Set(data.bad);
  const codeIndex = Object.fromEntries(Array.from(data.codes, (code, i) => [code, i]));
  const codeOfClass = Object.fromEntries(data.classes.map((css, i) => [css, data.codes[i]]));
  const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  // Each case's fixture; its id when first asked for, and lower-cased ones when the text filter first needs them.
  const fixtureOf = new Int32Array(CASES), fixtureStart = new Int32Array(data.fx.length);
  let at = 0;
  data.fx.forEach(([, , , count], f) => {
    fixtureStart[f] = at;
    fixtureOf.fill(f, at, at + count);
    at += count;
  });
  const idOf = (i) => {
    const [cap, , file] = data.fx[fixtureOf[i]], name = data.names[i];
    const prefix = `${data.caps[cap]}/${file}`;
    return data.ids[i] ?? (name === -1 ? prefix : `${prefix}[${data.n[name]}]`);
  };
  let lowerIds = null;
  const single = (f) => data.fx[f][3] === 1 && data.names[fixtureStart[f]] === -1;  // a fixture that is one case

  // A change against the baseline, per cell and per case: 0 none, 1 changed, 2 better, 4 worse.
  const direction = (from, to) => from === to ? 0 : good.has(from) && bad.has(to) ? 4 : bad.has(from) && good.has(to) ? 2 : 1;
  const MARKS = { 1: [" ch", "Δ", "changed from"], 2: [" be", "▲", "better than"], 4: [" wo", "▼", "worse than"] };
  let base = 0;
  const change = new Uint8Array(CASES);
  function compare() {
    let changed = 0, worse = 0, better = 0;
    for (let i = 0; i < CASES; i += 1) {
      const from = v[i * RUNS + base];
      let bits = 0;
      for (let r = 0; r < RUNS; r += 1) bits |= direction(from, v[i * RUNS + r]);
      change[i] = bits;
      changed += bits !== 0; worse += (bits & 4) !== 0; better += (bits & 2) !== 0;
    }
    $("changed-count").textContent = changed;
    $("worse-count").textContent = worse;
    $("better-count").textContent = better;
    $("base-name").textContent = `${base + 1} · ${data.runs[base]}`;
    for (const th of document.querySelectorAll("#matrix thead th[data-run]")) {
      th.classList.toggle("baseline", Number(th.dataset.run) === base + 1);
    }
  }

  // The filters, read from the form and written to the fragment (and back).
  const controls = { base: $("f-base"), cap: $("f-cap"), out: $("f-out"), fail: $("f-fail"), changed: $("f-changed"),
                     reg: $("f-reg"), q: $("f-text") };
  let allOpen = false;
  const opened = new Set();  // fixtures opened by hand while the table is not narrowed
  function readFragment() {
    const params = new URLSearchParams(location.hash.slice(1));
    for (const [key, control] of Object.entries(controls)) {
      const value = params.get(key);
      if (control.type === "checkbox") control.checked = value === "1";
      else if (key === "base") control.value = value && Number(value) >= 1 && Number(value) <= RUNS ? value : "1";
      else if (value === null || Array.from(control.options ?? [{ value }], (o) => o.value).includes(value)) control.value = value ?? "";
    }
    allOpen = params.get("all") === "1";
  }
  function writeFragment() {
    const params = new URLSearchParams();
    for (const [key, control] of Object.entries(controls)) {
      if (control.type === "checkbox") { if (control.checked) params.set(key, "1"); }
      else if (control.value && !(key === "base" && control.value === "1")) params.set(key, control.value.trim());
    }
    if (allOpen) params.set("all", "1");
    const fragment = params.toString();
    if (fragment !== location.hash.slice(1)) history.replaceState(null, "", fragment ? `#${fragment}` : location.pathname + location.search);
  }

  // The rows the filters leave: [fixture, -1] for a fixture's head row, [fixture, case] for a case.
  let rows = [], drawn = 0, shownCases = 0;
  const unfolded = new Set();  // the fixtures whose cases the rows show
  function select() {
    const cap = controls.cap.value ? data.caps.indexOf(controls.cap.value) : -1;
    const out = controls.out.value ? codeOfClass[controls.out.value] : "";
    const fail = controls.fail.value ? Number(controls.fail.value) - 1 : -1;
    const changedOnly = controls.changed.checked, regressions = controls.reg.checked;
    const text = controls.q.value.trim().toLowerCase();
    const narrowed = cap >= 0 || out || fail >= 0 || changedOnly || regressions || text;
    if (text && !lowerIds) lowerIds = Array.from({ length: CASES }, (_, i) => idOf(i).toLowerCase());
    rows = []; shownCases = 0; unfolded.clear();
    for (let f = 0; f < data.fx.length; f += 1) {
      if (cap >= 0 && data.fx[f][0] !== cap) continue;
      const first = fixtureStart[f], count = data.fx[f][3];
      const matched = [];
      for (let i = first; i < first + count; i += 1) {
        if (out && !v.substr(i * RUNS, RUNS).includes(out)) continue;
        if (fail >= 0 && !bad.has(v[i * RUNS + fail])) continue;
        if (changedOnly && !change[i]) continue;
        if (regressions && !(change[i] & 4)) continue;
        if (text && !lowerIds[i].includes(text)) continue;
        matched.push(i);
      }
      if (!matched.length) continue;
      shownCases += matched.length;
      if (single(f)) { rows.push([f, first]); continue; }
      rows.push([f, -1]);
      if (narrowed || allOpen || opened.has(f)) {
        unfolded.add(f);
        for (const i of matched) rows.push([f, i]);
      }
    }
    $("f-count").textContent = `${shownCases} of ${CASES} cases`;
  }

  function cell(code, css, text, bits) {
    const [markCss, mark, said] = MARKS[bits] ?? ["", "", ""];
    return `<td class="v ${css}${markCss}"${said ? ` title="${said} run ${base + 1}"` : ""}>${text}${mark ? `<i>${mark}</i>` : ""}</td>`;
  }
  function caseRow(f, i) {
    const whole = single(f);
    const id = idOf(i), label = whole ? id : data.n[data.names[i]];
    let html = `<tr class="case${whole ? " fx fs" : ""}${change[i] ? " ch" : ""}" id="${esc(id)}" data-i="${i}"><th scope="row">`;
    html += `<details><summary>${esc(label)}</summary></details></th>`;
    const from = v[i * RUNS + base];
    for (let r = 0; r < RUNS; r += 1) {
      const code = v[i * RUNS + r], k = codeIndex[code];
      html += cell(code, data.classes[k], data.symbols[k], r === base ? 0 : direction(from, code));
    }
    return html + "</tr>";
  }
  function headRow(f) {
    const [cap, , file, count] = data.fx[f], first = fixtureStart[f];
    const open = unfolded.has(f);
    let html = `<tr class="fh fs" data-f="${f}"><th scope="rowgroup"><button type="button" class="tg" aria-expanded="${open}" `
      + `aria-label="${open ? "hide" : "show"} the cases">${open ? "▾" : "▸"}</button>${esc(data.caps[cap])}/${esc(file)} `
      + `<small>${count} case${count === 1 ? "" : "s"}</small></th>`;
    for (let r = 0; r < RUNS; r += 1) {
      const counts = {};
      let bits = 0;
      for (let i = first; i < first + count; i += 1) {
        const code = v[i * RUNS + r];
        counts[code] = (counts[code] || 0) + 1;
        if (r !== base) bits |= direction(v[i * RUNS + base], code);
      }
      const worst = Array.from(data.severity).find((code) => counts[code]);
      const text = Array.from(data.severity).filter((code) => counts[code]).map((code) => `${counts[code]}\u2009${data.symbols[codeIndex[code]]}`).join("  ");
      html += cell(worst, data.classes[codeIndex[worst]], text, bits & 4 ? 4 : bits & 2 ? 2 : bits);
    }
    return html + "</tr>";
  }
  const body = $("rows");
  function drawMore() {
    const end = Math.min(rows.length, drawn + ROWS);
    let html = "";
    for (let n = drawn; n < end; n += 1) html += rows[n][1] < 0 ? headRow(rows[n][0]) : caseRow(rows[n][0], rows[n][1]);
    body.insertAdjacentHTML("beforeend", html);
    drawn = end;
    $("more").hidden = drawn >= rows.length;
    $("more-button").textContent = `show ${Math.min(ROWS, rows.length - drawn)} more rows (${rows.length - drawn} left)`;
  }
  function draw() {
    body.textContent = "";
    drawn = 0;
    drawMore();
  }
  function apply() {
    select();
    draw();
    writeFragment();
  }

  // What one case's row opens to: each run's verdict, expectations entry, findings and notes; the statements it proves.
  function details(i) {
    const extra = tables();
    let html = "";
    const byRun = new Map((extra.d[i] || []).map((entry) => [entry[0], entry]));
    for (let r = 0; r < RUNS; r += 1) {
      const k = codeIndex[v[i * RUNS + r]], entry = byRun.get(r);
      html += `<h4>run ${r + 1} · ${esc(data.verdicts[k])}</h4>`;
      if (!entry) continue;
      if (entry.length === 2) { html += `<p class="muted">as in run ${entry[1] + 1}</p>`; continue; }
      const [, expectation, findings, notes] = entry;
      if (expectation >= 0) {
        const e = extra.entries[expectation];
        html += `<p class="exp">expectations entry${e.location ? ` <a href="${esc(e.href)}"><code>${esc(e.location)}</code></a>` : ""}: outcome ${esc(e.outcome ?? "")}`
          + `${e.kind ? ` [${esc(e.kind)}]` : ""}${e.runtime ? `, runtime ${esc(e.runtime)}` : ""}${e.checks ? `, checks ${esc(e.checks.join(", "))}` : ""}<br>${esc(e.reason ?? "")}</p>`;
      }
      if (findings.length) {
        html += "<ul>" + findings.map(([path, line, message]) => {
          if (path === -1) return `<li>${esc(extra.s[message])}</li>`;
          const fixture = `${data.folders[data.fx[fixtureOf[i]][1]]}/${data.fx[fixtureOf[i]][2]}.yaml`;
          const [shown, href] = path <= -2 ? [fixture, extra.bases[r][-2 - path] + fixture] : extra.paths[path];
          return `<li><a class="loc" href="${esc(href)}"><code>${esc(shown)}${line ? ":" + esc(line) : ""}</code></a> ${esc(extra.s[message])}</li>`;
        }).join("") + "</ul>";
      }
      if (notes.length) html += "<ul>" + notes.map((note) => `<li>note: ${esc(extra.s[note])}</li>`).join("") + "</ul>";
    }
    const coverage = extra.cov[i];
    if (coverage) {
      const links = (list) => list.map((id) => `<a class="st" href="${esc(extra.coverage_page || "")}#st-${esc(id)}" title="${esc(extra.statements[id] || "")}"><code>${esc(id)}</code></a>`).join(", ");
      html += `<h4>spec statements</h4>`;
      ["proves", "checks", "cites"].forEach((verb, k) => { if (coverage[k].length) html += `<p class="cov">${verb} ${links(coverage[k])}</p>`; });
    }
    return `<div class="det">${html}</div>`;
  }
  body.addEventListener("toggle", (event) => {
    const element = event.target;
    if (element.tagName === "DETAILS" && element.open && !element.dataset.drawn) {
      element.dataset.drawn = "1";
      element.insertAdjacentHTML("beforeend", details(Number(element.closest("tr").dataset.i)));
    }
  }, true);  // toggle does not bubble
  body.addEventListener("click", (event) => {
    const button = event.target.closest("button.tg");
    if (!button) return;
    const f = Number(button.closest("tr").dataset.f);
    if (opened.has(f)) opened.delete(f); else opened.add(f);
    select();
    draw();
  });

  const form = $("filters");
  form.hidden = false;
  $("no-script").hidden = true;
  $("matrix").hidden = false;
  $("change-counts").hidden = RUNS < 2;
  form.addEventListener("input", (event) => {
    opened.clear();
    if (event.target === controls.base) { base = Number(controls.base.value) - 1; compare(); }
    apply();
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  $("f-open").addEventListener("click", () => { allOpen = !allOpen; opened.clear(); apply(); label(); });
  $("more-button").addEventListener("click", drawMore);
  const label = () => { $("f-open").textContent = allOpen ? "fold every fixture" : "expand every fixture"; };
  new IntersectionObserver((seen) => { if (seen.some((e) => e.isIntersecting) && drawn < rows.length) drawMore(); }, { rootMargin: "600px" })
    .observe($("more"));
  function restore() {
    readFragment();
    base = Number(controls.base.value) - 1;
    label();
    compare();
    select();
    draw();
  }
  window.addEventListener("hashchange", restore);  // a link to another view of this page, pasted or followed
  restore();
})();
