// Loaded on every page of the book: when the page holds a board
// (div.shibumi-board), load the board's code (three.js and the engine in a
// worker) from the site's board/ folder; other pages load nothing more.
(function () {
  const script = document.currentScript;
  function start() {
    if (!document.querySelector("div.shibumi-board")) return;
    const url = new URL("../board/board.js", script.src).href;
    import(url).then((board) => board.mountAll()).catch((error) => {
      console.error("The board could not load:", error);
      for (const element of document.querySelectorAll("div.shibumi-board")) {
        element.textContent = "The board could not load. It needs the book served over " +
          "HTTP (make serve), not opened as a file.";
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
