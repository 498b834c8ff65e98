/* The report page's filters. Without scripts the matrix is a plain table with every case shown;
   here a fixture's cases fold under its row until it is opened or a filter narrows the table. */
(() => {
  const $ = (id) => document.getElementById(id);
  const form = $("filters");
  form.hidden = false;
  const groups = Array.from(document.querySelectorAll("#matrix > tbody"), (body) => {
    const rows = Array.from(body.rows);
    const head = rows[0].classList.contains("fh") ? rows[0] : null;
    const cases = rows.filter((row) => row.classList.contains("case")).map((row) => ({
      row,
      id: row.id.toLowerCase(),
      changed: row.classList.contains("ch"),
      verdicts: new Set(Array.from(row.cells).slice(1).map((cell) => cell.classList[1])),
    }));
    return { body, head, cases, capability: body.dataset.cap, open: null, button: null };
  });
  for (const group of groups) {
    if (!group.head) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tg";
    button.addEventListener("click", () => { group.open = !group.button.open; apply(); });
    group.head.cells[0].prepend(button);
    group.button = button;
  }
  let allOpen = false;
  function apply() {
    const capability = $("f-cap").value, outcome = $("f-out").value, changedOnly = $("f-changed").checked;
    const text = $("f-text").value.trim().toLowerCase();
    const narrowed = Boolean(capability || outcome || changedOnly || text);
    let shown = 0, total = 0;
    for (const group of groups) {
      const open = group.open ?? (narrowed || allOpen);
      let any = false;
      for (const item of group.cases) {
        total += 1;
        const match = (!capability || group.capability === capability) && (!outcome || item.verdicts.has(outcome))
          && (!changedOnly || item.changed) && (!text || item.id.includes(text));
        if (match) { any = true; shown += 1; }
        item.row.hidden = !(match && (!group.head || open));
      }
      group.body.hidden = !any;
      if (group.button) {
        group.button.open = open;
        group.button.textContent = open ? "▾" : "▸";
        group.button.setAttribute("aria-expanded", String(open));
        group.button.setAttribute("aria-label", (open ? "hide" : "show") + " the cases");
      }
    }
    $("f-count").textContent = `${shown} of ${total} cases`;
  }
  form.addEventListener("input", () => { for (const group of groups) group.open = null; apply(); });
  form.addEventListener("submit", (event) => event.preventDefault());
  $("f-open").addEventListener("click", () => {
    allOpen = !allOpen;
    for (const group of groups) group.open = null;
    $("f-open").textContent = allOpen ? "fold every fixture" : "expand every fixture";
    apply();
  });
  apply();
  document.documentElement.classList.remove("folding");  // the rows' own hidden state rules from here on
})();
