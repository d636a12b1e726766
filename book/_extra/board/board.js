// The in-page Shibumi board: a three.js picture of the pyramid plus a panel,
// talking to the engine (Python under Pyodide in a Web Worker) through the
// shared client of ./engine.js.  The engine owns the rules; this module only
// draws the views it returns and sends the reader's clicks back.
//
//   import { mountAll } from "./board.js";  mountAll();
//
// turns every <div class="shibumi-board" data-game="spline"> into a board.
// See Board below for what browser tests use.

import * as THREE from "./three.module.js";
import { OrbitControls } from "./OrbitControls.js";
import { engine } from "./engine.js";

const BACKGROUND = "#eeeae2";
const WOOD = "#d4ad6e";
const HOLE = "#4a3318";
const BALL_COLOURS = { W: "#f1ede2", B: "#1c1c1c", R: "#c3261b" };
const GRID_LIGHT = "#e2c48e";
const GRID_DARK = "#cfa96c";
const GRID_FRAME = "#8a6434";
const CHASM = "#2a1d10";
const GHOST = "#8f8f8f";
const LABEL = "#6b5533";

// The marks' colours: a copy of MARK_COLOURS in shibumi/views/marks.py, the one
// place they are defined (the book's flat and 3D pictures use that module, and
// tests/test_marks.py checks that this copy agrees).  Change them there first.
const MARK_COLOURS = {
  last: "#00b3e6",
  plus: "#17a845",
  minus: "#8a4fe0",
  cross: "#ff7f0e",
  dot: "#e0339b",
  playable: "#17a845",
  selected: "#e0339b",
  target: "#17a845",
  winning: "#ffc400",
  hover: "#ffe14d",
  haloDark: "#1a1a1a",
  haloLight: "#ffffff",
};
const PLAYABLE = MARK_COLOURS.playable;
const LAST = MARK_COLOURS.last;
const SELECTED = MARK_COLOURS.selected;
const TARGET = MARK_COLOURS.target;
const HOVER = MARK_COLOURS.hover;
const WIN = MARK_COLOURS.winning;
// arrows: the last move's in its colour, moves on offer in the colour of targets
const ARROW_COLOURS = { last: LAST, option: TARGET };
// Marks are drawn over the balls (no depth test), late, so no ball hides them.
const MARK_ORDER = 10;

const FOV = 38;
const EYE = new THREE.Vector3(0, 5.9, 6.9);
const LOOK_AT = new THREE.Vector3(0, 0.6, 0);
const TOP_EYE = new THREE.Vector3(0, 8.9, 0.001);
const TOP_LOOK_AT = new THREE.Vector3(0, 0, 0);
const DRAG_PX = 5;          // a pointer that moved more than this turned the view
const AI_PAUSE_MS = 300;    // between two AI moves in a row, so they can be followed
const NOTE_MS = 2500;
// Rings are drawn in a second pass, hidden by balls but not by the board (so a
// ring around a ball on the board is not cut by the board it stands on).
const RING_LAYER = 1;
const BALL_DEPTH_LAYER = 2;

// Defaults until "open" sends the real geometry.
const DEFAULT_GEOMETRY = {
  points: [], board_size: 4.5, board_thickness: 0.3, ball_radius: 0.5,
  hole_radius: 0.3, files: [], ranks: [], squares: [],
};

const VERSIONED = new Set(["click", "choose", "ai"]);
let client = null;          // the engine's shared client, made by the first board
let counter = 0;

/** Every Board mounted on the page (tests look here). */
export const boards = [];
if (typeof window !== "undefined") {
  window.shibumiBoards = window.shibumiBoards || boards;
}

function getClient() {
  if (client === null) client = Promise.resolve().then(() => engine());
  return client;
}

function injectCss() {
  const href = new URL("./board.css", import.meta.url).href;
  for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
    if (link.href === href) return;
  }
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.appendChild(link);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// -- sprite textures (drawn once, shared by every board) --------------------

const textures = new Map();

function canvasTexture(key, size, draw) {
  if (textures.has(key)) return textures.get(key);
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  draw(canvas.getContext("2d"), size);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 4;
  textures.set(key, texture);
  return texture;
}

/** A ring (seen face on) of outer radius 0.5 and the given width, as fractions of the sprite. */
function ringTexture(colour, width, dashed = false) {
  return canvasTexture(`ring ${colour} ${width} ${dashed}`, 256, (g, s) => {
    const r = s * (0.5 - width / 2) - 2;
    g.lineWidth = s * width;
    g.strokeStyle = MARK_COLOURS.haloDark;    // the halo: a dark rim keeps light rings readable
    g.globalAlpha = 0.55;
    g.beginPath();
    g.arc(s / 2, s / 2, r, 0, 2 * Math.PI);
    g.stroke();
    g.globalAlpha = 1;
    g.lineWidth = s * width * 0.72;
    g.strokeStyle = colour;
    if (dashed) g.setLineDash([s * 0.11, s * 0.07]);
    g.beginPath();
    g.arc(s / 2, s / 2, r, 0, 2 * Math.PI);
    g.stroke();
  });
}

function glowTexture(colour) {
  return canvasTexture(`glow ${colour}`, 256, (g, s) => {
    const c = new THREE.Color(colour);
    const rgb = `${Math.round(c.r * 255)},${Math.round(c.g * 255)},${Math.round(c.b * 255)}`;
    const grad = g.createRadialGradient(s / 2, s / 2, s * 0.2, s / 2, s / 2, s / 2);
    grad.addColorStop(0, `rgba(${rgb},1)`);
    grad.addColorStop(0.45, `rgba(${rgb},0.85)`);
    grad.addColorStop(1, `rgba(${rgb},0)`);
    g.fillStyle = grad;
    g.fillRect(0, 0, s, s);
  });
}

function dotTexture(colour) {
  return canvasTexture(`dot ${colour}`, 128, (g, s) => {
    g.fillStyle = MARK_COLOURS.haloLight;
    g.beginPath();
    g.arc(s / 2, s / 2, s * 0.46, 0, 2 * Math.PI);
    g.fill();
    g.fillStyle = colour;
    g.beginPath();
    g.arc(s / 2, s / 2, s * 0.36, 0, 2 * Math.PI);
    g.fill();
  });
}

function labelTexture(text) {
  return canvasTexture(`label ${text}`, 128, (g, s) => {
    g.font = `bold ${Math.round(s * 0.62)}px system-ui, -apple-system, "Segoe UI", Arial, sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillStyle = LABEL;
    g.fillText(text, s / 2, s / 2 + s * 0.03);
  });
}

function spriteMaterial(map, { depthTest = true, opacity = 1 } = {}) {
  return new THREE.SpriteMaterial({
    map, transparent: true, depthWrite: false, depthTest, opacity,
  });
}

// -- mounting -----------------------------------------------------------------

/** Mount a Board on every div.shibumi-board under root that has none yet. */
export function mountAll(root = document) {
  injectCss();
  const made = [];
  for (const div of root.querySelectorAll("div.shibumi-board")) {
    if (div.shibumiBoard) continue;
    made.push(new Board(div));
  }
  return made;
}

/**
 * One board: a canvas with the pyramid and a panel, bound to one engine board id.
 *
 * For browser tests: `ready`, `view`, `busy`, `project(point)`, `idle()`, `send(op, args)`.
 */
export class Board {
  constructor(element) {
    injectCss();
    this.element = element;
    element.shibumiBoard = this;
    this.id = element.id ? `board-${element.id}` : `board-${++counter}`;
    while (boards.some((b) => b.id === this.id)) this.id = `board-${++counter}`;
    this.view = null;
    this.geometry = null;
    this.games = [];
    this.choose = element.dataset.choose === "1";
    this._busy = false;
    this._thinking = false;
    this._pending = null;
    this._deferred = [];
    this._topView = false;
    this._hover = null;
    this._down = null;
    this._localMessage = null;
    this._noteTimer = 0;
    this._renderQueued = false;
    this.ready = new Promise((resolve, reject) => {
      this._resolveReady = resolve;
      this._rejectReady = reject;
    });
    this.ready.catch(() => {});     // a failed open is shown on the board itself

    this._buildDom();
    this._buildScene();
    boards.push(this);
    if (typeof window !== "undefined" && window.shibumiBoards !== boards
        && !window.shibumiBoards.includes(this)) window.shibumiBoards.push(this);

    this._boardIndex = document.querySelectorAll("div.shibumi-board").length
      ? Array.from(document.querySelectorAll("div.shibumi-board")).indexOf(element) : 0;
    const args = this._openArgs(element.dataset.game || "spline");
    if (element.dataset.seats) {
      args.seats = element.dataset.seats.split(",").map((s) => s.trim()).filter(Boolean);
    }
    this._open(args).then((reply) => {
      if (!this.view) {
        const message = (reply && reply.error) || "The engine did not answer.";
        this.dom.loading.textContent = "This game could not be opened.";
        this._rejectReady(new Error(message));
      }
    });
  }

  // -- the game kept in the browser ---------------------------------------------

  /** Where this board keeps its game: one key per page, board and game. */
  _storageKey(module) {
    const start = this.element.dataset.record || "";
    return `shibumi-board:${location.pathname}:${this._boardIndex}:${module}:${start}`;
  }

  /** "open" arguments for a game, with the game saved in this browser if any. */
  _openArgs(module) {
    const args = { game: module };
    let saved = null;
    try { saved = localStorage.getItem(this._storageKey(module)); } catch (e) { /* private mode */ }
    if (saved !== null) args.record = saved;
    else if (this.element.dataset.record) args.record = this.element.dataset.record;
    return args;
  }

  /** Open a game; a saved record the engine refuses (rules changed) is dropped. */
  async _open(args) {
    const reply = await this.send("open", args);
    if (reply && reply.error && args.record !== undefined
        && args.record !== this.element.dataset.record) {
      try { localStorage.removeItem(this._storageKey(args.game)); } catch (e) { /* ignore */ }
      const fresh = { ...args };
      delete fresh.record;
      if (this.element.dataset.record) fresh.record = this.element.dataset.record;
      return this.send("open", fresh);
    }
    return reply;
  }

  /** Keep the game's record after every change, so a closed page loses nothing. */
  _save() {
    const v = this.view;
    if (!v || !v.game || !v.game.module) return;
    try {
      const key = this._storageKey(v.game.module);
      if (v.record === (this.element.dataset.record || "")) localStorage.removeItem(key);
      else localStorage.setItem(key, v.record);
    } catch (e) { /* storage full or disabled: play on without it */ }
  }

  /** True while a request is pending or the AI thinks. */
  get busy() { return this._busy; }

  // -- the engine ------------------------------------------------------------

  /**
   * Send one op for this board; resolves to the engine's reply (after any AI
   * moves it makes due have been played), or null if the board was busy (then
   * nothing is sent and a "wait" note is shown).  `version` is filled in from
   * the current view for click, choose and ai when it is not given.
   */
  send(op, args = {}) {
    if (this._busy) {
      if (op === "seat" && this._thinking) {
        this._deferred.push([op, args]);
        this._note("The change applies after the AI's move.");
      } else {
        this._waitNote();
      }
      return Promise.resolve(null);
    }
    this._setBusy(true);
    const run = this._run(op, args).finally(() => {
      this._pending = null;
      this._setThinking(false);
      this._setBusy(false);
    });
    this._pending = run;
    return run;
  }

  /** Resolves when no request is pending and no AI move is due. */
  async idle() {
    while (this._pending) {
      try { await this._pending; } catch (e) { /* shown on the board */ }
    }
  }

  async _run(op, args) {
    const reply = await this._request(op, args);
    let previous = op;
    for (;;) {
      while (this._deferred.length) {
        const [dop, dargs] = this._deferred.shift();
        await this._request(dop, dargs);
      }
      const v = this.view;
      if (!v || !v.ai_due || v.cover || !this.element.isConnected) break;
      this._setThinking(true);
      if (previous === "ai") await sleep(AI_PAUSE_MS);
      if (this._deferred.length) continue;
      const r = await this._request("ai", { version: v.version });
      previous = "ai";
      if (!r || r.error) break;
      // An engine that answers without a new version would loop for ever.
      if (this.view.version === v.version) break;
    }
    return reply;
  }

  async _request(op, args) {
    const full = { board: this.id, ...args };
    if (VERSIONED.has(op) && full.version === undefined && this.view) {
      full.version = this.view.version;
    }
    let reply;
    try {
      const c = await getClient();
      reply = await c.request(op, full);
    } catch (e) {
      reply = { error: (e && e.message) || String(e) };
    }
    if (!reply || typeof reply !== "object") reply = { error: "No answer from the engine." };
    if (reply.error) {
      this._localMessage = { text: String(reply.error), error: true };
      this._renderPanel();
      return reply;
    }
    if (reply.games) this.games = reply.games;
    if (reply.geometry) this._setGeometry(reply.geometry);
    if (reply.view) {
      this._localMessage = null;
      this.view = reply.view;
      this._save();
      this._render();
      if (this._resolveReady) {
        this.renderNow();
        this._resolveReady(this);
        this._resolveReady = null;
      }
    }
    return reply;
  }

  _setBusy(busy) {
    this._busy = busy;
    this.element.classList.toggle("sb-is-busy", busy);
    this.element.setAttribute("aria-busy", busy ? "true" : "false");
    if (this.canvas) this.canvas.classList.toggle("busy", busy);
    if (!busy) this._hideNote(true);
  }

  _setThinking(thinking) {
    this._thinking = thinking;
    const v = this.view;
    if (thinking && v) {
      this.dom.thinking.textContent = `${v.ai_player || "The AI"} is thinking…`;
      this.dom.thinking.hidden = false;
    } else {
      this.dom.thinking.hidden = true;
      this.dom.thinking.textContent = "";
    }
  }

  _waitNote() {
    this._note(this._thinking ? "Wait: the AI is thinking."
      : this.view ? "Wait: the engine is busy." : "Wait: the engine is loading.");
  }

  _note(text) {
    const note = this.dom.note;
    note.textContent = text;
    note.hidden = false;
    clearTimeout(this._noteTimer);
    this._noteTimer = setTimeout(() => this._hideNote(), NOTE_MS);
  }

  _hideNote(onlyWaits = false) {
    if (onlyWaits && !this.dom.note.textContent.startsWith("Wait")) return;
    this.dom.note.hidden = true;
    this.dom.note.textContent = "";
  }

  /** A button or control of the UI: does nothing but say "wait" while busy. */
  _ui(op, args = {}) {
    if (this.view && this.view.cover && op !== "reveal") return;
    this.send(op, args);
  }

  // -- the page ----------------------------------------------------------------

  _buildDom() {
    const root = this.element;
    root.classList.add("sb-board");
    root.textContent = "";
    const d = (this.dom = {});
    d.canvas = this.canvas = el("canvas", {
      class: "sb-canvas", role: "img", "aria-label": "Shibumi board (3D view)",
    });
    d.tip = el("div", { class: "sb-tip", role: "tooltip", hidden: true });
    d.loading = el("div", { class: "sb-loading", text: "Loading the engine…" });
    d.stage = el("div", { class: "sb-stage" }, d.canvas, d.tip, d.loading);

    d.gameSelect = null;
    if (this.choose) {
      d.gameSelect = el("select", {
        class: "sb-game-select", "aria-label": "Game",
        onchange: () => this._chooseGame(),
      });
      d.chooser = el("label", { class: "sb-chooser" },
        el("span", { text: "Game " }), d.gameSelect);
    }
    d.title = el("div", { class: "sb-title", role: "heading", "aria-level": "3" });
    d.turn = el("p", { class: "sb-turn", "aria-live": "polite" });
    d.thinking = el("p", { class: "sb-thinking", hidden: true, "aria-live": "polite" });
    d.status = el("ul", { class: "sb-status" });
    d.others = el("div", { class: "sb-others", hidden: true });
    d.message = el("p", { class: "sb-message", "aria-live": "polite" });
    d.note = el("p", { class: "sb-note", role: "status", hidden: true });
    d.result = el("div", { class: "sb-result", role: "status", hidden: true });

    d.undo = el("button", {
      type: "button", class: "sb-button", text: "Undo", "aria-label": "Undo the last move",
      onclick: () => this._ui("undo"),
    });
    d.newGame = el("button", {
      type: "button", class: "sb-button", text: "New game", "aria-label": "Start a new game",
      onclick: () => this._ui("new"),
    });
    d.top = el("button", {
      type: "button", class: "sb-button", text: "Top view", "aria-pressed": "false",
      "aria-label": "Top view", onclick: () => this.toggleTopView(),
    });
    d.values = el("button", {
      type: "button", class: "sb-button", text: "Move values", "aria-pressed": "false",
      hidden: true, title: "This game is solved: show what each move leads to with perfect play",
      "aria-label": "Show the exact value of every move",
      onclick: () => this._ui("values", { show: !(this.view && this.view.values) }),
    });
    d.buttons = el("div", { class: "sb-buttons" }, d.undo, d.newGame, d.top, d.values);

    d.optionsTitle = el("div", { class: "sb-options-title" });
    d.all = el("button", {
      type: "button", class: "sb-button sb-all", text: "Show all moves", hidden: true,
      "aria-label": "Show all moves", onclick: () => this._ui("all"),
    });
    d.optionList = el("ol", { class: "sb-option-list" });
    d.options = el("div", { class: "sb-options" },
      el("div", { class: "sb-options-head" }, d.optionsTitle, d.all), d.optionList);

    d.seats = el("div", { class: "sb-seats" });
    d.history = el("ol", { class: "sb-history-list" });
    d.historyBox = el("div", { class: "sb-history" },
      el("div", { class: "sb-section-title", text: "Moves" }), d.history);

    d.recordText = el("textarea", {
      class: "sb-record-text", readonly: true, rows: "2", "aria-label": "Game record",
    });
    d.copy = el("button", {
      type: "button", class: "sb-button", text: "Copy", "aria-label": "Copy the game record",
      onclick: () => this._copyRecord(),
    });
    d.linkHint = el("p", { class: "sb-link-hint", hidden: true });
    d.record = el("details", { class: "sb-record" },
      el("summary", { text: "Game record" }), d.recordText, d.copy, d.linkHint);

    d.panel = el("div", { class: "sb-panel" },
      d.chooser || null, d.title, d.turn, d.thinking, d.status, d.others, d.message, d.note,
      d.result, d.buttons, d.options, d.seats, d.historyBox, d.record);
    d.main = el("div", { class: "sb-main" }, d.stage, d.panel);

    d.coverText = el("p", { class: "sb-cover-text" });
    d.coverButton = el("button", {
      type: "button", class: "sb-button sb-cover-button", text: "Show",
      "aria-label": "Show the board", onclick: () => this._ui("reveal"),
    });
    d.cover = el("div", { class: "sb-cover", hidden: true },
      el("div", { class: "sb-cover-box" }, d.coverText, d.coverButton));
    root.append(d.main);
    if (root.dataset.caption) {
      root.append(el("p", { class: "sb-caption", text: root.dataset.caption }));
    }
    root.append(d.cover);
    this._renderPanel();
  }

  _chooseGame() {
    const game = this.dom.gameSelect.value;
    if (this._busy) {
      this._waitNote();
      if (this.view) this.dom.gameSelect.value = this.view.game.module;
      return;
    }
    this._open(this._openArgs(game));
  }

  async _copyRecord() {
    const text = this.dom.recordText.value;
    try {
      await navigator.clipboard.writeText(text);
      this._note("Record copied.");
    } catch (e) {
      this.dom.recordText.select();
      this._note("Select the record and copy it.");
    }
  }

  _renderPanel() {
    const d = this.dom;
    const v = this.view;
    if (v && this.renderer) d.loading.hidden = true;

    if (d.gameSelect && this.games.length && d.gameSelect.dataset.filled !== "1") {
      d.gameSelect.textContent = "";
      const groups = new Map();
      for (const [module, name, family] of this.games) {
        const key = family || "";
        if (!groups.has(key)) {
          groups.set(key, key ? el("optgroup", { label: key }) : d.gameSelect);
          if (key) d.gameSelect.append(groups.get(key));
        }
        groups.get(key).append(el("option", { value: module, text: name }));
      }
      d.gameSelect.dataset.filled = "1";
    }
    if (d.gameSelect && v && v.game) {
      const module = v.game.module;
      if (![...d.gameSelect.options].some((o) => o.value === module)) {
        d.gameSelect.append(el("option", { value: module, text: v.game.name || module }));
      }
      d.gameSelect.value = module;
    }

    let message = null;
    let error = false;
    if (this._localMessage) {
      message = this._localMessage.text;
      error = this._localMessage.error;
    } else if (v) {
      message = v.message || null;
      error = !!v.error;
      // the result is shown once, in its own box
      if (message && v.over && v.result && message.includes(v.result)) {
        message = message.replace(v.result, "").trim() || null;
      }
    }
    d.message.textContent = message || "";
    d.message.hidden = !message;
    d.message.classList.toggle("sb-error", error);
    for (const part of [d.buttons, d.options, d.seats, d.historyBox, d.record]) {
      if (!v) part.hidden = true;
    }
    if (!v) return;
    d.buttons.hidden = false;

    d.title.textContent = (v.game && v.game.name) || "";
    this.canvas.setAttribute("aria-label", `${(v.game && v.game.name) || "Shibumi"} board (3D view)`
      + (v.turn ? `: ${v.turn}` : ""));
    const turn = v.over && v.result && v.turn === v.result ? "" : v.turn || "";
    d.turn.textContent = turn;
    d.turn.hidden = !turn;
    d.status.textContent = "";
    for (const line of v.status || []) d.status.append(el("li", { text: line }));
    d.status.hidden = !(v.status && v.status.length);
    this._renderOtherBoards(v.boards || []);

    const showResult = !!(v.over && v.result);
    d.result.hidden = !showResult;
    d.result.textContent = showResult ? v.result : "";

    d.undo.disabled = !v.can_undo;

    // the moves on offer
    const options = v.options || [];
    d.optionsTitle.textContent = v.options_title || (options.length ? "Moves" : "");
    d.all.hidden = !v.narrowed;
    d.optionList.textContent = "";
    const values = v.values || null;
    for (const opt of options) {
      const value = values ? values[String(opt.index)] : undefined;
      const button = el("button", {
        type: "button", class: "sb-option",
        onclick: () => this._ui("choose", { index: opt.index, version: v.version }),
      }, el("span", { class: "sb-option-label", text: opt.label }));
      if (value !== undefined && value !== null) {
        button.append(el("span", { class: "sb-option-value", text: String(value) }));
        button.setAttribute("aria-label", `${opt.label} (${value})`);
      }
      d.optionList.append(el("li", {}, button));
    }
    d.options.hidden = !options.length && !v.narrowed && (v.over || !v.options_title);

    // seats and strength
    d.seats.textContent = "";
    const game = v.game || {};
    const players = game.players || [];
    if (!game.solitaire && players.length) {
      players.forEach((player, i) => {
        const select = el("select", {
          class: "sb-seat", "aria-label": `${player} is played by`,
          onchange: () => {
            const kind = select.value;
            select.value = (v.seats || [])[i] || "human";
            this._ui("seat", { player: i, kind });
          },
        }, el("option", { value: "human", text: "Human" }), el("option", { value: "ai", text: "AI" }));
        select.value = (v.seats || [])[i] || "human";
        d.seats.append(el("label", { class: "sb-field" }, el("span", { text: `${player}: ` }), select));
      });
    }
    if (v.strengths && v.strengths.length) {
      const select = el("select", {
        class: "sb-strength", "aria-label": "AI strength",
        onchange: () => {
          const level = select.value;
          select.value = v.strength;
          this._ui("strength", { level });
        },
      });
      for (const [key, label] of v.strengths) select.append(el("option", { value: key, text: label }));
      select.value = v.strength;
      d.seats.append(el("label", { class: "sb-field" }, el("span", { text: "AI strength: " }), select));
    }
    d.seats.hidden = !d.seats.childElementCount;

    // history, oldest first, numbered by the engine
    d.history.textContent = "";
    for (const item of v.history || []) {
      const li = el("li", { text: item.text });
      if (Number.isInteger(item.number)) li.value = item.number;
      d.history.append(li);
    }
    d.historyBox.hidden = !(v.history && v.history.length);
    d.history.scrollTop = d.history.scrollHeight;

    // The record holds the hidden draws (hands) until the game ends: kept, not shown.
    d.recordText.value = v.record_secret ? "" : v.record || "";
    d.record.hidden = !v.record || v.record_secret;
    d.linkHint.textContent = v.link_hint || "";
    d.linkHint.hidden = !v.link_hint;

    // the pass-the-device cover
    d.cover.hidden = !v.cover;
    d.coverText.textContent = v.cover || "";
    this.element.classList.toggle("sb-covered", !!v.cover);
    if (v.cover && !this._coverShown) {
      this._coverShown = true;
      setTimeout(() => { if (!d.cover.hidden) d.coverButton.focus({ preventScroll: true }); }, 0);
    } else if (!v.cover) {
      this._coverShown = false;
    }
    if (this._thinking) this._setThinking(true);
  }

  // -- the scene ---------------------------------------------------------------

  _buildScene() {
    try {
      this.renderer = new THREE.WebGLRenderer({ canvas: this.canvas, antialias: true });
    } catch (e) {
      this.renderer = null;
      this.dom.loading.textContent = "The 3D view needs WebGL; choose moves from the list.";
      this.dom.stage.classList.add("sb-no-webgl");
      return;
    }
    const renderer = this.renderer;
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    renderer.outputColorSpace = THREE.SRGBColorSpace;

    const scene = (this.scene = new THREE.Scene());
    scene.background = new THREE.Color(BACKGROUND);
    this.depthOnly = new THREE.MeshBasicMaterial({ colorWrite: false });
    // three's lights are physical now: PI times the book's (legacy) intensities.
    scene.add(new THREE.AmbientLight(0xffffff, 0.62 * Math.PI));
    const key = new THREE.DirectionalLight(0xffffff, 0.65 * Math.PI);
    key.position.set(3, 9, 6);
    const fill = new THREE.DirectionalLight(0xffffff, 0.2 * Math.PI);
    fill.position.set(-5, 4, -4);
    scene.add(key, fill);

    this.camera = new THREE.PerspectiveCamera(FOV, 480 / 420, 0.1, 100);
    this.camera.position.copy(EYE);
    this.camera.lookAt(LOOK_AT);

    const controls = (this.controls = new OrbitControls(this.camera, this.canvas));
    controls.target.copy(LOOK_AT);
    controls.enablePan = false;
    controls.enableDamping = false;
    controls.minDistance = 4.5;
    controls.maxDistance = 18;
    controls.minPolarAngle = 0;
    controls.maxPolarAngle = THREE.MathUtils.degToRad(82);
    controls.update();
    controls.addEventListener("change", () => this.requestRender());

    this.boardGroup = new THREE.Group();
    this.ballGroup = new THREE.Group();
    this.markerGroup = new THREE.Group();
    this.overlayGroup = new THREE.Group();
    this.arrowGroup = new THREE.Group();
    this.labelGroup = new THREE.Group();
    scene.add(this.boardGroup, this.ballGroup, this.markerGroup, this.overlayGroup,
      this.arrowGroup, this.labelGroup);
    this._buildSlab(DEFAULT_GEOMETRY);

    this.raycaster = new THREE.Raycaster();
    this._listen();
    this._resize();
    if (typeof ResizeObserver !== "undefined") {
      this._observer = new ResizeObserver(() => this._resize());
      this._observer.observe(this.dom.stage);
    } else {
      window.addEventListener("resize", () => this._resize());
    }
  }

  _buildSlab(g) {
    this.boardGroup.clear();
    if (g.kind === "grid") {
      // a square grid: a frame and one tile a cell, in two wood tones
      const frame = new THREE.Mesh(
        new THREE.BoxGeometry(g.board_size, g.board_thickness, g.board_size),
        new THREE.MeshPhongMaterial({ color: GRID_FRAME, shininess: 15 }));
      frame.position.y = -g.board_thickness / 2 - 0.02;
      this.boardGroup.add(frame);
      const tile = new THREE.BoxGeometry(0.98, 0.04, 0.98);
      const tones = [GRID_DARK, GRID_LIGHT].map((color) =>
        new THREE.MeshPhongMaterial({ color, shininess: 15 }));
      const n = g.size;
      g.points.forEach((p, i) => {
        const m = new THREE.Mesh(tile, tones[(i % n + Math.floor(i / n)) % 2 === 0 ? 0 : 1]);
        m.position.set(p.x, -0.02, p.z);
        this.boardGroup.add(m);
      });
      return;
    }
    const slab = new THREE.Mesh(
      new THREE.BoxGeometry(g.board_size, g.board_thickness, g.board_size),
      new THREE.MeshPhongMaterial({ color: WOOD, shininess: 15 }));
    slab.position.y = -g.board_thickness / 2;
    this.boardGroup.add(slab);
  }

  _setGeometry(g) {
    g = { ...DEFAULT_GEOMETRY, ...g };
    const same = this.geometry && JSON.stringify(this.geometry) === JSON.stringify(g);
    this.geometry = g;
    this.pointIndex = new Map(g.points.map((p, i) => [p.name, i]));
    if (same || !this.renderer) return;
    // a wider board (a 7x7 grid) is seen from proportionally farther away
    this._eyeScale = Math.max(1, g.board_size / DEFAULT_GEOMETRY.board_size);
    this.controls.maxDistance = 18 * this._eyeScale;
    if (!this._topView) {
      this.camera.position.copy(EYE).multiplyScalar(this._eyeScale);
      this.camera.lookAt(this.controls.target);
      this.controls.update();
    }
    this._buildSlab(g);
    const R = g.ball_radius;
    const minY = Math.min(...g.points.map((p) => p.y));
    this.level0 = g.points.map((p) => p.y < minY + 0.01);
    this.centres = g.points.map((p) => new THREE.Vector3(p.x, p.y, p.z));
    // a board marker sits low in its hole; higher ones float where the ball would be
    this.markerCentres = g.points.map((p, i) =>
      new THREE.Vector3(p.x, this.level0[i] ? p.y - 0.2 : p.y, p.z));

    const grid = g.kind === "grid";
    const hole = new THREE.CircleGeometry(g.hole_radius || 0.01, 40);
    const holeMaterial = new THREE.MeshBasicMaterial({ color: HOLE });
    g.points.forEach((p, i) => {
      if (!this.level0[i] || grid) return;
      const m = new THREE.Mesh(hole, holeMaterial);
      m.rotation.x = -Math.PI / 2;
      m.position.set(p.x, 0.01, p.z);
      this.boardGroup.add(m);
    });

    // balls: one mesh per point, shown or hidden (on a grid: a stone, a flat
    // cylinder; a pawn is the same stretched up; a character is a ball on a stone)
    const sphere = grid ? new THREE.CylinderGeometry(R, R, g.stone_height, 40)
      : new THREE.SphereGeometry(R, 40, 28);
    const phong = (color, extra = {}) => new THREE.MeshPhongMaterial({
      color, shininess: 60, specular: 0x444444, ...extra });
    this.materials = {};
    this.winMaterials = {};
    for (const [c, hex] of Object.entries(BALL_COLOURS)) {
      this.materials[c] = phong(hex);
      this.winMaterials[c] = phong(hex, { emissive: new THREE.Color(WIN).multiplyScalar(c === "W" ? 0.12 : c === "R" ? 0.05 : 0.012) });
    }
    this.ghostMaterial = phong(GHOST, { transparent: true, opacity: 0.55, depthWrite: false });
    this.ballGroup.clear();
    this.balls = g.points.map((p, i) => {
      const m = new THREE.Mesh(sphere, this.materials.W);
      m.position.copy(this.centres[i]);
      m.visible = false;
      m.layers.enable(BALL_DEPTH_LAYER);
      this.ballGroup.add(m);
      return m;
    });

    this.characters = [];
    this.chasms = [];
    if (grid) {
      const ball = new THREE.SphereGeometry(g.character_radius, 32, 20);
      const pit = new THREE.BoxGeometry(0.98, 0.05, 0.98);
      const pitMaterial = new THREE.MeshPhongMaterial({ color: CHASM });
      g.points.forEach((p, i) => {
        const c = new THREE.Mesh(ball, this.materials.R);
        c.position.set(p.x, g.stone_height + g.character_radius, p.z);
        c.visible = false;
        this.ballGroup.add(c);
        this.characters.push(c);
        const h = new THREE.Mesh(pit, pitMaterial);
        h.position.set(p.x, 0.005, p.z);
        h.visible = false;
        this.ballGroup.add(h);
        this.chasms.push(h);
      });
    }

    // playable markers
    const markerGeometry = new THREE.SphereGeometry(0.17, 20, 14);
    const markerMaterial = new THREE.MeshPhongMaterial({
      color: PLAYABLE, transparent: true, opacity: 0.8, emissive: 0x0b4a26, shininess: 40 });
    this.markerGroup.clear();
    this.markers = g.points.map((p, i) => {
      const m = new THREE.Mesh(markerGeometry, markerMaterial);
      m.position.copy(this.markerCentres[i]);
      m.visible = false;
      this.markerGroup.add(m);
      return m;
    });

    // invisible pick shapes (not in the scene): a ball, or a generous marker
    const pickMaterial = new THREE.MeshBasicMaterial();
    const ballPick = new THREE.SphereGeometry(R, 16, 12);
    const markerPick = new THREE.SphereGeometry(0.3, 12, 8);
    const pick = (geometry, centre, i) => {
      const m = new THREE.Mesh(geometry, pickMaterial);
      m.position.copy(centre);
      m.userData.point = i;
      m.updateMatrixWorld(true);
      return m;
    };
    this.ballPicks = this.centres.map((c, i) => pick(ballPick, c, i));
    this.emptyPicks = this.markerCentres.map((c, i) => pick(markerPick, c, i));

    // overlay sprites, one per point and kind, made on first use
    this.sprites = { last: [], selected: [], target: [], targetDot: [], win: [], winRing: [] };
    this.overlayGroup.clear();
    this.hoverSprite = new THREE.Sprite(spriteMaterial(ringTexture(HOVER, 0.12), { depthTest: false }));
    this.hoverSprite.renderOrder = 20;
    this.hoverSprite.layers.set(RING_LAYER);
    this.hoverSprite.visible = false;
    this.overlayGroup.add(this.hoverSprite);

    this._buildLabels(g);
  }

  _buildLabels(g) {
    this.labelGroup.clear();
    const edge = g.board_size / 2 + 0.3;
    const size = 0.36;
    const add = (text, x, z) => {
      const s = new THREE.Sprite(spriteMaterial(labelTexture(text)));
      s.scale.set(size, size, 1);
      s.position.set(x, 0.05, z);
      this.labelGroup.add(s);
    };
    const squares = g.squares || [];
    for (const f of g.files || []) {
      const sq = squares.find((s) => s.name.startsWith(f) && /^\d/.test(s.name.slice(f.length)));
      if (!sq) continue;
      add(f, sq.x, edge);
      add(f, sq.x, -edge);
    }
    for (const r of g.ranks || []) {
      const sq = squares.find((s) => s.name.replace(/^[a-z]+/i, "") === r);
      if (!sq) continue;
      add(r, -edge, sq.z);
      add(r, edge, sq.z);
    }
  }

  _sprite(kind, i) {
    const list = this.sprites[kind];
    if (!list[i]) {
      let s;
      // camera-facing sprites in the colours of MARK_COLOURS, drawn over the balls
      const over = { depthTest: false };
      if (kind === "last") s = new THREE.Sprite(spriteMaterial(ringTexture(LAST, 0.12), over));
      else if (kind === "selected") {
        s = new THREE.Sprite(spriteMaterial(ringTexture(SELECTED, 0.17), over));
        s.renderOrder = MARK_ORDER + 1;
      } else if (kind === "target") s = new THREE.Sprite(spriteMaterial(ringTexture(TARGET, 0.13, true), over));
      else if (kind === "targetDot") s = new THREE.Sprite(spriteMaterial(dotTexture(TARGET), over));
      else if (kind === "winRing") s = new THREE.Sprite(spriteMaterial(ringTexture(WIN, 0.12), over));
      else if (kind === "win") {
        s = new THREE.Sprite(spriteMaterial(glowTexture(WIN), { opacity: 0.95 }));
        s.renderOrder = -1;
      }
      if (kind !== "win" && kind !== "selected") s.renderOrder = MARK_ORDER;
      if (kind !== "win") s.layers.set(RING_LAYER);
      list[i] = s;
      this.overlayGroup.add(s);
    }
    return list[i];
  }

  /** Place a sprite around point i: a ball-sized ring if occupied, a marker-sized one if not. */
  _ring(kind, i, occupied, ballScale, emptyScale) {
    const s = this._sprite(kind, i);
    const scale = occupied ? ballScale : emptyScale;
    s.scale.set(scale, scale, 1);
    s.position.copy(occupied ? this.centres[i] : this.markerCentres[i]);
    s.visible = true;
    return s;
  }

  _drawScene() {
    const v = this.view;
    if (!v || !this.renderer || !this.geometry || !this.balls) return;
    const n = this.balls.length;
    const colour = new Array(n).fill(null);
    const kind = new Array(n).fill(null);
    const character = new Array(n).fill(false);
    for (const b of v.balls || []) {
      const i = this._index(b.point);
      colour[i] = b.colour;
      kind[i] = b.kind || null;
      character[i] = !!b.character;
    }
    const hidden = new Set((v.hidden || []).map((p) => this._index(p)));
    const winning = new Set((v.winning || []).map((p) => this._index(p)));
    const playable = new Set((v.playable || []).map((p) => this._index(p)));
    this._occupied = colour.map((c, i) => c !== null || hidden.has(i));
    this._clickable = new Set((v.clickable || []).map((p) => this._index(p)));

    for (let i = 0; i < n; i++) {
      const m = this.balls[i];
      if (colour[i] && this.materials[colour[i]]) {
        m.material = winning.has(i) ? this.winMaterials[colour[i]] : this.materials[colour[i]];
        m.visible = true;
      } else if (hidden.has(i) || colour[i]) {
        m.material = this.ghostMaterial;
        m.visible = true;
      } else {
        m.visible = false;
      }
      this.markers[i].visible = playable.has(i) && !this._occupied[i];
      if (this.characters.length) {          // a grid: pawns, characters, chasms
        const pawn = kind[i] === "pawn";
        m.scale.y = pawn ? this.geometry.pawn_height / this.geometry.stone_height : 1;
        m.position.y = pawn ? this.geometry.pawn_height / 2 : this.centres[i].y;
        this.characters[i].visible = character[i];
        this.chasms[i].visible = kind[i] === "chasm";
      }
    }

    for (const list of Object.values(this.sprites)) for (const s of list) if (s) s.visible = false;
    for (const p of v.last || []) {
      const i = this._index(p);
      if (i !== null) this._ring("last", i, this._occupied[i], 1.32, 0.62);
    }
    for (const p of v.targets || []) {
      const i = this._index(p);
      if (i === null) continue;
      if (this._occupied[i]) this._ring("target", i, true, 1.42, 0.7);
      else {
        this._ring("target", i, false, 1.42, 0.72);
        this._ring("targetDot", i, false, 0.3, 0.3);
      }
    }
    if (v.selected !== null && v.selected !== undefined) {
      const i = this._index(v.selected);
      if (i !== null) this._ring("selected", i, this._occupied[i], 1.5, 0.8);
    }
    for (const i of winning) {
      if (i === null || i >= n) continue;
      this._ring("win", i, true, 2.0, 1.0);
      this._ring("winRing", i, this._occupied[i], 1.3, 0.6);
    }

    this._drawArrows(v.arrows || []);
    if (this._hover !== null && !this._clickable.has(this._hover)) this._setHover(null);
    else if (this._hover !== null) this._setHover(this._hover, true);
    this.requestRender();
  }

  _drawArrows(arrows) {
    for (const child of [...this.arrowGroup.children]) {
      child.geometry.dispose();
      child.material.dispose();
      this.arrowGroup.remove(child);
    }
    const R = this.geometry.ball_radius;
    const half = this.geometry.board_size / 2;
    const dirs = { n: [0, -1], s: [0, 1], e: [1, 0], w: [-1, 0] };
    for (const a of arrows) {
      const to = this._index(a.to);
      if (to === null) continue;
      const T = this.centres[to];
      let start;
      let end;
      let lift;
      const from = a.from === null || a.from === undefined ? null : this._index(a.from);
      if (from !== null) {
        start = this.centres[from].clone().add(new THREE.Vector3(0, R + 0.1, 0));
        end = T.clone().add(new THREE.Vector3(0, R + 0.1, 0));
        lift = 0.35 + 0.25 * start.distanceTo(end);
      } else if (a.direction && dirs[a.direction]) {
        const [dx, dz] = dirs[a.direction];
        const y = T.y + 0.15;
        // from beyond the board's edge, along the line of travel, to the ball's side
        const startX = dx ? -dx * (half + 0.45) : T.x;
        const startZ = dz ? -dz * (half + 0.45) : T.z;
        start = new THREE.Vector3(startX, y, startZ);
        end = new THREE.Vector3(T.x - dx * R * 0.95, y, T.z - dz * R * 0.95);
        lift = 0;
      } else {
        start = T.clone().add(new THREE.Vector3(0, R + 1.1, 0));
        end = T.clone().add(new THREE.Vector3(0, R + 0.08, 0));
        lift = 0;
      }
      this._arrow(start, end, lift, ARROW_COLOURS[a.kind] || ARROW_COLOURS.option, a.kind === "last" ? 1 : 0.8);
    }
  }

  _arrow(start, end, lift, colour, opacity) {
    const headLength = 0.26;
    const headRadius = 0.11;
    const mid = start.clone().add(end).multiplyScalar(0.5);
    mid.y += lift;
    let curve = new THREE.QuadraticBezierCurve3(start, mid, end);
    const tangent = curve.getTangent(1).normalize();
    const base = end.clone().addScaledVector(tangent, -headLength);
    curve = new THREE.QuadraticBezierCurve3(start, mid, base);
    const material = new THREE.MeshPhongMaterial({
      color: colour, emissive: new THREE.Color(colour).multiplyScalar(0.35),
      transparent: opacity < 1, opacity, shininess: 30 });
    const shaft = new THREE.Mesh(new THREE.TubeGeometry(curve, 24, 0.045, 10, false), material);
    const head = new THREE.Mesh(new THREE.ConeGeometry(headRadius, headLength, 16), material.clone());
    head.position.copy(base).addScaledVector(tangent, headLength / 2);
    head.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), tangent);
    this.arrowGroup.add(shaft, head);
  }

  /** The other sets of the game (Spair's second set): small top views, not clickable. */
  _renderOtherBoards(boards) {
    const d = this.dom;
    d.others.textContent = "";
    d.others.hidden = !boards.length || !this.geometry;
    if (d.others.hidden) return;
    const g = this.geometry;
    const half = g.board_size / 2;
    const svgNS = "http://www.w3.org/2000/svg";
    const make = (tag, attrs) => {
      const node = document.createElementNS(svgNS, tag);
      for (const [k, val] of Object.entries(attrs)) node.setAttribute(k, String(val));
      return node;
    };
    for (const board of boards) {
      const svg = make("svg", {
        viewBox: `${-half} ${-half} ${2 * half} ${2 * half}`, class: "sb-other-board",
        role: "img", "aria-label": `${board.label} (seen from above)`,
      });
      svg.append(make("rect", { x: -half, y: -half, width: 2 * half, height: 2 * half,
        rx: 0.15, fill: WOOD }));
      // the holes of the board, then the balls, lowest first, so the balls above
      // cover them as seen from above
      g.points.forEach((p, i) => {
        if (this.level0 && this.level0[i]) {
          svg.append(make("circle", { cx: p.x, cy: p.z, r: g.hole_radius, fill: HOLE }));
        }
      });
      const balls = (board.balls || []).map((b) => ({ b, i: this._index(b.point) }))
        .filter(({ i }) => i !== null && g.points[i])
        .sort((a, c) => g.points[a.i].y - g.points[c.i].y);
      for (const { b, i } of balls) {
        const p = g.points[i];
        svg.append(make("circle", { cx: p.x, cy: p.z, r: g.ball_radius * 0.96,
          fill: BALL_COLOURS[b.colour] || GHOST, stroke: "#555", "stroke-width": 0.03 }));
      }
      d.others.append(el("figure", { class: "sb-other" }, svg,
        el("figcaption", { text: board.label })));
    }
  }

  _index(p) {
    if (p === null || p === undefined) return null;
    if (typeof p === "number") return Number.isInteger(p) && p >= 0 ? p : null;
    if (typeof p === "string") {
      if (this.pointIndex && this.pointIndex.has(p)) return this.pointIndex.get(p);
      if (/^\d+$/.test(p)) return Number(p);
    }
    return null;
  }

  // -- drawing -------------------------------------------------------------------

  _render() {
    this._renderPanel();
    const v = this.view;
    if (v) {
      this.dom.values.hidden = !v.solved;
      this.dom.values.setAttribute("aria-pressed", v.values ? "true" : "false");
      this.dom.values.textContent = v.values ? "Hide values" : "Move values";
    }
    this._drawScene();
  }

  requestRender() {
    if (this._renderQueued || !this.renderer) return;
    this._renderQueued = true;
    requestAnimationFrame(() => {
      this._renderQueued = false;
      this.renderNow();
    });
  }

  renderNow() {
    const r = this.renderer;
    if (!r) return;
    const { scene, camera } = this;
    camera.layers.set(0);
    r.autoClear = true;
    r.render(scene, camera);
    // the rings: depth from the balls only, then the rings tested against it
    const background = scene.background;
    scene.background = null;
    r.autoClear = false;
    r.clearDepth();
    camera.layers.set(BALL_DEPTH_LAYER);
    scene.overrideMaterial = this.depthOnly;
    r.render(scene, camera);
    scene.overrideMaterial = null;
    camera.layers.set(RING_LAYER);
    r.render(scene, camera);
    camera.layers.set(0);
    r.autoClear = true;
    scene.background = background;
  }

  _resize() {
    if (!this.renderer) return;
    const w = Math.max(1, Math.round(this.canvas.clientWidth));
    const h = Math.max(1, Math.round(this.canvas.clientHeight));
    const size = this.renderer.getSize(new THREE.Vector2());
    if (size.x === w && size.y === h) return;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    // keep the whole board in a tall, narrow canvas too
    const fitted = w / h < 1 ? 2 * Math.atan(Math.tan(THREE.MathUtils.degToRad(FOV) / 2) * (1 / (w / h)) * 0.95) : null;
    this.camera.fov = fitted ? Math.min(THREE.MathUtils.radToDeg(fitted), 70) : FOV;
    this.camera.updateProjectionMatrix();
    this.renderNow();
  }

  /** Switch between the default 3D camera and a camera straight above the board. */
  toggleTopView(on = !this._topView) {
    this._topView = on;
    this.dom.top.setAttribute("aria-pressed", on ? "true" : "false");
    this.dom.top.textContent = on ? "3D view" : "Top view";
    this.dom.top.setAttribute("aria-label", on ? "Back to the 3D view" : "Top view");
    if (!this.renderer) return;
    this.camera.position.copy(on ? TOP_EYE : EYE).multiplyScalar(this._eyeScale || 1);
    this.controls.target.copy(on ? TOP_LOOK_AT : LOOK_AT);
    this.camera.lookAt(this.controls.target);
    this.controls.update();
    this._setHover(null);
    this.renderNow();
  }

  // -- pointer -------------------------------------------------------------------

  _listen() {
    const c = this.canvas;
    c.addEventListener("pointerdown", (e) => {
      if (!e.isPrimary) {
        if (this._down) this._down.dragged = true;   // a pinch is not a click
        return;
      }
      this._down = { x: e.clientX, y: e.clientY, button: e.button, dragged: false };
    });
    c.addEventListener("pointermove", (e) => {
      if (this._down && e.isPrimary && !this._down.dragged) {
        if (Math.hypot(e.clientX - this._down.x, e.clientY - this._down.y) > DRAG_PX) {
          this._down.dragged = true;
          this._setHover(null);
        }
      }
      if (!this._down || e.pointerType === "mouse" && e.buttons === 0) this._hoverAt(e);
    });
    c.addEventListener("pointerup", (e) => {
      const down = this._down;
      if (!e.isPrimary) return;
      this._down = null;
      if (!down || down.dragged || down.button !== 0) return;
      if (Math.hypot(e.clientX - down.x, e.clientY - down.y) > DRAG_PX) return;
      this._clickAt(e.clientX, e.clientY);
      if (e.pointerType !== "mouse") this._setHover(null);
    });
    c.addEventListener("pointercancel", () => { this._down = null; this._setHover(null); });
    c.addEventListener("pointerleave", () => { if (!this._down) this._setHover(null); });
    c.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  /** The clickable point under a page position, or null: the nearest clickable object wins. */
  pointAt(clientX, clientY) {
    if (!this.renderer || !this.view || !this._clickable || !this.ballPicks) return null;
    const rect = this.canvas.getBoundingClientRect();
    if (!rect.width || !rect.height) return null;
    const ndc = new THREE.Vector2(
      ((clientX - rect.left) / rect.width) * 2 - 1,
      -((clientY - rect.top) / rect.height) * 2 + 1);
    this.camera.updateMatrixWorld();
    this.raycaster.setFromCamera(ndc, this.camera);
    const targets = [];
    for (const i of this._clickable) {
      if (i === null || i >= this.ballPicks.length) continue;
      targets.push(this._occupied[i] ? this.ballPicks[i] : this.emptyPicks[i]);
    }
    const hits = this.raycaster.intersectObjects(targets, false);
    return hits.length ? hits[0].object.userData.point : null;
  }

  _clickAt(x, y) {
    const v = this.view;
    if (!v || v.cover) return;
    if (this._busy) { this._waitNote(); return; }
    const p = this.pointAt(x, y);
    if (p === null) return;
    this.send("click", { point: p, version: v.version });
  }

  _hoverAt(e) {
    if (!this.view || this.view.cover) { this._setHover(null); return; }
    const p = this.pointAt(e.clientX, e.clientY);
    this._setHover(p);
    if (p !== null) {
      const rect = this.dom.stage.getBoundingClientRect();
      this._placeTip(e.clientX - rect.left, e.clientY - rect.top, rect);
    }
  }

  _setHover(p, keep = false) {
    const changed = p !== this._hover;
    this._hover = p;
    if (!this.hoverSprite) return;
    if (p === null) {
      this.hoverSprite.visible = false;
      this.dom.tip.hidden = true;
      this.canvas.classList.remove("sb-pointing");
      if (changed) this.requestRender();
      return;
    }
    const occupied = this._occupied[p];
    const scale = occupied ? 1.38 : 0.7;
    this.hoverSprite.scale.set(scale, scale, 1);
    this.hoverSprite.position.copy(occupied ? this.centres[p] : this.markerCentres[p]);
    this.hoverSprite.visible = true;
    this.canvas.classList.add("sb-pointing");
    const hints = this.view.hints || {};
    const name = this.geometry.points[p] ? this.geometry.points[p].name : String(p);
    this.dom.tip.textContent = hints[String(p)] || name;
    if (!keep || changed) this.dom.tip.hidden = false;
    if (changed || keep) this.requestRender();
  }

  _placeTip(x, y, rect) {
    const tip = this.dom.tip;
    tip.hidden = false;
    const w = tip.offsetWidth;
    const h = tip.offsetHeight;
    let left = x + 14;
    let top = y + 16;
    if (left + w > rect.width - 4) left = Math.max(4, x - w - 10);
    if (top + h > rect.height - 4) top = Math.max(4, y - h - 12);
    tip.style.left = `${left}px`;
    tip.style.top = `${top}px`;
  }

  /**
   * Page (client) coordinates of the centre of the ball, or of the playable
   * marker when the point is empty, at point (0-29 or a name from geometry),
   * for the current camera.  When that centre is covered by another clickable
   * object (a click there would pick the nearer one), the nearest spot of the
   * same ball or marker that a click does reach is given instead.  null before
   * the geometry is known.
   */
  project(point) {
    const i = this._index(point);
    if (i === null || !this.renderer || !this.centres || i >= this.centres.length) return null;
    const occupied = this._occupied ? this._occupied[i] : false;
    const centre = occupied ? this.centres[i] : this.markerCentres[i];
    const c = this._toClient(centre);
    if (!this._clickable || !this._clickable.has(i) || this.pointAt(c.x, c.y) === i) return c;
    // the object's radius on the screen, then rings of candidate spots around its centre
    const radius = occupied ? this.geometry.ball_radius : 0.3;
    const right = new THREE.Vector3().setFromMatrixColumn(this.camera.matrixWorld, 0);
    const edge = this._toClient(centre.clone().addScaledVector(right, radius));
    const r = Math.hypot(edge.x - c.x, edge.y - c.y);
    for (let k = 1; k <= 8; k++) {
      const d = (r * k) / 9;
      const steps = 8 + 4 * k;
      for (let j = 0; j < steps; j++) {
        const a = (2 * Math.PI * j) / steps - Math.PI / 2;
        const x = c.x + d * Math.cos(a);
        const y = c.y + d * Math.sin(a);
        if (this.pointAt(x, y) === i) return { x, y };
      }
    }
    return c;
  }

  _toClient(v3) {
    this.camera.updateMatrixWorld();
    const v = v3.clone().project(this.camera);
    const rect = this.canvas.getBoundingClientRect();
    return {
      x: rect.left + ((v.x + 1) / 2) * rect.width,
      y: rect.top + ((1 - v.y) / 2) * rect.height,
    };
  }
}
