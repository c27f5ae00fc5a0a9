"use strict";
// The legal actions as controls in players' words: a button per choice, one number input
// (with -/+ and quick picks) for a bet's amount instead of a button per amount, and a list to
// pick from when a choice has very many forms (trades, dice entered at a real table).
const Actions = (() => {
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const AMOUNT_VERBS = ["bet", "bid", "wager", "raise", "win", "place", "show", "exacta", "trifecta", "superfecta", "board"];
  const MANY = 12; // more forms of one choice than this: a list
  const HELP = {
    roll: "Roll the two dice: the sum names the horse that moves (or costs you, if scratched).",
    pay: "Pay what you owe into the pot: nothing to play.",
    pass: "Do nothing this time: nothing to play.",
    ace: "An Ace cancels the penalty you owe.",
    king: "A King passes the penalty to a neighbour (answered with a King, it doubles first).",
    joker: "A Joker moves one running horse a slot forward or back.",
    keep: "Keep this card from the hand in front of you; the rest passes left.",
    jack: "J: move a horse that has left the gate back one slot.",
    queen: "Q: put a chip under a horse; its next roll does not move it.",
    check: "Wager nothing for now.",
    wager: "Put this much into the pot; the others must meet it or fold.",
    raise: "Raise the wager by this much.",
    meet: "Match the wager to stay in the round.",
    fold: "Give up this round: your cards collect nothing.",
    discard: "Throw these away face up and draw as many from the stub.",
    buy: "Buy the market card, paying the highest scratch line, giving a card of yours in its place.",
    offer: "Offer a trade: your cards for one of theirs; they accept or decline.",
    accept: "Take the trade offered to you.",
    decline: "Turn the trade down.",
    pair: "Pair the four dice: the two sums move two horses, in this order.",
    bet: "Bet on a suit at the dealer's book: a win pays the stake times the posted odds.",
    done: "No more bets from you this race.",
    bid: "Bid for the horse in the auction: the highest bid owns it (Calcutta).",
    horse: "Choose your horse for the race.",
    silk: "Choose your silks.",
    dice: "The dice as they fell at the table.",
    deal: "The card as it was dealt at the table.",
  };
  const KING_HORSE = "K: put two chips under a horse; its next two rolls do not move it.";

  function rank(word) {
    if (word === "J") return "J (11)";
    if (word === "Q") return "Q (12)";
    return SUITS[word] || word;
  }
  function verbOf(text) {
    if (/^\d+\+\d+/.test(text)) return "dice";
    return text.split(/[\s:]/)[0];
  }
  function words(text, names) {
    // one action's text in players' words
    const w = text.split(" ");
    const who = (seat) => names[Number(seat) - 1] || "player " + seat;
    switch (w[0]) {
      case "roll": return "Roll the dice";
      case "pay": return "Pay (nothing to play)";
      case "pass": return "Pass (nothing to play)";
      case "ace": return "Play an Ace: cancel the penalty";
      case "king": return /^\d+$/.test(w[1]) ? `K: two chips under horse ${w[1]}` : `Play a King: pass it to your ${w[1]}`;
      case "joker": return `Joker: horse ${w[1]} ${w[2] === "back" ? "back" : "forward"} one slot`;
      case "keep": return `Keep ${rank(w[1])}`;
      case "jack": return `J: horse ${w[1]} back one slot`;
      case "queen": return `Q: a chip under horse ${w[1]}`;
      case "check": return "Check";
      case "meet": return "Meet the wager";
      case "fold": return "Fold";
      case "discard": return w[1] === "none" ? "Keep my hand" : `Discard ${w.slice(1).map(rank).join(" ")} and draw`;
      case "buy": return `Buy ${rank(w[1])}, give ${rank(w[3])}`;
      case "offer": {
        const [head, rest] = text.split(": ");
        const [give, take] = rest.split(" for ");
        return `Offer ${who(head.split(" ")[1])}: ${give.split(" ").map(rank).join(" ")} for ${rank(take)}`;
      }
      case "accept": return "Accept the trade";
      case "decline": return "Decline the trade";
      case "done": return "Done betting";
      case "horse": return `Horse ${w[1]}`;
      case "silk": return `Silks ${w[1]}`;
      default:
        if (/^\d+\+\d+$/.test(text)) return text.replace("+", " + ");
        const said = w.map((part) => SUITS[part] || part).join(" ");
        return said[0].toUpperCase() + said.slice(1);
    }
  }
  function help(text) {
    const verb = verbOf(text);
    if (verb === "king" && /^king \d+$/.test(text)) return KING_HORSE;
    return HELP[verb] || "";
  }

  function amountGroups(legal) {
    // verb -> {amounts (sorted), rests: [template with the amount taken out]}
    const groups = new Map();
    for (const text of legal) {
      const w = text.split(" ");
      if (!AMOUNT_VERBS.includes(w[0]) || !/^\d+$/.test(w[1] || "")) continue;
      const group = groups.get(w[0]) || { amounts: new Set(), rests: [] };
      group.amounts.add(Number(w[1]));
      const rest = w.slice(2).join(" ");
      if (!group.rests.includes(rest)) group.rests.push(rest);
      groups.set(w[0], group);
    }
    for (const [verb, group] of groups) {
      if (group.amounts.size < 5) groups.delete(verb);
      else group.amounts = [...group.amounts].sort((a, b) => a - b);
    }
    return groups;
  }

  function button(label, title, onclick, action) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (title) { b.title = title; b.dataset.help = title; }
    if (action) b.dataset.action = action;
    b.onclick = onclick;
    return b;
  }

  function amountControl(verb, group, legal, send, report) {
    const box = document.createElement("div");
    box.className = "amount";
    const id = "amount-" + verb;
    const [low, high] = [group.amounts[0], group.amounts[group.amounts.length - 1]];
    box.innerHTML = `<label for="${id}">${verb === "bid" ? "Your bid" : "Amount"}</label>`;
    const input = document.createElement("input");
    Object.assign(input, { id, type: "number", min: low, max: high, value: low, inputMode: "numeric" });
    const step = (direction) => {
      const now = Number(input.value);
      const next = direction > 0 ? group.amounts.find((a) => a > now) : [...group.amounts].reverse().find((a) => a < now);
      if (next !== undefined) input.value = next;
    };
    const minus = button("−", "less", () => step(-1));
    minus.setAttribute("aria-label", "less");
    const plus = button("+", "more", () => step(1));
    plus.setAttribute("aria-label", "more");
    box.append(minus, input, plus);
    const picks = document.createElement("span");
    picks.className = "picks";
    const quick = [...new Set([low, group.amounts[Math.floor(group.amounts.length / 4)], group.amounts[Math.floor(group.amounts.length / 2)], high])];
    for (const value of quick) picks.appendChild(button(String(value), `set ${value}`, () => { input.value = value; }));
    box.appendChild(picks);
    const go = document.createElement("span");
    go.className = "go";
    for (const rest of group.rests) {
      const label = rest ? `${verb[0].toUpperCase() + verb.slice(1)} on ${rest.split(" ").map((s) => SUITS[s] || s).join(" ")}` : verb[0].toUpperCase() + verb.slice(1);
      go.appendChild(button(label, HELP[verb] || "", () => {
        const text = [verb, input.value, rest].filter((part) => part !== "").join(" ");
        if (!legal.includes(text)) {
          report(`Choose an amount the rules allow: ${low} to ${high}${group.amounts.length < high - low + 1 ? " (not every amount between)" : ""}.`);
          return;
        }
        send(text);
      }, `${verb} # ${rest}`.trim()));
    }
    box.appendChild(go);
    return box;
  }

  function sumGrid(texts, send) {
    // two dice whose sum alone counts (the rules say so: state.entry.sums): one tap on the sum
    // the table rolled (the first pair of that sum is entered, as the terminal's '7' is)
    const box = document.createElement("div");
    box.className = "sum-grid";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "The sum the dice showed at the table");
    for (let sum = 2; sum <= 12; sum++) {
      const pair = texts.find((t) => t.split("+").reduce((a, b) => a + Number(b), 0) === sum);
      if (pair) box.appendChild(button(String(sum), `The dice showed ${sum} (entered as ${pair.replace("+", " + ")})`, () => send(pair), pair));
    }
    return box;
  }

  function listControl(verb, texts, names, send) {
    const box = document.createElement("div");
    box.className = "choose";
    const id = "choose-" + verb;
    const label = verb === "dice" ? "Dice shown at the table" : verb === "deal" ? "Card dealt at the table" : `${verb[0].toUpperCase() + verb.slice(1)}`;
    box.innerHTML = `<label for="${id}">${esc(label)}</label>`;
    const select = document.createElement("select");
    select.id = id;
    select.innerHTML = texts.map((t) => `<option value="${esc(t)}">${esc(words(t, names))}</option>`).join("");
    box.appendChild(select);
    box.appendChild(button(verb === "dice" || verb === "deal" ? "Enter" : "Choose", help(texts[0]), () => send(select.value), verb + " list"));
    return box;
  }

  function draw(root, legal, names, send, report, entry) {
    // news that leaves the moves as they were keeps the bar as it is: what the player typed,
    // the focus and the help they opened are not lost to a redraw
    const drawn = JSON.stringify([legal, names, entry && entry.sums]);
    if (root.dataset.drawn === drawn) {
      disable(root, false);
      return;
    }
    root.dataset.drawn = drawn;
    root.innerHTML = "";
    const amounts = amountGroups(legal);
    const byVerb = new Map();
    for (const text of legal) {
      const verb = verbOf(text);
      if (amounts.has(verb) && /^\d+$/.test(text.split(" ")[1] || "")) continue;
      if (!byVerb.has(verb)) byVerb.set(verb, []);
      byVerb.get(verb).push(text);
    }
    const row = document.createElement("div");
    row.className = "buttons";
    for (const [verb, texts] of byVerb) {
      if (verb === "dice" && entry && entry.sums) root.appendChild(sumGrid(texts, send));
      else if (texts.length > MANY) root.appendChild(listControl(verb, texts, names, send));
      else for (const text of texts) row.appendChild(button(words(text, names), help(text), () => send(text), text));
    }
    if (row.children.length) root.prepend(row);
    for (const [verb, group] of amounts) root.appendChild(amountControl(verb, group, legal, send, report));
    if (root.querySelector("[data-help]")) {
      // title text shows on hover only: a tap on "?" writes every move's help under it
      const explain = button("?", "", () => {
        const on = root.classList.toggle("explain");
        explain.setAttribute("aria-pressed", on ? "true" : "false");
        localStorage.setItem("horserace.explain", on ? "1" : "0");
      });
      explain.className = "explain-toggle";
      explain.setAttribute("aria-label", "Explain these moves");
      const on = localStorage.getItem("horserace.explain") === "1";
      root.classList.toggle("explain", on);
      explain.setAttribute("aria-pressed", on ? "true" : "false");
      root.appendChild(explain);
    }
  }

  function disable(root, off) {
    for (const control of root.querySelectorAll("button, input, select")) control.disabled = off;
  }

  return { draw, disable, words, sumGrid };
})();
