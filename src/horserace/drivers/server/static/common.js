"use strict";
// What the lobby and the table page share: the JSON API, the seats this browser holds (one
// token per table and seat, in localStorage only, never in a URL), names checked in words,
// money in players' words, and a small Markdown reader for the rules panel.
const $ = (id) => document.getElementById(id);

const NAME_LIMIT = 30;

async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(problem(data.detail, response.status));
  return data;
}

function problem(detail, status) {
  // FastAPI's refusals: a sentence, or a list of field errors; said as a sentence either way
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) {
    return detail.map((d) => `${(d.loc || []).filter((p) => p !== "body").join(" ")}: ${d.msg}`).join("; ");
  }
  return `the server said no (${status})`;
}

const Held = {
  // seats: {"0": token, "2": token} under horserace.seats.ID; the host token under horserace.host.ID
  seats(table) {
    let held = {};
    try { held = JSON.parse(localStorage.getItem("horserace.seats." + table) || "{}") || {}; } catch (e) { held = {}; }
    const old = localStorage.getItem("horserace.seat." + table); // one seat, as earlier pages kept it
    if (old && !Object.values(held).includes(old)) held["?"] = old;
    return held;
  },
  add(table, seat, token) {
    const held = Held.seats(table);
    held[String(seat)] = token;
    delete held["?"];
    localStorage.setItem("horserace.seats." + table, JSON.stringify(held));
    localStorage.removeItem("horserace.seat." + table);
  },
  drop(table, seat) {
    const held = Held.seats(table);
    delete held[String(seat)];
    delete held["?"];
    localStorage.setItem("horserace.seats." + table, JSON.stringify(held));
    localStorage.removeItem("horserace.seat." + table);
  },
  host(table) { return localStorage.getItem("horserace.host." + table); },
  setHost(table, token) { localStorage.setItem("horserace.host." + table, token); },
  follow(from, to) {
    // the next game keeps the seats and their tokens
    const held = Held.seats(from);
    for (const [seat, token] of Object.entries(held)) if (seat !== "?") Held.add(to, seat, token);
    const host = Held.host(from);
    if (host) Held.setHost(to, host);
  },
  name() { return localStorage.getItem("horserace.name") || ""; },
  setName(name) { localStorage.setItem("horserace.name", name); },
};

function nameProblem(name) {
  const trimmed = name.trim();
  if (!trimmed) return "Type your name first: the other players see it at the table.";
  if (trimmed.length > NAME_LIMIT) return `That name is ${trimmed.length} characters; keep it to ${NAME_LIMIT}.`;
  return "";
}

// Join table `id` (at `seat`, or any open seat when null) under the name typed in the field
// `nameId`, then play there; a bad name or a refusal shows in `errorId`.
async function joinAs(id, seat, nameId, errorId, button) {
  const name = $(nameId).value.trim();
  const wrong = nameProblem(name);
  $(errorId).textContent = wrong;
  if (wrong) { $(nameId).focus(); return; }
  button.disabled = true;
  try {
    const joined = await api("POST", `/api/tables/${id}/join`, seat === null ? { name } : { name, seat });
    Held.setName(name);
    Held.add(id, joined.seat, joined.token);
    location.href = `/table/${id}?seat=${joined.seat}`;
  } catch (error) {
    $(errorId).textContent = "Could not join: " + error.message;
    button.disabled = false;
  }
}

function money(amount, unit) {
  // cents as dollars ($1.20), Derby's dollars ($8), chips as chips
  if (unit === "cents") return (amount < 0 ? "-$" : "$") + (Math.abs(amount) / 100).toFixed(2);
  if (unit === "dollars") return (amount < 0 ? "-$" : "$") + Math.abs(amount);
  return `${amount} chip${amount === 1 ? "" : "s"}`;
}

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function markdown(text) {
  // enough Markdown for the rules documents: headings, lists, tables, code and emphasis
  const inline = (line) => esc(line)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\*([^*]+)\*/g, "<em>$1</em>");
  const out = [];
  let list = null, para = [], table = null, code = null;
  const flush = () => {
    if (para.length) out.push(`<p>${inline(para.join(" "))}</p>`);
    para = [];
    if (list) out.push(`</${list}>`);
    list = null;
    if (table) out.push(`<table>${table.join("")}</table>`);
    table = null;
  };
  for (const line of text.split("\n")) {
    if (code !== null) {
      if (line.startsWith("```")) { out.push(`<pre>${esc(code.join("\n"))}</pre>`); code = null; } else code.push(line);
      continue;
    }
    if (line.startsWith("```")) { flush(); code = []; continue; }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    const item = /^\s*(?:([-*])|\d+\.)\s+(.*)$/.exec(line);
    if (heading) { flush(); const level = Math.min(6, heading[1].length + 2); out.push(`<h${level}>${inline(heading[2])}</h${level}>`); }
    else if (line.startsWith("|")) {
      if (!table) { flush(); table = []; }
      if (/^\|[\s|:-]+\|$/.test(line)) continue;
      const cells = line.split("|").slice(1, -1).map((c) => `<td>${inline(c.trim())}</td>`);
      table.push(`<tr>${cells.join("")}</tr>`);
    } else if (item) {
      const kind = item[1] ? "ul" : "ol";
      if (list !== kind) { flush(); list = kind; out.push(`<${kind}>`); }
      out.push(`<li>${inline(item[2])}</li>`);
    } else if (!line.trim()) flush();
    else if (list && /^\s+/.test(line)) out[out.length - 1] = out[out.length - 1].replace(/<\/li>$/, " " + inline(line.trim()) + "</li>");
    else { if (list || table) flush(); para.push(line.trim()); }
  }
  flush();
  return out.join("\n");
}
