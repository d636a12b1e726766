// The page's side of the engine: one Web Worker for every board of the page
// (worker.js runs the Python engine there).  `engine().request(op, args)` sends a
// request and resolves with the reply; replies come back in the order asked.
let shared = null;

class EngineClient {
  constructor() {
    // The page's loader (_static/shibumi-boards.js) may have started it already.
    this.worker = (typeof window !== "undefined" && window.shibumiWorker)
      || new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    this.pending = new Map();
    this.next = 1;
    // milliseconds the engine took to start, once known
    this.startup = (typeof window !== "undefined" && window.shibumiEngineStartup && window.shibumiEngineStartup.started) || null;
    this.worker.onmessage = (event) => {
      const { id, reply } = event.data;
      if (id === 0) { this.startup = reply.started; return; }
      const done = this.pending.get(id);
      if (done) { this.pending.delete(id); done(reply); }
    };
    this.worker.onerror = (event) => {
      const message = `The engine could not start: ${event.message || "a worker error"}`;
      for (const done of this.pending.values()) done({ error: message });
      this.pending.clear();
    };
  }

  request(op, args = {}) {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ id, op, args });
    });
  }
}

export function engine() {
  if (!shared) shared = new EngineClient();
  return shared;
}
