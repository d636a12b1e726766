// Loaded on every page of the book.  When the page holds a board
// (div.shibumi-board), it starts the board's engine (a Web Worker running the
// Python engine under Pyodide, the slowest part) as soon as the parser meets the
// first board, then loads the board's drawing code (three.js) from the site's
// board/ folder.  Pages without a board load nothing more.
(function () {
  const script = document.currentScript;
  const here = (path) => new URL(path, script.src).href;

  function startEngine() {
    if (window.shibumiWorker) return;
    const worker = new Worker(here("../board/worker.js"), { type: "module" });
    window.shibumiWorker = worker;
    worker.addEventListener("message", (event) => {      // engine.js takes over later
      if (event.data && event.data.id === 0) window.shibumiEngineStartup = event.data.reply;
    });
  }

  function mount() {
    if (!document.querySelector("div.shibumi-board")) return;
    startEngine();
    import(here("../board/board.js")).then((board) => board.mountAll()).catch((error) => {
      console.error("The board could not load:", error);
      for (const element of document.querySelectorAll("div.shibumi-board")) {
        element.textContent = "The board could not load. It needs the book served over " +
          "HTTP (make serve), not opened as a file.";
      }
    });
  }

  if (document.readyState === "loading") {
    const watch = new MutationObserver(() => {
      if (document.querySelector("div.shibumi-board")) {
        watch.disconnect();
        startEngine();
      }
    });
    watch.observe(document.documentElement, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", () => { watch.disconnect(); mount(); });
  } else {
    mount();
  }
})();
