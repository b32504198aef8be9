// The lobby: the page opened without a game starts one. Against the AI:
// the rules, the level and the colour, sent to POST api/lobby/ai; the
// answer is the new game, whose board the page then shows (app.js). A
// friend is challenged through the bot's inline mode in a chat the player
// picks. The player's games in progress are listed to reopen.
"use strict";

const lobbyPick = { rules: "bashni", level: 3, color: "white" };
let lobbyData = null; // the server's lobby: choices, texts, games
let lobbyBusy = false;

// The last choices are kept on the device, so a player who plays level 7
// finds level 7 next time.
function loadPick() {
  try {
    Object.assign(lobbyPick, JSON.parse(localStorage.getItem("bashni.lobby") || "{}"));
  } catch { /* no storage here, or a broken entry: the defaults */ }
}

function savePick() {
  try { localStorage.setItem("bashni.lobby", JSON.stringify(lobbyPick)); } catch { /* not kept */ }
}

async function lobbyAPI(method, path, body) {
  return request(method, "api/lobby" + path, body);
}

// openLobby leaves the game shown, if any, for the lobby.
async function openLobby() {
  if (stream) stream.abort();
  stream = null;
  gameID = "";
  game = null;
  review = null;
  reviewAsked = false;
  clockBase = null;
  const back = tg() && tg().BackButton;
  if (back) back.hide();
  document.getElementById("app").hidden = true;
  document.getElementById("lobby").hidden = false;
  document.body.dataset.view = "lobby";
  loadPick();
  let status = 0, data = null;
  try {
    ({ status, data } = await lobbyAPI("GET", ""));
  } catch (e) {
    document.getElementById("lobby-error").textContent = String(e); // offline: reopening is the cure
    return;
  }
  if (status !== 200) {
    document.getElementById("lobby-error").textContent = (data && data.error) || "HTTP " + status;
    document.body.dataset.error = String(status);
    return;
  }
  lobbyData = data;
  document.documentElement.lang = data.lang;
  if (!data.rules.some((r) => r.id === lobbyPick.rules)) lobbyPick.rules = data.rules[0].id;
  if (!data.colors.some((c) => c.id === lobbyPick.color)) lobbyPick.color = data.colors[0].id;
  lobbyPick.level = Math.max(1, Math.min(data.levels.length, Number(lobbyPick.level) || 3));
  drawLobby();
  document.body.dataset.lobby = "ready"; // tests wait on this
}

function drawLobby() {
  const d = lobbyData, t = d.texts;
  document.title = t.app_lobby_title;
  document.getElementById("lobby-title").textContent = t.app_lobby_title;
  document.getElementById("lobby-rules-label").textContent = t.app_lobby_rules;
  document.getElementById("lobby-level-label").textContent = t.app_lobby_level;
  document.getElementById("lobby-color-label").textContent = t.app_lobby_color;
  segments("lobby-rules", d.rules, "rules");
  segments("lobby-colors", d.colors, "color");
  const rules = d.rules.find((r) => r.id === lobbyPick.rules);
  document.getElementById("lobby-rules-long").textContent = rules.long;
  const range = document.getElementById("level");
  range.max = String(d.levels.length);
  range.value = String(lobbyPick.level);
  drawLevel();
  const startBtn = document.getElementById("lobby-start");
  startBtn.textContent = lobbyBusy ? t.app_lobby_starting : t.app_lobby_start;
  startBtn.disabled = lobbyBusy;
  drawFriend();
  drawGames();
}

// segments fills a row of buttons of which one is chosen: lobbyPick[key].
function segments(id, choices, key) {
  const box = document.getElementById(id);
  box.textContent = "";
  for (const c of choices) {
    const b = document.createElement("button");
    b.type = "button";
    if (key === "color") { // a disc of the colour before its name
      const disc = document.createElement("span");
      disc.className = "disc " + c.id;
      b.appendChild(disc);
    }
    b.appendChild(document.createTextNode(c.name));
    b.dataset.id = c.id;
    b.setAttribute("role", "radio");
    b.setAttribute("aria-checked", String(c.id === lobbyPick[key]));
    b.addEventListener("click", () => {
      lobbyPick[key] = c.id;
      savePick();
      drawLobby();
    });
    box.appendChild(b);
  }
}

function drawLevel() {
  const lv = lobbyData.levels[lobbyPick.level - 1];
  document.getElementById("level-num").textContent = lv.id;
  document.getElementById("level-name").textContent = lv.name;
  document.getElementById("level-down").disabled = lobbyPick.level <= 1;
  document.getElementById("level-up").disabled = lobbyPick.level >= lobbyData.levels.length;
  document.getElementById("level").value = String(lobbyPick.level);
}

function setLevel(n) {
  lobbyPick.level = Math.max(1, Math.min(lobbyData.levels.length, n));
  savePick();
  drawLevel();
}

document.getElementById("level").addEventListener("input", (ev) => setLevel(Number(ev.target.value)));
document.getElementById("level-down").addEventListener("click", () => setLevel(lobbyPick.level - 1));
document.getElementById("level-up").addEventListener("click", () => setLevel(lobbyPick.level + 1));

// canShare says whether Telegram can switch to the bot's inline mode in a
// chat the player picks (Bot API 6.7 and later).
function canShare() {
  const w = tg();
  return !!(w && typeof w.switchInlineQuery === "function" && (!w.isVersionAtLeast || w.isVersionAtLeast("6.7")));
}

function drawFriend() {
  const t = lobbyData.texts;
  const b = document.getElementById("lobby-friend");
  const note = document.getElementById("lobby-friend-note");
  b.textContent = t.app_lobby_friend;
  b.hidden = !canShare();
  note.textContent = canShare() ? t.app_lobby_friend_hint : t.app_lobby_friend_off;
}

// challengeFriend asks Telegram to type "@bot <rules>" in a chat the
// player picks: the bot's inline mode offers the challenge there (as White,
// Black or by lot) under these rules.
document.getElementById("lobby-friend").addEventListener("click", () => {
  const query = lobbyPick.rules === "bashni" ? "" : lobbyPick.rules;
  try {
    tg().switchInlineQuery(query, ["users", "groups"]);
  } catch (e) {
    // The bot's inline mode is off, or this Telegram cannot: say how else.
    document.getElementById("lobby-friend").hidden = true;
    document.getElementById("lobby-friend-note").textContent = lobbyData.texts.app_lobby_friend_off;
  }
});

// drawCourse shows the player's progress in the course (/learn, in the
// bot's chat): the lesson, the stars, and each stage's stars.
function drawCourse() {
  const c = lobbyData.course, el = document.getElementById("lobby-course");
  el.textContent = c ? c.line + "\n" + c.stages.map((s) => s.name + " ⭐ " + s.stars + "/" + s.tasks).join(" · ") : "";
}

function drawGames() {
  drawCourse();
  const t = lobbyData.texts;
  const list = document.getElementById("lobby-games");
  list.textContent = "";
  document.getElementById("lobby-games-label").textContent = lobbyData.games.length ? t.app_lobby_games : "";
  for (const g of lobbyData.games) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.game = g.id;
    const name = document.createElement("span");
    name.className = "who";
    name.textContent = g.opponent + (g.rules ? " · " + g.rules : "");
    const turn = document.createElement("span");
    turn.className = g.your_move ? "turn" : "turn theirs";
    turn.textContent = g.your_move ? t.app_your_move : t.app_lobby_their_move;
    b.append(name, turn);
    b.addEventListener("click", () => enterGame(g.id, null));
    li.appendChild(b);
    list.appendChild(li);
  }
}

document.getElementById("lobby-start").addEventListener("click", async () => {
  if (lobbyBusy) return;
  lobbyBusy = true;
  drawLobby();
  try {
    const { status, data } = await lobbyAPI("POST", "/ai", { rules: lobbyPick.rules, level: lobbyPick.level, color: lobbyPick.color });
    if (status === 200) {
      lobbyBusy = false;
      enterGame(data.id, data);
      return;
    }
    toast((data && data.error) || "HTTP " + status);
  } catch (e) {
    toast(String(e));
  }
  lobbyBusy = false;
  drawLobby();
});

// enterGame leaves the lobby for game id's live board: st is its state if
// the server has sent it already (a game just started). Telegram's back
// button returns to the lobby.
async function enterGame(id, st) {
  gameID = id;
  if (!st) {
    let status = 0, data = null;
    try {
      ({ status, data } = await api("GET", ""));
    } catch (e) {
      data = { error: String(e) };
    }
    if (status !== 200) {
      toast((data && data.error) || "HTTP " + status);
      gameID = "";
      return;
    }
    st = data;
  }
  document.getElementById("lobby").hidden = true;
  document.getElementById("app").hidden = false;
  document.body.dataset.view = "game";
  const back = tg() && tg().BackButton;
  if (back) {
    back.onClick(backToLobby);
    back.show();
  }
  show(st);
  listen();
}

function backToLobby() {
  const back = tg() && tg().BackButton;
  if (back) back.offClick(backToLobby);
  openLobby();
}
