/* The coverage map's filters: a statement's level, status, or words; a section with none left folds. */
(() => {
  const $ = (id) => document.getElementById(id);
  const form = $("filters");
  form.hidden = false;
  const items = Array.from(document.querySelectorAll("details.st"), (element) => ({
    element,
    level: element.dataset.level,
    status: element.querySelector("summary").classList[1],
    text: element.textContent.toLowerCase(),
  }));
  function apply() {
    const level = $("f-level").value, status = $("f-status").value, text = $("f-text").value.trim().toLowerCase();
    let shown = 0;
    for (const item of items) {
      const match = (!level || item.level === level) && (!status || item.status === status) && (!text || item.text.includes(text));
      item.element.hidden = !match;
      shown += match;
    }
    for (const row of document.querySelectorAll("table.map tbody tr")) {
      row.hidden = !row.querySelector("details.st:not([hidden])");
    }
    $("f-count").textContent = `${shown} of ${items.length} statements`;
  }
  form.addEventListener("input", apply);
  form.addEventListener("submit", (event) => event.preventDefault());
  apply();
})();
