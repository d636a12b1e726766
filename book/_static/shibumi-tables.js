// The table of games on the book's front page (table.shibumi-games): click a
// column's heading to sort by it (again to reverse), type in the box to keep the
// rows that mention a word, or pick a family.  Without JavaScript the table is
// simply shown whole.
(function () {
  function text(cell) { return cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent; }

  function compare(a, b) {
    const x = Number(a), y = Number(b);
    if (a !== "" && b !== "" && !Number.isNaN(x) && !Number.isNaN(y)) return x - y;
    return a.localeCompare(b);
  }

  function enhance(table) {
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const bar = document.createElement("div");
    bar.className = "shibumi-games-bar";
    const search = document.createElement("input");
    search.type = "search";
    search.placeholder = "Filter: a word, a designer, 'chance'…";
    search.setAttribute("aria-label", "Keep the games whose row mentions this");
    const family = document.createElement("select");
    family.setAttribute("aria-label", "Family");
    const families = [...new Set(rows.map((r) => text(r.cells[1])))];
    for (const name of ["Every family", ...families]) {
      const option = document.createElement("option");
      option.value = name === "Every family" ? "" : name;
      option.textContent = name;
      family.append(option);
    }
    const count = document.createElement("span");
    count.className = "shibumi-games-count";
    count.setAttribute("aria-live", "polite");
    bar.append(search, family, count);
    table.before(bar);

    function filter() {
      const word = search.value.trim().toLowerCase();
      let shown = 0;
      for (const row of rows) {
        const keep = (!family.value || text(row.cells[1]) === family.value)
          && (!word || row.textContent.toLowerCase().includes(word));
        row.hidden = !keep;
        shown += keep;
      }
      count.textContent = `${shown} of ${rows.length} games`;
    }
    search.addEventListener("input", filter);
    family.addEventListener("change", filter);
    filter();

    Array.from(table.tHead.rows[0].cells).forEach((th, column) => {
      th.tabIndex = 0;
      th.classList.add("shibumi-sortable");
      th.title = "Sort by this column";
      const sort = () => {
        const up = th.getAttribute("aria-sort") !== "ascending";
        for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
        th.setAttribute("aria-sort", up ? "ascending" : "descending");
        rows.sort((a, b) => compare(text(a.cells[column]), text(b.cells[column])) * (up ? 1 : -1));
        body.append(...rows);
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(); }
      });
    });
  }

  function start() { document.querySelectorAll("table.shibumi-games").forEach(enhance); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
