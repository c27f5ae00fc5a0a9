"use strict";
// The table client: one WebSocket, the drawn table (board.js), the log in words, actions as buttons.
// The token is read from localStorage and sent in the first message, never in a URL.
const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const token = localStorage.getItem("horserace.seat." + tableId);
const hostToken = localStorage.getItem("horserace.host." + tableId);
let version = null; // the last version seen; a fresh page asks for the whole log (since 0)
let names = [];
let socket = null;
let retry = 500;
let lastDice = null; // the last dice-rolled event seen, drawn beside the board
let diceStamp = 0;
let lastState = null;

function requestId() {
  return (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function log(events, mark) {
  for (const event of events) {
    if (event.type === "dice-rolled") { lastDice = event; diceStamp += 1; }
    const line = document.createElement("div");
    line.textContent = event.text;
    $("log").prepend(line);
  }
  while ($("log").children.length > 300) $("log").lastChild.remove();
}

function showSeats(seats) {
  names = seats.map((s) => s.name || "P" + (s.seat + 1));
  $("seats").innerHTML = "";
  for (const s of seats) {
    const row = document.createElement("tr");
    const how = s.kind === "human" ? (s.away ? "away (bot plays)" : s.connected ? "here" : "dropped") : s.kind;
    row.innerHTML = "<td></td><td></td><td></td>";
    row.children[0].textContent = "P" + (s.seat + 1);
    row.children[1].textContent = s.name;
    row.children[2].textContent = how;
    $("seats").appendChild(row);
  }
}

function compact(value) {
  // one key a line, but short lists of plain values (hands, chips, lanes) on one line
  return JSON.stringify(value, null, 1).replace(/\[[^\[\]{}]*\]/g, (list) => list.replace(/\s+/g, " "));
}

function showState(state) {
  $("status").textContent = state.status;
  lastState = state;
  $("view").textContent = compact(state.view);
  try {
    Board.draw($("board"), state.view, { names, lastDice, diceStamp, actor: state.actor, odds: state.odds });
  } catch (error) {
    $("board").textContent = "The table could not be drawn (" + error.message + "); the view is below.";
  }
  $("actions").innerHTML = "";
  for (const text of state.legal) {
    const button = document.createElement("button");
    button.textContent = text;
    button.onclick = () => {
      $("error").textContent = "";
      send({ type: "act", action: text, version, request_id: requestId() });
    };
    $("actions").appendChild(button);
  }
  if (!state.legal.length) {
    const whose = typeof state.actor === "number" ? names[state.actor] || "P" + (state.actor + 1) : state.actor;
    $("actions").textContent = state.status === "over" ? "The game is over." : `Waiting for ${whose}.`;
  }
  if (state.seed !== null) {
    $("seed").textContent = state.seed;
    $("record").hidden = false;
    $("record").href = `/api/tables/${tableId}/record`;
    $("verify").hidden = false;
    $("verify").href = "#";
    $("verify").onclick = async (click) => {
      click.preventDefault();
      const answer = await (await fetch(`/api/tables/${tableId}/verify`)).json();
      $("verdict").textContent = answer.verified
        ? `verified: all ${answer.draws} draws come from the seed, which matches the hash shown before play`
        : `NOT verified: ${(answer.problems || [answer.detail]).join("; ")}`;
    };
  }
  $("start").hidden = state.status !== "waiting";
}

function receive(message) {
  if (message.version !== undefined && message.version !== null && message.type !== "error") {
    version = message.version;
    $("version").textContent = version;
  }
  if (message.type === "welcome") {
    $("title").textContent = `${message.preset}${message.title ? ": " + message.title : ""}`;
    $("seed-hash").textContent = message.seed_hash;
    $("you").textContent = message.seat === null ? "watching" : "you are P" + (message.seat + 1);
    $("host").hidden = !message.host;
    $("undo").hidden = !message.companion;
    $("leave").hidden = message.seat === null;
    showSeats(message.seats);
    if (message.resync) $("log").innerHTML = "";
    for (const missed of message.missed) log(missed.events);
    showState(message.state);
  } else if (message.type === "update") {
    log(message.events);
    showState(message.state);
  } else if (message.type === "undone") {
    log([{ text: "The last action was undone." }]);
    showState(message.state);
  } else if (message.type === "seats") {
    showSeats(message.seats);
    $("status").textContent = message.status;
    if (lastState) showState(lastState);
  } else if (message.type === "error") {
    $("error").textContent = `${message.code}: ${message.message}`;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`);
  socket.onopen = () => {
    retry = 500;
    const hello = { type: "hello" };
    if (token) hello.token = token;
    if (hostToken) hello.host_token = hostToken;
    hello.since = version === null ? 0 : version;
    socket.send(JSON.stringify(hello));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => { setTimeout(connect, retry); retry = Math.min(retry * 2, 10000); };
}

async function post(path, bearer) {
  const response = await fetch(path, { method: "POST", headers: { Authorization: "Bearer " + bearer } });
  if (!response.ok) $("error").textContent = (await response.json()).detail;
}

$("start").onclick = () => post(`/api/tables/${tableId}/start`, hostToken);
$("undo").onclick = () => send({ type: "undo", version });
$("leave").onclick = async () => {
  await post(`/api/tables/${tableId}/leave`, token);
  localStorage.removeItem("horserace.seat." + tableId);
  location.reload();
};
connect();
