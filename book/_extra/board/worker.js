// The engine of the book's boards, in a Web Worker: CPython (Pyodide) runs the
// package `shibumi` unchanged, so the page never freezes while the AI thinks.
// Messages in: {id, op, args}; out: {id, reply} where reply is the JSON answer of
// shibumi.webboard.handle (a board's view, or {error}), or {id, reply: {error}} when
// the engine could not start.  Requests are answered one at a time, in order.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const here = (path) => new URL(path, import.meta.url).href;

async function start() {
  const started = performance.now();
  const pyodide = await loadPyodide({ indexURL: here("../pyodide/") });
  const zip = await fetch(here("./shibumi.zip"));
  if (!zip.ok) throw new Error(`the engine (shibumi.zip) did not load: HTTP ${zip.status}`);
  pyodide.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
  const handle = pyodide.pyimport("shibumi.webboard").handle;
  self.postMessage({ id: 0, reply: { started: performance.now() - started } });
  return handle;
}

const engine = start();
let queue = Promise.resolve();

self.onmessage = (event) => {
  const { id, op, args } = event.data;
  queue = queue.then(async () => {
    let reply;
    try {
      const handle = await engine;
      reply = JSON.parse(handle(op, JSON.stringify(args || {})));
    } catch (error) {
      reply = { error: `The engine failed: ${error && error.message ? error.message : error}` };
    }
    self.postMessage({ id, reply });
  });
};
