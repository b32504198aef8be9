// The live board. Plain JavaScript, no build step: it reads Telegram's launch
// parameters, shows the game as SVG and talks to the JSON API of package
// miniapp, hearing every change by server-sent events.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const SQ = 100, MARGIN = 10; // square size and border in viewBox units
const FILES = "abcdefgh";

// Launch parameters: Telegram's script when it is there, else the URL
// fragment Telegram puts them in (#tgWebAppData=...&tgWebAppThemeParams=...).
// A direct link's startapp arrives signed in initData's start_param and, in
// the query (not the fragment), as tgWebAppStartParam.
const hash = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
function tg() { return window.Telegram && window.Telegram.WebApp; }
const initData = (tg() && tg().initData) || hash.get("tgWebAppData") || "";
const signed = new URLSearchParams(initData);
// gameID is the game shown; "" shows the lobby (lobby.js), which sets it
// when it opens a game.
let gameID = signed.get("start_param") || query.get("tgWebAppStartParam") || hash.get("tgWebAppStartParam") ||
  query.get("startapp") || query.get("game") || "";

let game = null;        // the state as the server last sent it
let pick = null;        // {from, cands, depth}: the move being chosen
let busy = false;       // a request is in flight
let animating = null;   // a Promise while a move is being shown
let review = null;      // a finished game's analysis, once the server sent it
let cursor = 0;         // the position the analysis shows: after this many moves
let reviewAsked = false; // the page has asked whether an analysis exists
let reviewBusy = false;  // an analysis is being waited for
let reviewWait = "";     // the server's word on it meanwhile: its place in the queue

// ---- theme ------------------------------------------------------------

function applyTheme(params, scheme) {
  const root = document.documentElement.style;
  for (const [k, v] of Object.entries(params || {})) {
    if (typeof v === "string") root.setProperty("--tg-theme-" + k.replace(/_/g, "-"), v);
  }
  if (!scheme && params && params.bg_color) scheme = luminance(params.bg_color) < 0.5 ? "dark" : "light";
  document.documentElement.dataset.scheme = scheme || "light";
}

function luminance(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return 1;
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function themeFromURL() {
  try { return JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch { return {}; }
}
applyTheme(themeFromURL());

window.addEventListener("load", () => {
  const w = tg();
  if (!w) return;
  w.ready();
  w.expand();
  applyTheme(w.themeParams, w.colorScheme);
  w.onEvent("themeChanged", () => applyTheme(w.themeParams, w.colorScheme));
});

// ---- squares and positions ---------------------------------------------

function sqXY(sq, flip) {
  const f = sq.charCodeAt(0) - 97, r = sq.charCodeAt(1) - 49;
  const col = flip ? 7 - f : f, row = flip ? r : 7 - r;
  return [MARGIN + col * SQ, MARGIN + row * SQ];
}

function center(sq, flip) {
  const [x, y] = sqXY(sq, flip);
  return [x + SQ / 2, y + SQ / 2];
}

// parsePosition reads the position format of docs/rules.md: "w:c3wb,e5Ww".
function parsePosition(text) {
  const towers = {};
  const body = text.split(":")[1] || "";
  for (const entry of body.split(",")) {
    if (entry.length >= 3) towers[entry.slice(0, 2)] = entry.slice(2);
  }
  return towers;
}

// ---- API ---------------------------------------------------------------

// puzzleMode: the start parameter "puzzle" opens the viewer's puzzle under
// way rather than a game; it has its own API and no event stream (only the
// solver moves it).
const puzzleMode = gameID === "puzzle";

async function api(method, path, body) {
  const base = puzzleMode ? "api/puzzle" : "api/games/" + encodeURIComponent(gameID);
  return request(method, base + path, body);
}

// request calls the app's API as the signed-in user: the status and the
// answer's JSON, or null when it had none (the lobby's calls too).
async function request(method, url, body) {
  const res = await fetch(url, {
    method,
    headers: { "Authorization": "tma " + initData, "Content-Type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await res.json(); } catch { /* an empty or broken answer */ }
  return { status: res.status, data };
}

async function act(path, body) {
  if (busy) return;
  busy = true;
  try {
    const { status, data } = await api("POST", path, body);
    if (status === 200) {
      show(data);
    } else {
      if (data && data.state) show(data.state);
      toast((data && data.error) || "HTTP " + status);
    }
  } catch (e) {
    toast(String(e));
  } finally {
    busy = false;
  }
}

// listen reads the game's event stream (server-sent events) with fetch, so
// that initData travels in a header and never in a URL, and reconnects
// when the stream breaks: the first event of a stream is the game as it is
// then, so nothing missed meanwhile is lost.
// stream ends the event stream of the game shown (its AbortController),
// when the page leaves it for the lobby.
let stream = null;

async function listen() {
  let delay = 500;
  const ctl = new AbortController();
  stream = ctl;
  const id = gameID;
  while (!ctl.signal.aborted) {
    try {
      const res = await fetch("api/games/" + encodeURIComponent(id) + "/events", {
        headers: { "Authorization": "tma " + initData },
        signal: ctl.signal,
      });
      if (res.status === 401 || res.status === 404) return; // reopening the app is the cure
      if (!res.ok || !res.body) throw new Error("HTTP " + res.status);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let end;
        while ((end = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
          if (data) {
            document.body.classList.remove("offline");
            delay = 500;
            show(JSON.parse(data));
          }
        }
      }
    } catch (e) {
      // the network went away: try again below
    }
    if (ctl.signal.aborted) return;
    document.body.classList.add("offline");
    document.body.dataset.reconnects = String(Number(document.body.dataset.reconnects || 0) + 1);
    if (game) setHint(game.texts.app_reconnecting);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 10000);
  }
}

// ---- showing the game --------------------------------------------------

// show takes a new state: a move one ply on is animated first.
function show(st) {
  if (game && st.ply < game.ply) return; // an older answer overtaken by an event
  const prev = game;
  const chain = animating || Promise.resolve();
  animating = chain.then(() => {
    if (game && st.ply < game.ply) return;
    if (prev && game && game.ply === st.ply - 1 && st.last && game.ply === prev.ply) {
      return animate(st.last).then(() => render(st));
    }
    render(st);
  }).finally(() => { animating = null; });
}

function render(st) {
  const changed = !game || game.ply !== st.ply;
  game = st;
  document.documentElement.lang = st.lang;
  if (changed) { pick = null; ifMode = null; } // the board moved on: a line entered starts again
  document.title = st.white.name + " – " + st.black.name;
  drawBoard();
  drawPlayers();
  setClocks();
  drawStatus();
  drawActions();
  drawMoves();
  drawAnalysis();
  document.body.dataset.ply = st.ply; // tests wait on these
  document.body.dataset.active = String(st.active);
  if (!st.active && !reviewAsked) {
    reviewAsked = true;
    peekAnalysis();
  }
}

function flipped() { return game.you === "b"; }

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function drawBoard() {
  const svg = document.getElementById("board");
  svg.textContent = "";
  const flip = flipped();
  el("rect", { x: 0, y: 0, width: 820, height: 820, class: "frame", rx: 8 }, svg);
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const sq = FILES[f] + (r + 1);
      const [x, y] = sqXY(sq, flip);
      el("rect", { x, y, width: SQ, height: SQ, class: (f + r) % 2 === 0 ? "sq-dark" : "sq-light" }, svg);
    }
  }
  for (let i = 0; i < 8; i++) { // coordinates on the light border squares
    const file = FILES[i], rank = String(i + 1);
    const [fx] = sqXY(file + "1", flip), [, ry] = sqXY("a" + rank, flip);
    // Files along the bottom row, ranks along the left column, each in the
    // colour of the other kind of square.
    const bottomSq = flip ? file + "8" : file + "1", leftSq = (flip ? "h" : "a") + rank;
    const onDark = (sq) => (sq.charCodeAt(0) - 97 + sq.charCodeAt(1) - 49) % 2 === 0;
    el("text", { x: fx + SQ - 5, y: 8 * SQ + MARGIN - 6, "text-anchor": "end", class: "coord " + (onDark(bottomSq) ? "on-dark" : "on-light") }, svg).textContent = file;
    el("text", { x: MARGIN + 5, y: ry + 25, class: "coord " + (onDark(leftSq) ? "on-dark" : "on-light") }, svg).textContent = rank;
  }
  const view = boardView();
  if (view.last && !pick) {
    for (const sq of view.last.path) {
      const [x, y] = sqXY(sq, flip);
      el("rect", { x, y, width: SQ, height: SQ, class: view.best ? "last mistake" : "last" }, svg);
    }
  }
  const towers = parsePosition(view.position);
  svg.dataset.position = view.position;
  const layer = el("g", { id: "towers" }, svg);
  for (const [sq, pieces] of Object.entries(towers)) drawTower(layer, sq, pieces, flip);
  if (view.best) drawArrow(svg, view.best, flip);
  if (pick) drawPick(svg, flip);
  for (let r = 0; r < 8; r++) { // hit areas on top of everything, dark squares only
    for (let f = 0; f < 8; f++) {
      if ((f + r) % 2 !== 0) continue;
      const sq = FILES[f] + (r + 1);
      const [x, y] = sqXY(sq, flip);
      const hit = el("rect", { x, y, width: SQ, height: SQ, class: "hit", "data-sq": sq }, svg);
      if (towers[sq]) hit.setAttribute("data-tower", towers[sq]);
      bindPress(hit, sq);
    }
  }
}

// drawTower draws a tower as a stack of discs, the top piece highest, with
// a crown on kings and the height written on tall towers.
function drawTower(layer, sq, pieces, flip) {
  const [cx, cy] = center(sq, flip);
  const g = el("g", { class: "tower", "data-sq": sq, "data-pieces": pieces }, layer);
  const n = pieces.length;
  const step = n > 1 ? Math.min(9, 34 / (n - 1)) : 0;
  const baseY = cy + ((n - 1) * step) / 2 + 4;
  for (let i = n - 1; i >= 0; i--) { // bottom first, so the top is drawn last
    const p = pieces[i];
    const y = baseY - (n - 1 - i) * step;
    const cls = p.toLowerCase() === "w" ? "pw" : "pb";
    el("ellipse", { cx, cy: y + 6, rx: 36, ry: 15, class: cls }, g); // the disc's side
    el("ellipse", { cx, cy: y, rx: 36, ry: 15, class: cls }, g);
    if (p === "W" || p === "B") {
      if (i === 0) {
        el("path", { d: crown(cx, y), class: "king" }, g);
      } else {
        el("ellipse", { cx, cy: y, rx: 20, ry: 7, class: "king" }, g);
      }
    }
  }
  if (n > 1) {
    const y = baseY - (n - 1) * step - 26;
    el("rect", { x: cx + 20, y: y - 4, width: 30, height: 24, rx: 12, class: "count-bg" }, g);
    el("text", { x: cx + 35, y: y + 14, "text-anchor": "middle", class: "count" }, g).textContent = n;
  }
}

function crown(cx, y) {
  return `M${cx - 16} ${y + 5} L${cx - 18} ${y - 9} L${cx - 8} ${y - 2} L${cx} ${y - 12} ` +
    `L${cx + 8} ${y - 2} L${cx + 18} ${y - 9} L${cx + 16} ${y + 5} Z`;
}

// ---- choosing a move ---------------------------------------------------

// legalNow is the moves a tap may choose: the game's, or, entering a
// conditional line, those after its moves so far.
function legalNow() { return ifMode ? ifMode.legal : game.legal; }

function myTurn() { return game && game.active && game.you !== "" && game.you === game.turn; }

function onTap(sq) {
  if (!(myTurn() || ifMode) || busy) return;
  const legal = legalNow();
  if (pick && pick.cands) { // choosing among capture paths ending on one square
    const opts = pathOptions(pick.cands, pick.depth);
    if (opts.has(sq)) {
      const cands = pick.cands.filter((m) => (m.path[pick.depth] || m.path[m.path.length - 1]) === sq);
      choose(cands, pick.depth + 1);
      return;
    }
  }
  if (pick && pick.from) {
    const to = legal.filter((m) => m.path[0] === pick.from && m.path[m.path.length - 1] === sq);
    if (to.length > 0) {
      pick = { from: pick.from };
      choose(to, 1);
      return;
    }
  }
  if (legal.some((m) => m.path[0] === sq) && !(pick && pick.from === sq)) {
    pick = { from: sq };
  } else {
    pick = null;
  }
  drawBoard();
  drawHint();
}

// choose narrows the candidate moves: one left is played; several ending on
// one square are told apart by the first square where their paths differ.
function choose(cands, depth) {
  if (cands.length === 1) {
    const m = cands[0];
    pick = null;
    if (ifMode) { ifPlay(m.n); return; } // a move of a conditional line (ifline.js)
    act("/move", { ply: game.ply, move: m.n });
    return;
  }
  while (pathOptions(cands, depth).size === 1) depth++;
  pick = { from: cands[0].path[0], cands, depth };
  drawBoard();
  drawHint();
}

function pathOptions(cands, depth) {
  return new Set(cands.map((m) => m.path[depth] || m.path[m.path.length - 1]));
}

function drawPick(svg, flip) {
  const [sx, sy] = sqXY(pick.from, flip);
  el("rect", { x: sx + 3, y: sy + 3, width: SQ - 6, height: SQ - 6, class: "sel" }, svg);
  if (pick.cands) {
    for (const m of pick.cands) {
      const pts = m.path.map((s) => center(s, flip).join(",")).join(" ");
      el("polyline", { points: pts, class: "path" }, svg);
    }
    for (const sq of pathOptions(pick.cands, pick.depth)) {
      const [x, y] = sqXY(sq, flip);
      el("rect", { x: x + 6, y: y + 6, width: SQ - 12, height: SQ - 12, rx: 10, class: "option", "data-option": sq }, svg);
    }
    return;
  }
  const dests = new Set(legalNow().filter((m) => m.path[0] === pick.from).map((m) => m.path[m.path.length - 1]));
  for (const sq of dests) {
    const [cx, cy] = center(sq, flip);
    el("circle", { cx, cy, r: 15, class: "dest", "data-dest": sq }, svg);
  }
}

// ---- pressing: tap or drag to move, hold to read a tower ---------------

const HOLD_MS = 450;
let press = null; // {sq, timer, held}: the square pressed and not yet released

function bindPress(node, sq) {
  node.addEventListener("pointerdown", (ev) => {
    if (press) clearTimeout(press.timer);
    const p = { sq, held: false };
    p.timer = setTimeout(() => { p.held = true; openTower(sq); }, HOLD_MS);
    press = p;
    ev.preventDefault();
  });
  node.addEventListener("contextmenu", (ev) => {
    ev.preventDefault();
    if (press) clearTimeout(press.timer);
    press = null;
    openTower(sq);
  });
}

// squareAt is the board square under a pointer event: where a drag ends
// (a touch keeps sending its events to the square it started on).
function squareAt(ev) {
  const el = document.elementFromPoint(ev.clientX, ev.clientY);
  return el && el.dataset ? el.dataset.sq || "" : "";
}

// A release is a tap on the pressed square, or, on another square, a drag:
// the pressed tower picked and the square under the finger tapped.
document.addEventListener("pointerup", (ev) => {
  const p = press;
  press = null;
  if (!p) return;
  clearTimeout(p.timer);
  if (p.held) return;
  const to = squareAt(ev);
  if (to && to !== p.sq) {
    if (!(pick && pick.from === p.sq)) onTap(p.sq);
    if (pick && pick.from === p.sq) onTap(to);
    return;
  }
  onTap(p.sq);
});
document.addEventListener("pointermove", (ev) => {
  // Moving off the square is a drag, not a hold.
  if (press && !press.held && squareAt(ev) !== press.sq) clearTimeout(press.timer);
});
document.addEventListener("pointercancel", () => {
  if (press) clearTimeout(press.timer);
  press = null;
});

function openTower(sq) {
  if (!game.towers) return; // Russian draughts: a piece is never a stack
  const pieces = parsePosition(boardView().position)[sq];
  if (!pieces) return;
  const t = game.texts;
  document.getElementById("sheet-title").textContent = t.app_tower.replace("{sq}", sq);
  const list = document.getElementById("sheet-pieces");
  list.textContent = "";
  for (const p of pieces) {
    const li = document.createElement("li");
    const disc = document.createElement("span");
    const king = p === "W" || p === "B";
    disc.className = "disc " + p.toLowerCase() + (king ? " king" : "");
    const side = p.toLowerCase() === "w" ? t.side_white : t.side_black;
    li.append(disc, document.createTextNode(side + " · " + (king ? t.app_king : t.app_man)));
    li.dataset.piece = p;
    list.appendChild(li);
  }
  document.getElementById("sheet-close").textContent = t.app_close;
  document.getElementById("sheet").hidden = false;
}

document.getElementById("sheet-close").addEventListener("click", () => { document.getElementById("sheet").hidden = true; });
document.getElementById("sheet").addEventListener("click", (ev) => {
  if (ev.target.id === "sheet") ev.target.hidden = true;
});

// ---- animation ---------------------------------------------------------

// animate moves the tower of the last move square by square along its path.
function animate(last) {
  const flip = flipped();
  const node = document.querySelector(`#towers .tower[data-sq="${last.path[0]}"]`);
  if (!node || !node.animate || last.path.length < 2) return Promise.resolve();
  const [x0, y0] = center(last.path[0], flip);
  const frames = last.path.map((sq) => {
    const [x, y] = center(sq, flip);
    return { transform: `translate(${x - x0}px, ${y - y0}px)` };
  });
  node.parentNode.appendChild(node); // above the others while it travels
  const leg = 180;
  const a = node.animate(frames, { duration: leg * (last.path.length - 1), easing: "ease-in-out", fill: "forwards" });
  // Each jumped tower dims as the capturer passes it: its top piece is
  // taken, to go under the capturer when the move ends (the board drawn
  // next shows it there).
  (last.jumped || []).forEach((sq, i) => {
    const j = document.querySelector(`#towers .tower[data-sq="${sq}"]`);
    if (j) j.animate([{ opacity: 1 }, { opacity: 0.3 }], { delay: leg * (i + 0.5), duration: leg, fill: "forwards" });
  });
  return a.finished.catch(() => {});
}

// ---- players, status, actions, moves -----------------------------------

function drawPlayers() {
  const bottom = flipped() ? "b" : "w";
  for (const [id, c] of [["player-bottom", bottom], ["player-top", bottom === "w" ? "b" : "w"]]) {
    const p = c === "w" ? game.white : game.black;
    const sec = document.getElementById(id);
    sec.querySelector(".disc").className = "disc " + c;
    sec.querySelector(".name").textContent = p.name;
    const turn = sec.querySelector(".turn");
    const mine = game.you === c;
    turn.textContent = game.active && game.turn === c ? (mine ? game.texts.app_your_move : "●") : "";
    turn.classList.toggle("theirs", !mine);
    sec.dataset.color = c;
  }
}

// ---- clocks of live games ----------------------------------------------

// clockBase is the clocks as the last state gave them, and when (by this
// page's monotonic clock) it arrived; the running one counts down from it.
let clockBase = null;
let flagClaimed = -1; // the ply whose flag this page has claimed

function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  const mm = h > 0 ? String(m).padStart(2, "0") : String(m);
  return (h > 0 ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
}

function setClocks() {
  clockBase = game.clock ? { ...game.clock, at: performance.now(), ply: game.ply } : null;
  tickClocks();
}

function tickClocks() {
  for (const id of ["player-top", "player-bottom"]) {
    const sec = document.getElementById(id);
    const el = sec.querySelector(".clock");
    if (!clockBase) { el.textContent = ""; continue; }
    const c = sec.dataset.color;
    let ms = clockBase[c];
    const running = clockBase.running === c;
    if (running) ms -= performance.now() - clockBase.at;
    el.textContent = fmtClock(ms);
    el.classList.toggle("running", running);
    el.classList.toggle("low", running && ms < 20000);
    el.dataset.ms = String(Math.max(0, Math.round(ms)));
    if (running && ms <= 0 && flagClaimed !== clockBase.ply && !busy) {
      // The flag has fallen by this page's count: ask the server, which
      // decides by its own clock and the stored deadline.
      flagClaimed = clockBase.ply;
      act("/flag");
    }
  }
}
setInterval(() => { if (clockBase && clockBase.running) tickClocks(); }, 200);

function drawStatus() {
  document.getElementById("status").textContent = game.active ? game.status : game.status + (game.reason ? " · " + game.reason : "");
  // A game at days per move: its pace and time left, and who is away.
  document.getElementById("pace").textContent = [game.pace || ""].concat(game.away || []).filter(Boolean).join("\n");
  drawHint();
}

function setHint(text) { document.getElementById("hint").textContent = text || ""; }

function drawHint() {
  const t = game.texts;
  if (pick && pick.cands) setHint(t.app_choose_path);
  else if (ifMode) setHint(t.app_if_hint + (ifMode.moves.length ? " · " + ifMode.moves.join(" ") : ""));
  else if (!game.active) setHint("");
  else if (game.you === "") setHint(t.app_watching);
  else if (myTurn()) setHint(t.app_hold_hint);
  else setHint(t.app_wait_hint); // a tap would do nothing: say so, not "tap"
}

function button(label, cls, onClick, id) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (cls) b.className = cls;
  if (id) b.id = id;
  b.addEventListener("click", onClick);
  return b;
}

function drawActions() {
  const box = document.getElementById("actions");
  box.textContent = "";
  const t = game.texts;
  if (puzzleMode) {
    // Puzzle Streak: a run's solve goes on with the run; any other end
    // offers a new run beside the next puzzle.
    if (!game.active) box.append(button(t.btn_next_puzzle, "", () => nextPuzzle(game.streak_next), "next-puzzle"));
    if (!game.active && game.streak_offer) {
      box.append(button(game.streak != null ? t.btn_streak_again : t.btn_streak, "secondary", () => nextPuzzle("start"), "new-streak"));
    }
    if (!game.active && game.line && game.line.length) {
      box.append(button(t.btn_play_line, "secondary", playLine, "play-line"));
    }
    return;
  }
  if (!game.active) {
    if (!review) {
      const b = button(reviewBusy ? reviewWait || t.app_analysing : t.app_analyse, "", startAnalysis, "analyse");
      b.disabled = reviewBusy;
      box.append(b);
    }
    box.append(button(t.app_new_game, "secondary", openLobby, "new-game"));
    return;
  }
  if (game.you === "") return;
  drawIf(box);
  if (ifMode) return; // entering a line: its buttons only
  if (game.draw && game.draw !== game.you) {
    box.append(
      button(t.btn_draw_accept, "", () => act("/draw", { action: "accept" }), "draw-accept"),
      button(t.btn_draw_decline, "secondary", () => act("/draw", { action: "decline" }), "draw-decline"));
  } else {
    const offer = button(game.draw ? t.app_draw_offered : t.app_offer_draw, "secondary", () => act("/draw", { action: "offer" }), "draw-offer");
    offer.disabled = game.draw === game.you || game.white.ai > 0 || game.black.ai > 0;
    box.append(offer);
  }
  // Resigning takes two taps: the first asks.
  const resign = button(t.app_resign, "danger", () => {
    if (resign.dataset.armed) { act("/resign"); return; }
    resign.dataset.armed = "1";
    resign.textContent = t.app_resign_confirm;
  }, "resign");
  box.append(resign);
}

function drawMoves() {
  const t = game.texts;
  document.getElementById("moves-title").textContent = t.app_moves;
  const list = document.getElementById("moves");
  list.textContent = "";
  const startBlack = game.position && game.moves.length % 2 === (game.turn === "w" ? 1 : 0);
  const moves = startBlack ? ["…"].concat(game.moves) : game.moves;
  const shift = startBlack ? 1 : 0;
  let current = null;
  for (let i = 0; i < moves.length; i += 2) {
    const li = document.createElement("li");
    const num = document.createElement("b");
    num.textContent = i / 2 + 1 + ".";
    li.appendChild(num);
    moves.slice(i, i + 2).forEach((m, j) => {
      const s = document.createElement("span");
      s.textContent = m;
      const k = i + j - shift + 1; // the position after this move
      if (review && k >= 1) {
        s.dataset.cursor = String(k);
        s.classList.add("step");
        if (review.moves[k - 1] && review.moves[k - 1].best) s.classList.add("mistake");
        if (k === cursor) { s.classList.add("cur"); current = s; }
        s.addEventListener("click", () => go(k));
      }
      li.appendChild(s);
    });
    list.appendChild(li);
  }
  if (current) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
  } else if (!review) {
    list.scrollTop = list.scrollHeight;
  }
}

// ---- a finished game's analysis ---------------------------------------

// boardView is what the board shows: the game as it is, or, stepping
// through its analysis, the position at the cursor with the move that
// led there and, if that move was a mistake, the engine's better one.
function boardView() {
  if (ifMode) return { position: ifMode.position, last: ifMode.last, best: null };
  if (!review) return { position: game.position, last: game.last, best: null };
  const m = cursor > 0 ? review.moves[cursor - 1] : null;
  return { position: review.positions[cursor], last: m ? m.move : null, best: m && m.best ? m.best : null };
}

// drawArrow draws a move as an arrow along its path: the engine's better
// move, from the position before the one shown.
function drawArrow(svg, m, flip) {
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0 0 L10 5 L0 10 Z", class: "best-head" }, marker);
  const pts = m.path.map((sq) => center(sq, flip));
  // End short of the last square's centre, so the head sits on it.
  const [x1, y1] = pts[pts.length - 1], [x0, y0] = pts[pts.length - 2];
  const len = Math.hypot(x1 - x0, y1 - y0);
  pts[pts.length - 1] = [x1 - ((x1 - x0) / len) * 22, y1 - ((y1 - y0) / len) * 22];
  el("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "best", "marker-end": "url(#arrowhead)",
    "data-move": m.n }, svg);
}

async function peekAnalysis() {
  try {
    const { status, data } = await api("GET", "/analysis");
    if (status === 200) setReview(data);
    else if (status === 202) startAnalysis(); // someone started it: wait with them
  } catch {
    // the button stays: a tap asks again
  }
}

// startAnalysis asks the server to analyse the game and waits: each
// request is held while the analysis runs, up to a bound, then answered
// 202, and asked again.
async function startAnalysis() {
  if (reviewBusy || review) return;
  reviewBusy = true;
  drawActions();
  try {
    for (;;) {
      const { status, data } = await api("POST", "/analysis");
      if (status === 200) { setReview(data); break; }
      if (status !== 202) { toast((data && data.error) || "HTTP " + status); break; }
      if (data && data.text && data.text !== reviewWait) { reviewWait = data.text; drawActions(); }
      await new Promise((r) => setTimeout(r, 300));
    }
  } catch (e) {
    toast(String(e));
  } finally {
    reviewBusy = false;
    reviewWait = "";
    drawActions();
  }
}

function setReview(data) {
  review = data;
  cursor = data.moves.length;
  go(cursor);
  drawActions();
}

// go shows the analysis at position k (0: the start).
function go(k) {
  if (!review) return;
  cursor = Math.max(0, Math.min(review.moves.length, k));
  document.body.dataset.cursor = String(cursor); // tests wait on this
  drawBoard();
  drawAnalysis();
  drawMoves();
}

// squashEval maps a score to -1..1 as the chat's graph does (render.squash).
function squashEval(s) { return 2 / (1 + Math.exp(-s / 250)) - 1; }

function fmtEval(s) {
  const t = game.texts;
  if (s >= review.cap) return t.app_eval_white_wins;
  if (s <= -review.cap) return t.app_eval_black_wins;
  // In men, White's view, and saying so: a bare "−2.1" reads as anything.
  const v = (Math.abs(s) / 100).toFixed(1);
  return (s > 0 ? "+" + v : s < 0 ? "−" + v : "0.0") + " " + t.app_eval_unit;
}

function drawAnalysis() {
  const box = document.getElementById("analysis");
  box.hidden = !review;
  if (!review) return;
  const t = game.texts;
  const n = review.moves.length;
  for (const [id, label, k] of [["step-first", t.app_step_first, 0], ["step-back", t.app_step_back, cursor - 1],
    ["step-forward", t.app_step_forward, cursor + 1], ["step-last", t.app_step_last, n]]) {
    const b = document.getElementById(id);
    b.setAttribute("aria-label", label);
    b.title = label;
    b.disabled = k < 0 || k > n || k === cursor;
  }
  const s = review.scores[cursor];
  const ev = document.getElementById("eval");
  ev.textContent = fmtEval(s);
  ev.className = s > 0 ? "w" : s < 0 ? "b" : "";
  const m = cursor > 0 ? review.moves[cursor - 1] : null;
  const line = document.getElementById("step-move");
  line.textContent = m ? m.text : t.app_start_position;
  line.classList.toggle("mistake", !!(m && m.best));
  drawGraph();
  document.getElementById("mistakes-title").textContent = review.mistakes.length ? t.analysis_mistakes : t.analysis_none;
  const list = document.getElementById("mistakes");
  list.textContent = "";
  for (const mk of review.mistakes) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = mk.text;
    b.dataset.ply = String(mk.ply);
    if (cursor === mk.ply + 1) b.classList.add("cur");
    b.addEventListener("click", () => go(mk.ply + 1));
    li.appendChild(b);
    list.appendChild(li);
  }
}

// drawGraph draws the scores as the chat's graph does: White's advantage
// as the light area rising from below, with the mistakes as red dots and
// the cursor as a line. A tap anywhere on it goes to the position under
// the finger.
// moveTicks picks the move numbers the graph's axis labels, as the chat's
// graph does (render.moveTicks): multiples of 1, 2, 5, 10, 20 or 50, at
// most max of them; move m sits on position 2m.
function moveTicks(n, max) {
  const moves = Math.floor((n - 1) / 2);
  if (moves < 1 || max < 1) return [];
  const step = [1, 2, 5, 10, 20, 50].find((s) => Math.floor(moves / s) <= max) || 50;
  const out = [];
  for (let m = step; m <= moves; m += step) out.push(m);
  return out;
}

function drawGraph() {
  const svg = document.getElementById("graph");
  // The plot, and under it a strip numbering the moves.
  const w = Math.max(100, Math.round(svg.clientWidth || 360)), axis = 18, h = 84 + axis, ph = h - axis, pad = 6;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.textContent = "";
  const scores = review.scores, n = scores.length;
  const x = (i) => (n === 1 ? pad : pad + ((w - 2 * pad) * i) / (n - 1));
  const y = (s) => ph / 2 - (squashEval(s) * (ph - 2 * pad)) / 2;
  el("rect", { x: 0, y: 0, width: w, height: h, class: "g-axis" }, svg);
  el("rect", { x: 0, y: 0, width: w, height: ph, class: "g-black" }, svg);
  const pts = scores.map((s, i) => [x(i), y(s)]);
  const area = [[0, ph], [0, pts[0][1]], ...pts, [w, pts[n - 1][1]], [w, ph]];
  el("polygon", { points: area.map((p) => p.join(",")).join(" "), class: "g-white" }, svg);
  el("line", { x1: 0, y1: ph / 2, x2: w, y2: ph / 2, class: "g-mid" }, svg);
  for (const m of moveTicks(n, Math.floor((w - 2 * pad) / 36))) {
    el("line", { x1: x(2 * m), y1: 0, x2: x(2 * m), y2: ph, class: "g-tick" }, svg);
    el("text", { x: Math.min(x(2 * m), w - 10), y: h - 5, "text-anchor": "middle", class: "g-move" }, svg).textContent = m;
  }
  el("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "g-line" }, svg);
  el("line", { x1: x(cursor), y1: 0, x2: x(cursor), y2: ph, class: "g-cursor" }, svg);
  for (const mk of review.mistakes) {
    const k = mk.ply + 1;
    el("circle", { cx: x(k), cy: y(scores[k]), r: 4.5, class: "g-mistake" }, svg);
  }
  el("circle", { cx: x(cursor), cy: y(scores[cursor]), r: 4, class: "g-dot" }, svg);
  // Hit columns, one per position, on top.
  const col = n === 1 ? w : (w - 2 * pad) / (n - 1);
  for (let i = 0; i < n; i++) {
    const hit = el("rect", { x: x(i) - col / 2, y: 0, width: col, height: h, class: "g-hit", "data-cursor": i }, svg);
    hit.addEventListener("click", () => go(i));
  }
}

for (const [id, step] of [["step-first", () => 0], ["step-back", () => cursor - 1], ["step-forward", () => cursor + 1], ["step-last", () => review.moves.length]]) {
  document.getElementById(id).addEventListener("click", () => go(step()));
}
document.addEventListener("keydown", (ev) => {
  if (!review || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const to = { ArrowLeft: cursor - 1, ArrowRight: cursor + 1, ArrowUp: 0, Home: 0, ArrowDown: review.moves.length, End: review.moves.length }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  go(to);
});
window.addEventListener("resize", () => { if (review) drawGraph(); });

let toastTimer = null;
function toast(text) {
  const t = document.getElementById("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 3000);
}

// nextPuzzle asks for a new puzzle; its board starts over at ply 0, so the
// old one is dropped first (show keeps a newer ply over an older one).
async function nextPuzzle(streak) {
  if (busy) return;
  busy = true;
  try {
    const { status, data } = await api("POST", "/next" + (streak ? "?streak=" + streak : ""));
    if (status === 200) {
      game = null;
      show(data);
    } else {
      toast((data && data.error) || "HTTP " + status);
    }
  } catch (e) {
    toast(String(e));
  } finally {
    busy = false;
  }
}

// playLine plays an ended puzzle's line through on the board, move by
// move, from the end of its solution: each move animated, then the
// position the server sent after it drawn. data-line-step counts the
// moves shown (tests wait on it).
async function playLine() {
  if (!game || !game.line || !game.line.length || animating) return;
  const steps = game.line;
  let view = Object.assign({}, game, { position: game.line_from, last: undefined });
  document.body.dataset.lineStep = "0";
  render(view);
  for (let i = 0; i < steps.length; i++) {
    await animate(steps[i].move);
    view = Object.assign({}, view, { position: steps[i].position, last: steps[i].move });
    render(view);
    document.body.dataset.lineStep = String(i + 1);
  }
}

// ---- start -------------------------------------------------------------

async function start() {
  if (!gameID) {
    openLobby();
    return;
  }
  document.body.dataset.view = "game";
  const { status, data } = await api("GET", "");
  if (status !== 200) {
    document.getElementById("status").textContent = (data && data.error) || "HTTP " + status;
    document.body.dataset.error = String(status);
    return;
  }
  if (puzzleMode) {
    reviewAsked = true; // a puzzle has no analysis to ask for
    show(data);
    return;
  }
  show(data);
  listen();
}
// Started once every script is in (lobby.js comes after this one).
document.addEventListener("DOMContentLoaded", start);
