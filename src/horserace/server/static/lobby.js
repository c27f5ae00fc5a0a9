"use strict";
// The lobby: create a table, list tables, join a seat or watch. Tokens go to localStorage only.
const $ = (id) => document.getElementById(id);
let presets = [];

async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail));
  return data;
}

function fillSeats() {
  const preset = presets.find((p) => p.name === $("preset").value);
  if (!preset) return;
  $("seats").value = ["open", ...Array(preset.players - 1).fill(preset.bots[0])].join(",");
}

async function loadPresets() {
  presets = await api("GET", "/api/presets");
  $("preset").innerHTML = presets.map((p) => `<option value="${p.name}">${p.name}: ${p.summary}</option>`).join("");
  fillSeats();
}

async function loadTables() {
  const tables = await api("GET", "/api/tables");
  $("tables").innerHTML = "";
  for (const t of tables) {
    const row = document.createElement("tr");
    row.dataset.table = t.id;
    const seats = t.seats.map((s) => s.kind === "open" ? "(open)" : s.name).join(", ");
    row.innerHTML = `<td>${t.preset}</td><td></td><td>${t.status}</td><td></td><td class="hash">${t.seed_hash}</td><td></td>`;
    row.children[1].textContent = t.title;
    row.children[3].textContent = seats;
    const cell = row.children[5];
    if (t.open_seats.length) {
      const join = document.createElement("button");
      join.textContent = "Join";
      join.onclick = () => joinTable(t.id);
      cell.appendChild(join);
    }
    const watch = document.createElement("a");
    watch.href = "/table/" + t.id;
    watch.textContent = localStorage.getItem("horserace.seat." + t.id) ? "Open" : "Watch";
    cell.appendChild(watch);
    $("tables").appendChild(row);
  }
}

async function joinTable(id) {
  const name = prompt("Your name at the table?");
  if (!name) return;
  try {
    const joined = await api("POST", `/api/tables/${id}/join`, { name });
    localStorage.setItem("horserace.seat." + id, joined.token);
    location.href = "/table/" + id;
  } catch (error) { alert(error.message); }
}

$("preset").onchange = fillSeats;
$("create").onsubmit = async (event) => {
  event.preventDefault();
  $("create-error").textContent = "";
  try {
    const options = JSON.parse($("options").value || "{}");
    const seats = $("seats").value.split(",").map((s) => s.trim()).filter((s) => s);
    const players = seats.length;
    const created = await api("POST", "/api/tables", {
      preset: $("preset").value, title: $("title").value, seats,
      options: { players, ...options }, turn_seconds: Number($("turn").value),
      companion: $("companion").checked,
    });
    const id = created.table.id;
    localStorage.setItem("horserace.host." + id, created.host_token);
    if (created.table.open_seats.length) await joinTable(id); else location.href = "/table/" + id;
  } catch (error) { $("create-error").textContent = error.message; }
};

loadPresets().then(loadTables);
setInterval(loadTables, 5000);
