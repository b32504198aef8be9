// Conditional moves on the board (issue 42): while the opponent is to move
// in a game at days per move, "If…" lets the player play the reply they
// expect and their answer, pair after pair, and save the line. The page
// has no rules: the server answers each step's board (line/try) and keeps
// the line (line) with the checks of /if.
"use strict";

// ifMode is the line being entered: its moves, and the board after them
// as the server sent it ({position, last, legal}); null when not entering.
let ifMode = null;

async function ifStep(moves) {
  busy = true;
  try {
    const { status, data } = await api("POST", "/line/try", { moves });
    if (status !== 200) { toast((data && data.error) || "HTTP " + status); return; }
    ifMode = { moves, position: data.position, last: data.last || null, legal: data.legal };
    document.body.dataset.ifMoves = String(moves.length); // tests wait on it
  } catch (e) {
    toast(String(e));
  } finally {
    busy = false;
  }
  pick = null;
  drawBoard();
  drawHint();
  drawActions();
}

// ifPlay adds the move chosen on the board to the line being entered.
function ifPlay(move) { ifStep(ifMode.moves.concat([move])); }

function ifStop() {
  ifMode = null;
  pick = null;
  delete document.body.dataset.ifMoves;
  drawBoard();
  drawHint();
  drawActions();
}

// ifSave leaves the line entered; a line refused stays on the board to
// be mended or cancelled.
async function ifSave(moves) {
  if (busy) return;
  busy = true;
  try {
    const { status, data } = await api("POST", "/line", { moves });
    if (status !== 200) { toast((data && data.error) || "HTTP " + status); return; }
    ifMode = null;
    delete document.body.dataset.ifMoves;
    show(data);
  } catch (e) {
    toast(String(e));
  } finally {
    busy = false;
  }
}

// drawIf adds the line's buttons to the actions and shows the saved line.
function drawIf(box) {
  const t = game.texts;
  const shown = document.getElementById("if-line");
  const line = game.if_line || [];
  const pairs = [];
  for (let i = 0; i + 1 < line.length; i += 2) pairs.push(t.if_pair.replace("{a}", line[i]).replace("{b}", line[i + 1]));
  shown.textContent = pairs.length ? t.app_if_saved + " " + pairs.join("; ") : "";
  if (!game.if_ok) { ifMode = null; return; }
  if (ifMode) {
    const save = button(t.app_if_save, "", () => ifSave(ifMode.moves), "if-save");
    save.disabled = ifMode.moves.length === 0 || ifMode.moves.length % 2 !== 0;
    box.append(save, button(t.app_if_cancel, "secondary", ifStop, "if-cancel"));
    return;
  }
  box.append(button(t.app_if, "secondary", () => ifStep([]), "if-start"));
  if (pairs.length) box.append(button(t.app_if_clear, "secondary", () => act("/line", { moves: [] }), "if-clear"));
}
