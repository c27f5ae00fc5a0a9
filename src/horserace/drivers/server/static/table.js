"use strict";
// The table page: one WebSocket, the drawn table (board.js), the moves (actions.js), what
// happened in words, chat, the end of the game. Tokens come from localStorage and go only in
// the first message, never in a URL; a browser may hold several seats (?seat=N picks one).
// ?tv: the display for a big screen (a fundraiser's TV): it holds no seat and no host's
// token, shows the board, odds, log and results in large type, and has no controls; each
// person's phone holds their hand, bets and choices.
const tableId = location.pathname.split("/").pop();
const query = new URLSearchParams(location.search);
const tv = query.has("tv");
const wanted = query.get("seat");
let held = tv ? {} : Held.seats(tableId);
let token = held[wanted] || held[Object.keys(held).sort()[0]] || null;
const hostToken = tv ? null : Held.host(tableId);
if (tv) document.body.classList.add("tv");
let version = null; // the last version seen; a fresh page asks for the whole log (since 0)
let names = [];
let seats = [];
let socket = null;
let retry = 500;
let lastDice = null;
let diceStamp = 0;
let lastState = null;
let welcome = null;
let pending = null; // the request id of the move sent and not yet answered
let wasMyTurn = false;
let rebuilding = false; // after an undo the whole log is asked for again
const ICON = $("favicon").href;
const TURN_ICON = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%23e0a800'/%3E%3Ccircle cx='8' cy='8' r='3' fill='%23c0392b'/%3E%3C/svg%3E";

function requestId() {
  return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now();
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(message)); return true; }
  return false;
}

function act(text) {
  if (pending) return; // a second click while the first is on its way: nothing
  $("error").textContent = "";
  const id = requestId();
  if (!send({ type: "act", action: text, version, request_id: id })) {
    $("error").textContent = "Not connected; your move was not sent. Reconnecting…";
    return;
  }
  pending = id;
  Actions.disable($("action-bar"), true);
}

let titles = {}; // preset name -> the game's name in words (from /api/presets)
function gameTitle() { return welcome ? titles[welcome.preset] || welcome.preset : "horserace table"; }
function showTitle() {
  if (!welcome) return;
  $("title").textContent = `${gameTitle()}${welcome.title ? ": " + welcome.title : ""}`;
  if (!document.title.startsWith("●")) document.title = gameTitle();
}
api("GET", "/api/presets").then((list) => { titles = Object.fromEntries(list.map((p) => [p.name, p.title])); showTitle(); }).catch(() => {});

function nameOf(seat) { return names[seat] || "Seat " + (seat + 1); }
function unit(view) {
  if (view && view.config && view.config.money) return view.config.money;
  return (welcome && welcome.money) || "chips";
}

// The log's lines: the family's own news (the words a terminal prints) when the server sends
// them, else each event's own sentence.
function log(events, news) {
  for (const event of events) {
    if (event.type === "dice-rolled") { lastDice = event; diceStamp += 1; }
  }
  const lines = news && news.length ? news : events.map((event) => event.text);
  for (const text of lines) {
    const line = document.createElement("div");
    line.textContent = text;
    $("log").prepend(line);
  }
  while ($("log").children.length > 300) $("log").lastChild.remove();
}

function showSeats(list) {
  seats = list;
  names = list.map((s) => s.name || "Seat " + (s.seat + 1));
  $("seats").innerHTML = "";
  for (const s of list) {
    const row = document.createElement("tr");
    const how = s.kind === "human" ? (s.away ? "away: a bot plays for now" : s.connected ? "here" : "not connected")
      : s.kind === "bot" ? "bot" : "open seat";
    row.innerHTML = "<td></td><td></td><td></td><td></td>";
    row.dataset.seat = s.seat;
    row.children[0].textContent = "Seat " + (s.seat + 1);
    row.children[1].textContent = s.name || "-";
    row.children[2].textContent = how;
    // the host may let a bot play the seat of a person who is not here, and give it back
    const playing = lastState && lastState.status === "playing";
    if (playing && welcome && welcome.host && !tv && s.kind === "human" && s.seat !== mySeat() && (s.away || !s.connected)) {
      const hand = document.createElement("button");
      hand.type = "button";
      hand.textContent = s.away ? "Give the seat back" : "Let a bot play";
      hand.setAttribute("aria-label", `${hand.textContent}: ${names[s.seat]}`);
      hand.onclick = () => send({ type: "stand_in", seat: s.seat, on: !s.away });
      row.children[3].appendChild(hand);
    }
    $("seats").appendChild(row);
  }
  const me = list.find((s) => s.seat === mySeat());
  $("step-away").hidden = !me || !lastState || lastState.status !== "playing";
  $("step-away").textContent = me && me.away ? "I'm back: I play my seat" : "Step away: a bot plays for me";
  $("step-away").onclick = () => send({ type: "stand_in", seat: mySeat(), on: !(me && me.away) });
  showJoin();
}

function mySeat() { return welcome ? welcome.seat : null; }

function notice(state) {
  // whose turn, in players' words; spectators are never told "your move"
  const me = mySeat();
  const actor = state.actor;
  if (state.status === "waiting") {
    const open = seats.filter((s) => s.kind === "open").length;
    if (welcome && welcome.companion) return welcome.host ? "Start when the people at the board are ready." : "Waiting for the host to start.";
    return open ? `Waiting for ${open} more player${open === 1 ? "" : "s"}${welcome && welcome.host ? ": invite them, or start with bots" : ""}.` : "Starting…";
  }
  if (state.status === "over") return "The game is over.";
  if (state.reveal) return "The players' seeds for the dice are being revealed…";
  if (actor === "chance") {
    if (welcome && welcome.companion) return state.legal.length ? "Enter what the dice (or the deal) showed at the table." : "The dice are being entered at the table.";
    return "The dice are rolling…";
  }
  if (typeof actor === "number") {
    const mine = seats.find((s) => s.seat === me);
    if (actor === me && mine && mine.away) return "You stepped away: a bot plays your turns until you are back.";
    if (actor === me && state.legal.length) {
      return state.legal.length === 1 && state.legal[0] === "roll" ? "Your turn: roll the dice." : "Your turn: choose your move below.";
    }
    if (state.legal.length) return `Enter ${nameOf(actor)}'s move.`;
    const seat = seats[actor];
    const bot = seat && seat.kind === "bot" && !/bot\)?$/.test(nameOf(actor));
    return `Waiting for ${nameOf(actor)}${bot ? " (bot)" : ""}.`;
  }
  return "";
}

function turnSignals(mine) {
  document.title = (mine ? "● Your turn · " : "") + gameTitle();
  $("favicon").href = mine ? TURN_ICON : ICON;
  if (mine && !wasMyTurn && $("sound").checked) beep();
  wasMyTurn = mine;
}

function beep() {
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    gain.gain.value = 0.08;
    tone.frequency.value = 660;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.18);
  } catch (error) { /* no sound here */ }
}

function showEnd(state) {
  const over = state.status === "over" && state.result;
  $("end").hidden = !over;
  if (!over) return;
  const view = state.view;
  const money_unit = unit(view);
  $("standings").innerHTML = "";
  const ranked = [...state.result.standings].sort((a, b) => a.place - b.place || a.seat - b.seat);
  for (const s of ranked) {
    const row = document.createElement("tr");
    const notes = [];
    if (state.result.winners.includes(s.seat)) notes.push("winner");
    if (s.out) notes.push(`went out in round ${s.out}`);
    else if (view.out && view.out[s.seat]) notes.push("went out");
    if (s.seat === mySeat()) notes.push("you");
    row.dataset.seat = s.seat;
    row.innerHTML = "<td></td><td></td><td></td><td></td>";
    row.children[0].textContent = "#" + s.place;
    row.children[1].textContent = nameOf(s.seat);
    row.children[2].textContent = money(s.chips, money_unit);
    row.children[3].textContent = notes.join(", ");
    $("standings").appendChild(row);
  }
  const left = state.result.unclaimed;
  const bank = welcome && welcome.family === "derby"; // Derby's house money is the bank's, never a pot
  $("left-over").textContent = left ? (bank ? `The bank keeps ${money(left, money_unit)}.` : `Left in the pot: ${money(left, money_unit)} (not awarded).`) : bank ? "" : "Nothing is left in the pot.";
  $("again").hidden = !(welcome && welcome.host);
  $("again-note").textContent = welcome && welcome.host ? "" : "The host can start the next game with the same seats.";
}

function showState(state) {
  lastState = state;
  noteRace(state.view);
  if (state.reveal && FairSeed.reveal(tableId, mySeat(), state.reveal, send)) {
    $("seed-note").textContent = "Your seed is revealed: it matched your commitment.";
  }
  $("status").textContent = state.status;
  $("view").textContent = JSON.stringify(state.view, null, 1);
  try {
    const seen = welcome && welcome.companion && welcome.host ? Companion.asEntered(state.view) : state.view;
    Board.draw($("board"), seen, { family: welcome && welcome.family, names, lastDice, diceStamp, actor: state.actor, odds: state.odds, oddsDecimals: state.odds_decimals, oddsRough: state.odds_rough, unit: unit(state.view) });
  } catch (error) {
    $("board").textContent = "The table could not be drawn (" + error.message + ").";
  }
  pending = null;
  // bets at the card race's tote or book: a list of horses in the page, not a box of buttons
  // and the draft, a discard or a face card's power: chosen by tapping the cards
  const betting = Betting.fits(state.legal);
  const pick = Picker.split(betting ? [] : state.legal, state.actor === mySeat() && mySeat() !== null);
  $("action-bar").classList.toggle("betting", betting);
  Picker.draw($("picker"), pick.kind, pick.picked, state.view, act);
  const books = Boolean(welcome && welcome.companion && welcome.host); // a real board's books
  if (betting) Betting.draw($("actions"), state.legal, state.view, (amount) => money(amount, unit(state.view)), act);
  else if (!Companion.draw($("actions"), state, nameOf, act, books, () => showState(lastState))) {
    Actions.draw($("actions"), pick.rest, names, act, (text) => { $("error").textContent = text; }, state.entry);
  }
  if (books) Companion.step(state, act, (shown) => shown === lastState);
  const away = seats.some((s) => s.seat === mySeat() && s.away); // a bot plays for me now
  $("action-bar").hidden = !state.legal.length || away;
  // the seats (your hand among them) come after the move bar, which so never covers them;
  // your cards also ride in the bar on your turn (tappable when the choice is a card)
  $("seats-drawn").replaceChildren(...$("board").querySelectorAll(":scope .players"));
  const hand = $("seats-drawn").querySelector(".player.me .hand");
  const cards = hand && state.legal.length && state.actor === mySeat() && !pick.kind ? hand.querySelectorAll(".card") : [];
  $("bar-hand").hidden = !cards.length;
  $("bar-hand").innerHTML = cards.length ? `<span class="muted">Your cards:</span> ${hand.innerHTML}` : "";
  const mine = state.legal.length > 0 && state.actor === mySeat() && mySeat() !== null;
  $("notice").textContent = notice(state);
  $("notice").classList.toggle("mine", mine);
  turnSignals(mine || (state.legal.length > 0 && welcome && welcome.host));
  showClock();
  showEnd(state);
  if (state.seed !== null) {
    $("seed").textContent = state.seed;
    $("record").hidden = false;
    $("record").href = `/api/tables/${tableId}/record`;
    $("verify").hidden = false;
  }
  const allBots = seats.length && seats.every((s) => s.kind === "bot");
  $("skip-box").hidden = !(allBots && state.status === "playing");
  $("seed-form").hidden = !(welcome && welcome.seat !== null && !welcome.companion && state.status === "waiting");
  $("start").hidden = state.status !== "waiting";
  $("undo").hidden = !(welcome && welcome.companion && state.status !== "waiting");
  $("host").hidden = !(welcome && welcome.host) || ($("start").hidden && $("undo").hidden);
  if (state.status !== "waiting" && !(welcome && welcome.host && state.status === "waiting")) $("invite").hidden = true;
  showJoin();
}

function showClock() {
  // the turn clock of the person to move: when it runs out a bot plays that turn for them
  const deadline = lastState && lastState.status === "playing" ? lastState.deadline : null;
  $("clock").hidden = deadline === null || deadline === undefined;
  if ($("clock").hidden) return;
  const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
  const who = lastState.actor === mySeat() ? "You have" : `${nameOf(lastState.actor)} has`;
  $("clock").textContent = `${who} ${left} s to move; then a bot plays this turn.`;
}
setInterval(showClock, 1000);

function showJoin() {
  // a visitor holding no seat: the open seats to take, or watching
  const open = seats.filter((s) => s.kind === "open");
  const visitor = welcome && welcome.seat === null && !(welcome.companion && welcome.host);
  const show = visitor && lastState && lastState.status === "waiting" && open.length > 0 && !(welcome && welcome.companion) && !sessionStorage.getItem("watch." + tableId);
  $("join").hidden = !show;
  if (!show) return;
  $("join-seats").innerHTML = "";
  for (const s of open) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "primary";
    b.textContent = `Join seat ${s.seat + 1}`;
    b.onclick = () => joinAs(tableId, s.seat, "join-name", "join-error", b);
    $("join-seats").appendChild(b);
  }
}

function showYou() {
  const me = mySeat();
  if (me !== null) $("you").textContent = `You play seat ${me + 1} (${nameOf(me)}).`;
  else if (welcome.host && welcome.companion) $("you").textContent = "You keep the books for the real board.";
  else $("you").textContent = "You are watching.";
  const mine = Object.keys(held).filter((s) => s !== "?");
  $("seat-switch").hidden = mine.length < 2;
  $("seat-switch").innerHTML = mine.length < 2 ? "" : "This browser holds seats " + mine.map((s) => Number(s) + 1).join(" and ") + ": ";
  for (const s of mine.length < 2 ? [] : mine) {
    if (Number(s) === me) continue;
    const link = document.createElement("a");
    link.href = `/table/${tableId}?seat=${s}`;
    link.className = "button";
    link.textContent = `play seat ${Number(s) + 1}`;
    $("seat-switch").appendChild(link);
  }
}

function showChat(line) {
  const item = document.createElement("li");
  const who = document.createElement("b");
  who.textContent = line.name + ": ";
  item.append(who, document.createTextNode(line.text));
  $("chat").appendChild(item);
  while ($("chat").children.length > 200) $("chat").firstChild.remove();
  $("chat").scrollTop = $("chat").scrollHeight;
}

function receive(message) {
  if (message.version !== undefined && message.version !== null && message.type !== "error") {
    version = message.version;
    $("version").textContent = version;
  }
  if (message.type === "welcome") {
    welcome = message;
    $("banner").hidden = true;
    showTitle();
    $("seed-hash").textContent = message.seed_hash;
    $("leave").hidden = message.seat === null;
    $("answer-box").hidden = message.seat === null || message.companion;
    $("answer-for-me").checked = Boolean(message.answer_for_me);
    $("chat-form").hidden = message.seat === null && !message.host;
    $("fair").hidden = message.companion; // the dice are real ones at a companion table
    showSeats(message.seats);
    showYou();
    if (message.resync || rebuilding) $("log").innerHTML = "";
    rebuilding = false;
    for (const missed of message.missed) log(missed.events, missed.news);
    $("chat").innerHTML = "";
    for (const line of message.chat || []) showChat(line);
    showState(message.state);
    showSeats(message.seats); // its buttons depend on the state just shown
    showBreak(message.state.race_break || null);
    if ((message.host || tv) && message.state.status === "waiting" && !message.companion) showInvite();
    if (message.seat !== null && message.state.status === "waiting" && !message.companion) {
      FairSeed.commit(tableId, message.seat, send); // a seed of this browser's own, hashed
    }
    if (message.next_table) follow(message.next_table);
  } else if (message.type === "update") {
    log(message.events, message.news);
    showState(message.state);
  } else if (message.type === "undone") {
    // the undone moves leave the log: ask for the whole log again
    Companion.reset();
    $("log").innerHTML = "";
    lastDice = null;
    showState(message.state);
    rebuilding = send({ type: "sync", since: 0 });
  } else if (message.type === "seats") {
    showSeats(message.seats);
    if (message.state) showState(message.state);
    else if (lastState) showState({ ...lastState, status: message.status });
  } else if (message.type === "break") {
    showBreak(message.race_break);
  } else if (message.type === "chat") {
    showChat(message);
  } else if (message.type === "committed") {
    $("seed-note").textContent = `Your seed is committed (SHA-256 ${message.commitment.slice(0, 16)}…): it is revealed when play starts, and the record names it.`;
  } else if (message.type === "answer_for_me") {
    $("answer-for-me").checked = message.on;
  } else if (message.type === "next") {
    follow(message.table);
  } else if (message.type === "error") {
    refused(message);
  }
}

function refused(message) {
  if (message.request_id && message.request_id === pending) pending = null;
  if (message.code === "duplicate") return; // the same move twice: the first one counts
  if (!message.request_id && lastState && lastState.status !== "waiting" && /commit|seed/.test(message.message)) return; // play began first
  if (message.code === "stale") { send({ type: "sync", since: version }); return; } // redrawn, nothing lost
  if (message.code === "unauthorized" && token) {
    // this seat's token is no good here (the seat was given up): watch instead
    for (const [seat, t] of Object.entries(held)) if (t === token) Held.drop(tableId, seat);
    held = Held.seats(tableId);
    token = null;
    socket.close();
    return;
  }
  if (message.code === "rate-limited" || (message.code === "not-seated" && !lastState?.legal.length)) {
    $("chat-error").textContent = message.message;
    return;
  }
  $("error").textContent = message.message;
  if (lastState) { Actions.disable($("actions"), false); Picker.again(); }
}

let following = false; // the host's button and the server's "next" both lead there: go once
function follow(next) {
  if (following) return;
  following = true;
  Held.follow(tableId, next);
  const me = mySeat();
  location.href = `/table/${next}${me !== null ? "?seat=" + me : ""}`;
}

let roomShown = false;
async function showInvite() {
  $("invite").hidden = false;
  $("invite-link").value = `${location.origin}/table/${tableId}`;
  $("tv-link").href = `/table/${tableId}?tv`;
  if (roomShown) return;
  roomShown = true;
  $("qr").src = `/api/tables/${tableId}/qr.svg`;
  $("qr").alt = "QR code of the invite link";
  $("qr").hidden = false;
  $("qr-note").hidden = false;
  try { $("room-code").textContent = (await api("GET", `/api/tables/${tableId}`)).room; } catch (error) { roomShown = false; }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`);
  socket.onopen = () => {
    retry = 500;
    const hello = { type: "hello", since: version === null ? 0 : version };
    if (token) hello.token = token;
    if (hostToken) hello.host_token = hostToken;
    socket.send(JSON.stringify(hello));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    $("banner").hidden = false;
    pending = null;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}

async function post(path, bearer) {
  try { return await api("POST", path, null, bearer); } catch (error) { $("error").textContent = error.message; return null; }
}

async function showRules() {
  $("rules").showModal();
  const preset = welcome ? welcome.preset : "classic";
  const config = (lastState && lastState.view.config) || {};
  const house = [];
  if (config.husted) house.push("Husted: hidden hands with A, K and jokers; two betting rounds, a draw, J/Q/K powers.");
  if (config.market) house.push("Schellenberg: the market, a face-up hand to buy from after a race roll.");
  if (config.robertson) house.push("Robertson: four dice in the race, paired by the roller.");
  if (config.trade_window && config.trade_window !== "none") house.push(`Perry: trading (${config.trade_window}).`);
  $("rules-house").innerHTML = house.length ? `<p><b>House rules at this table:</b></p><ul>${house.map((h) => `<li>${esc(h)}</li>`).join("")}</ul>` : "";
  try {
    const response = await fetch(`/api/rules/${preset}`);
    $("rules-text").innerHTML = markdown(await response.text());
  } catch (error) { $("rules-text").textContent = "The rules could not be loaded."; }
}

$("start").onclick = () => post(`/api/tables/${tableId}/start`, hostToken);
$("undo").onclick = () => (Companion.undo() ? showState(lastState) : send({ type: "undo", version }));
$("skip").onclick = () => send({ type: "skip" });
$("next-race").onclick = () => {
  if (send({ type: "next-race" })) { $("next-race").disabled = true; $("results-wait").textContent = "Waiting for the others…"; }
};
$("again").onclick = async () => {
  $("again").disabled = true;
  const next = await post(`/api/tables/${tableId}/again`, hostToken);
  if (next) follow(next.id);
  $("again").disabled = false;
};
$("leave").onclick = async () => {
  if (await post(`/api/tables/${tableId}/leave`, token)) {
    Held.drop(tableId, mySeat());
    location.href = `/table/${tableId}`;
  }
};
$("invite-button").onclick = showInvite;
$("copy").onclick = async () => {
  $("invite-link").select();
  try { await navigator.clipboard.writeText($("invite-link").value); $("copied").textContent = "Copied: paste it to your friends."; }
  catch (error) { document.execCommand("copy"); $("copied").textContent = "Copied."; }
};
$("just-watch").onclick = () => { sessionStorage.setItem("watch." + tableId, "1"); showJoin(); };
$("rules-button").onclick = showRules;
$("rules-close").onclick = () => $("rules").close();
$("dev").onchange = () => { $("dev-box").hidden = !$("dev").checked; };
$("sound").checked = localStorage.getItem("horserace.sound") === "1";
$("sound").onchange = () => localStorage.setItem("horserace.sound", $("sound").checked ? "1" : "0");
$("answer-for-me").onchange = () => send({ type: "answer_for_me", on: $("answer-for-me").checked });
$("join-name").value = Held.name();
$("verify").onclick = async (click) => {
  click.preventDefault();
  const answer = await (await fetch(`/api/tables/${tableId}/verify`)).json();
  $("verdict").textContent = answer.verified
    ? `verified: all ${answer.draws} draws come from the seed, which matches the hash shown before play`
    : `NOT verified: ${(answer.problems || [answer.detail]).join("; ")}`;
};
$("seed-form").onsubmit = (event) => {
  event.preventDefault();
  const seed = $("seed-text").value.trim();
  if (!/^[\x20-\x7e]{1,64}$/.test(seed)) { $("seed-note").textContent = "A seed is 1-64 plain characters (letters, digits, punctuation)."; return; }
  FairSeed.commit(tableId, mySeat(), send, seed);
};
$("chat-form").onsubmit = (event) => {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  $("chat-error").textContent = "";
  if (!text) return;
  if (send({ type: "chat", text })) $("chat-text").value = "";
};
connect();
