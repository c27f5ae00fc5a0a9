"use strict";
// The lobby: a form to start a game (no JSON to type), the tables to join or watch.
let presets = [];
const FRIENDLY_BOT = ["heuristic", "ev", "random"]; // the first of these a game has seats a new bot

function gameTitle(name) { const p = presets.find((each) => each.name === name); return p ? p.title : name; }
function preset() { return presets.find((p) => p.name === $("preset").value); }

function setField(id, field, label) {
  const input = $(id);
  input.min = field.min; input.max = field.max; input.value = field.value;
  input.dataset.key = field.key;
  if (label) $(label).textContent = field.key === "races" ? "Races" : field.key === "rounds" ? "Rounds" : "Starting money";
}

function choosePreset() {
  const p = preset();
  if (!p) return;
  $("preset-summary").textContent = p.summary;
  setField("players", p.fields.players);
  if (p.name === "classic") $("players").value = 4; // a quick first game: you and three bots
  setField("rounds", p.fields.rounds, "rounds-label");
  setField("money", p.fields.money);
  $("money-label").textContent = p.money === "cents" ? "Starting money (cents)" : p.money === "dollars" ? "Starting money ($)" : "Starting chips";
  const styles = { book: "the dealer's book: fixed prices by the course", tote: "the tote: stakes pooled, winners share", party: "party prizes: no stakes, prizes for 1st, 2nd, 3rd" };
  $("betting").innerHTML = p.betting.map((b) => `<option value="${esc(b)}">${esc(styles[b] || b)}</option>`).join("");
  if (p.betting.includes(p.options.betting)) $("betting").value = p.options.betting;
  $("betting-box").hidden = !p.betting.length;
  $("house").innerHTML = "";
  for (const rule of p.house_rules) {
    const label = document.createElement("label");
    label.className = "inline";
    label.title = rule.summary;
    label.innerHTML = `<input type="checkbox" name="house" value="${esc(rule.name)}"> ${esc(rule.title)} <span class="muted">${esc(rule.summary)}</span>`;
    label.querySelector("input").onchange = offerHouseRules;
    $("house").appendChild(label);
  }
  $("house-box").hidden = !p.house_rules.length;
  drawSeats();
}

function offerHouseRules() {
  // only combinations the rules accept stay on offer
  const p = preset();
  const chosen = [...document.querySelectorAll('input[name="house"]:checked')].map((box) => box.value);
  const valid = p.house_combinations.map((combo) => combo.join(","));
  for (const box of document.querySelectorAll('input[name="house"]')) {
    if (box.checked) continue;
    const names = p.house_rules.map((r) => r.name).filter((n) => chosen.includes(n) || n === box.value);
    box.disabled = !valid.includes(names.join(","));
    box.parentElement.classList.toggle("unavailable", box.disabled);
  }
}

function drawSeats(fresh) {
  const p = preset();
  const count = Math.max(0, Math.min(Number($("players").value) || 0, p.fields.players.max));
  const before = fresh === true ? [] : [...document.querySelectorAll("#seat-list select")].map((s) => s.value);
  const bot = FRIENDLY_BOT.find((b) => p.bots.includes(b)) || p.bots[0];
  $("seat-list").innerHTML = "";
  for (let seat = 0; seat < count; seat++) {
    const item = document.createElement("li");
    if (seat === 0 && $("play-myself").checked) {
      item.innerHTML = `<span>Seat 1: <b>you</b></span>`;
    } else {
      const options = [`<option value="open">a person (invite them)</option>`]
        .concat(p.bots.map((b) => `<option value="${esc(b)}">${esc(b)} bot</option>`));
      item.innerHTML = `<label>Seat ${seat + 1} <select data-seat="${seat}">${options.join("")}</select></label>`;
      const select = item.querySelector("select");
      select.value = before[seat - ($("play-myself").checked ? 1 : 0)] || ($("companion").checked ? "open" : bot);
      if ($("companion").checked) {
        // the people at the real board: their names, said in the log and on the board
        const name = document.createElement("input");
        Object.assign(name, { className: "seat-name", maxLength: 30, placeholder: "their name" });
        name.dataset.seat = seat;
        name.setAttribute("aria-label", `Seat ${seat + 1}: name of the person at the board`);
        item.querySelector("label").appendChild(name);
      }
    }
    $("seat-list").appendChild(item);
  }
}

function numberProblem(id, what) {
  const input = $(id);
  const value = Number(input.value);
  if (!Number.isInteger(value) || value < Number(input.min) || value > Number(input.max)) {
    return `${what} must be a whole number from ${input.min} to ${input.max}.`;
  }
  return "";
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  $("name-error").textContent = "";
  const playing = $("play-myself").checked;
  const name = $("name").value.trim();
  if (playing) {
    const wrong = nameProblem(name);
    if (wrong) { $("name-error").textContent = wrong; $("name").focus(); return; }
  }
  const wrong = numberProblem("players", "Players") || numberProblem("rounds", $("rounds-label").textContent) || numberProblem("money", "Starting money");
  if (wrong) { $("create-error").textContent = wrong; return; }
  const p = preset();
  const options = {};
  for (const id of ["players", "rounds", "money"]) options[$(id).dataset.key] = Number($(id).value);
  if (p.betting.length) options.betting = $("betting").value;
  for (const box of document.querySelectorAll('input[name="house"]:checked')) {
    Object.assign(options, p.house_rules.find((r) => r.name === box.value).options);
  }
  const seats = [];
  for (let seat = 0; seat < options.players; seat++) {
    const select = document.querySelector(`#seat-list select[data-seat="${seat}"]`);
    seats.push(select ? select.value : "open");
  }
  const button = event.submitter || document.querySelector("#create button");
  button.disabled = true;
  try {
    const created = await api("POST", "/api/tables", {
      preset: p.name, title: $("title").value, seats, options,
      turn_seconds: Number($("turn").value), companion: $("companion").checked, pace: $("pace").value,
      private: $("private").checked,
      names: $("companion").checked ? [...Array(options.players).keys()].map((seat) => {
        const name = document.querySelector(`.seat-name[data-seat="${seat}"]`);
        return name ? name.value.trim() : "";
      }) : null,
    });
    const id = created.table.id;
    Held.setHost(id, created.host_token);
    if (playing) {
      Held.setName(name);
      const joined = await api("POST", `/api/tables/${id}/join`, { name, seat: 0 });
      Held.add(id, joined.seat, joined.token);
    }
    location.href = `/table/${id}`;
  } catch (error) {
    $("create-error").textContent = "The table was not created: " + error.message;
  } finally {
    button.disabled = false;
  }
}

async function goToRoom(event) {
  // a room code said aloud or read off the host's screen: the table it names
  event.preventDefault();
  const code = $("room-code").value.replace(/[^a-z]/gi, "").toUpperCase();
  $("room-error").textContent = code.length === 5 ? "" : "A room code is five letters, e.g. KFRTW.";
  if (code.length !== 5) { $("room-code").focus(); return; }
  try {
    const found = await api("GET", `/api/rooms/${code}`);
    location.href = `/table/${found.table}`;
  } catch (error) {
    $("room-error").textContent = error.message;
  }
}

function statusWords(t) {
  if (t.status === "waiting") {
    const open = t.open_seats.length;
    return `waiting for ${open} player${open === 1 ? "" : "s"}`;
  }
  if (t.status === "over") return "finished";
  const key = t.config.rounds !== undefined ? "rounds" : "races";
  const of = t.config[key];
  return t.race ? `playing, ${key === "rounds" ? "round" : "race"} ${t.race}${of ? " of " + of : ""}` : "playing";
}

// The tables: the first page and then every change pushed over /ws/lobby (no polling);
// older ones a page at a time. A dropped lobby socket is opened again.
let shown = new Map(); // table id -> its lobby line
let nextPage = null;
let lobby = null;

function query() {
  const q = new URLSearchParams({ status: $("filter-state").value });
  if ($("filter-preset").value) q.set("preset", $("filter-preset").value);
  return q;
}

function listen() {
  if (lobby) { lobby.onclose = null; lobby.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby?${query()}`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "tables") {
      shown = new Map(message.tables.map((t) => [t.id, t]));
      nextPage = message.next;
    } else if (message.type === "tables-changed") {
      for (const t of message.tables) {
        if (t.matches) shown.set(t.id, t); else shown.delete(t.id);
      }
    } else return;
    drawTables();
  };
  socket.onclose = () => { setTimeout(listen, 3000); };
  lobby = socket;
}

async function moreTables() {
  const q = query();
  q.set("before", nextPage);
  const response = await fetch("/api/tables?" + q);
  if (!response.ok) return;
  for (const t of await response.json()) shown.set(t.id, t);
  nextPage = response.headers.get("X-Next-Page");
  drawTables();
}

function drawTables() {
  const tables = [...shown.values()].sort((a, b) => b.created - a.created);
  $("tables").innerHTML = "";
  $("no-tables").hidden = tables.length > 0;
  $("more-tables").hidden = !nextPage;
  for (const t of tables) {
    const item = document.createElement("li");
    item.className = "table-line";
    item.dataset.table = t.id;
    const players = t.seats.map((s) => s.kind === "open" ? "(open seat)" : s.name).join(", ");
    item.innerHTML = `<div><b class="game"></b> <span class="title"></span></div><div class="muted state"></div><div class="who"></div><div class="go"></div>`;
    item.querySelector(".game").textContent = gameTitle(t.preset);
    item.querySelector(".title").textContent = t.title;
    item.querySelector(".state").textContent = statusWords(t);
    item.querySelector(".who").textContent = players;
    const go = item.querySelector(".go");
    const held = Object.keys(Held.seats(t.id));
    if (held.length || Held.host(t.id)) {
      const open = document.createElement("a");
      open.href = "/table/" + t.id;
      open.className = "button primary";
      open.textContent = "Back to my table";
      go.appendChild(open);
    }
    if (t.status === "waiting" && t.open_seats.length && !t.companion) {
      const join = document.createElement("button");
      join.textContent = "Join";
      join.setAttribute("aria-label", `Join ${gameTitle(t.preset)} table ${t.title}`.trim());
      join.onclick = () => joinAs(t.id, null, "name", "name-error", join);
      go.appendChild(join);
    }
    const watch = document.createElement("a");
    watch.href = "/table/" + t.id;
    watch.className = "button";
    watch.textContent = "Watch";
    go.appendChild(watch);
    $("tables").appendChild(item);
  }
}

async function start() {
  $("name").value = Held.name();
  presets = (await api("GET", "/api/presets")).sort((a, b) => a.title.localeCompare(b.title));
  const options = presets.map((p) => `<option value="${esc(p.name)}">${esc(p.title)}</option>`).join("");
  $("preset").innerHTML = options;
  $("filter-preset").innerHTML += options;
  $("preset").value = "classic";
  choosePreset();
  drawTables(); // the games' names are known now
}

$("preset").onchange = choosePreset;
$("players").oninput = drawSeats;
$("play-myself").onchange = drawSeats;
$("companion").onchange = () => drawSeats(true); // the people at a real board fill its seats
$("filter-state").onchange = listen;
$("filter-preset").onchange = listen;
$("more-tables").onclick = moreTables;
$("create").onsubmit = create;
$("room-form").onsubmit = goToRoom;
listen();
start();
