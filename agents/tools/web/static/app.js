// The browser table: draws what the server sends (agents/tools/web/server.py) and sends back
// only an action id with the version it was drawn for, or a replay's index, step and view.
// Every text goes in with textContent (never as HTML).
"use strict";

const $ = (id) => document.getElementById(id);
let state = null; // the last table the server sent (play mode)
let config = null; // mode and replay files
let frame = null; // the last replay frame

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    return { ok: false, status: 0, data: { error: "the server is not answering (stopped?)" } };
  }
  let data = {};
  try {
    data = await response.json();
  } catch (err) {
    data = { error: `the server sent no JSON (${response.status})` };
  }
  return { ok: response.ok, status: response.status, data };
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function showError(id, message) {
  const box = $(id);
  box.textContent = message || "";
  box.hidden = !message;
}

// ---- play ------------------------------------------------------------------------------------

function drawPlayers(s) {
  const body = $("players").tBodies[0];
  body.replaceChildren();
  $("score-name").textContent = s.score_name;
  const winners = s.result ? s.result.winners : [];
  s.players.forEach((name, seat) => {
    const row = el("tr");
    if (seat === s.seat) row.classList.add("you");
    if (winners.includes(seat)) row.classList.add("won");
    row.append(el("td", `seat ${seat}`), el("td", name));
    const score = Array.isArray(s.scores) ? String(s.scores[seat]) : "";
    row.append(el("td", score, "score"));
    body.append(row);
  });
}

function drawNarration(lines) {
  const list = $("narration");
  list.replaceChildren(...lines.map((line) => el("li", line, line.startsWith("you") ? "mine" : "")));
  list.scrollTop = list.scrollHeight;
}

function drawActions(s) {
  const box = $("actions");
  box.replaceChildren();
  for (const action of s.legal) {
    const button = el("button");
    button.type = "button";
    button.dataset.id = String(action.id);
    button.append(el("span", String(action.id), "id"), el("span", action.text, "text"));
    button.addEventListener("click", onAction);
    box.append(button);
  }
  $("prompt").textContent = s.to_move ? `your move (${s.decision})` : s.over ? "game over" : "waiting";
  $("turn").hidden = s.over;
}

function drawEnd(s) {
  $("end").hidden = !s.over;
  if (!s.over) return;
  $("verdict").textContent = s.result.verdict;
  $("final").textContent = `scores ${JSON.stringify(s.result.scores)}, seed ${s.seed}`;
  $("replay-path").textContent = s.replay ? `replay saved: ${s.replay}` : "not recorded";
  $("watch").hidden = !s.replay;
}

function draw(s) {
  state = s;
  $("title").textContent = `${s.game}: you are seat ${s.seat} of ${s.players.length}`;
  $("render").textContent = s.render;
  const picture = $("picture");
  if (picture.getAttribute("src") !== s.picture) picture.src = s.picture;
  drawActions(s);
  drawPlayers(s);
  drawNarration(s.narration);
  drawEnd(s);
  document.body.dataset.version = String(s.version);
}

async function onAction(event) {
  const id = Number(event.currentTarget.dataset.id);
  for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
  const r = await api("/api/play", { action: id, version: state.version });
  if (r.data.state || r.ok) draw(r.ok ? r.data : r.data.state);
  showError("error", r.ok ? "" : `refused: ${r.data.error}`);
  if (!r.ok && !r.data.state) {
    for (const b of $("actions").querySelectorAll("button")) b.disabled = false;
  }
  document.body.dataset.answers = String(Number(document.body.dataset.answers || 0) + 1);
}

async function newGame() {
  const r = await api("/api/new", {});
  showError("error", r.ok ? "" : r.data.error);
  if (r.ok) draw(r.data);
}

async function watch() {
  const r = await api("/api/watch", {});
  if (!r.ok) {
    showError("error", r.data.error);
    return;
  }
  config = r.data;
  showReplay(config.replays.length - 1, "full");
}

function showTable() {
  $("replay").hidden = true;
  $("table").hidden = false;
  $("to-table").hidden = true;
  if (state) draw(state);
}

// ---- replay ----------------------------------------------------------------------------------

function fillReplayChoices(file) {
  const files = $("replay-file");
  files.replaceChildren(
    ...config.replays.map((f) => {
      const option = el("option", `${f.name} (${f.game}, ${f.steps} actions)`);
      option.value = String(f.index);
      return option;
    }),
  );
  files.value = String(file);
  const seats = $("replay-seat");
  const info = config.replays[file];
  const options = [["full", "full view (every card)"]];
  info.players.forEach((p, s) => options.push([String(s), `seat ${s} (${p})`]));
  seats.replaceChildren(
    ...options.map(([value, text]) => {
      const option = el("option", text);
      option.value = value;
      return option;
    }),
  );
  const step = $("step");
  step.max = String(info.steps);
}

async function loadFrame(file, step, seat) {
  const query = new URLSearchParams({ file: String(file), step: String(step), seat });
  const r = await api(`/api/replay?${query}`);
  if (!r.ok) {
    showError("replay-error", r.data.error);
    return;
  }
  showError("replay-error", "");
  frame = r.data;
  $("title").textContent = `replay: ${frame.name}`;
  $("replay-head").textContent = frame.head;
  $("replay-render").textContent = frame.render;
  $("replay-picture").src = frame.picture;
  $("step").value = String(frame.step);
  $("replay-seat").value = frame.seat;
  const res = frame.result;
  $("replay-result").textContent = res
    ? `result: scores ${JSON.stringify(res.scores)}, winners ${JSON.stringify(res.winners)}`
    : frame.stopped || (frame.step === frame.steps ? "(the game was not finished)" : "");
  $("prev").disabled = frame.step === 0;
  $("first").disabled = frame.step === 0;
  $("next").disabled = frame.step === frame.steps;
  $("last").disabled = frame.step === frame.steps;
  document.body.dataset.step = String(frame.step);
}

function showReplay(file, seat) {
  $("table").hidden = true;
  $("replay").hidden = false;
  $("to-table").hidden = config.mode !== "play";
  fillReplayChoices(file);
  loadFrame(file, 0, seat);
}

function go(step) {
  if (!frame) return;
  const target = Math.max(0, Math.min(frame.steps, step));
  loadFrame(frame.file, target, $("replay-seat").value);
}

// ---- start -----------------------------------------------------------------------------------

async function start() {
  $("new-game").addEventListener("click", newGame);
  $("watch").addEventListener("click", watch);
  $("to-table").addEventListener("click", showTable);
  $("prev").addEventListener("click", () => go(frame.step - 1));
  $("next").addEventListener("click", () => go(frame.step + 1));
  $("first").addEventListener("click", () => go(0));
  $("last").addEventListener("click", () => go(frame.steps));
  $("step").addEventListener("input", (e) => go(Number(e.target.value)));
  $("replay-seat").addEventListener("change", (e) => loadFrame(frame.file, frame.step, e.target.value));
  $("replay-file").addEventListener("change", (e) => {
    fillReplayChoices(Number(e.target.value));
    loadFrame(Number(e.target.value), 0, "full");
  });
  document.addEventListener("keydown", (e) => {
    if ($("replay").hidden || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") go(frame.step - 1);
    if (e.key === "ArrowRight") go(frame.step + 1);
  });
  const r = await api("/api/config");
  config = r.data;
  if (config.mode === "play") {
    const s = await api("/api/state");
    $("table").hidden = false;
    draw(s.data);
  } else {
    showReplay(0, "full");
  }
}

window.cardarena = { draw, state: () => state };
start();
