"use strict";
// Betting that fits a phone: the card race's tote and dealer's book as a list of horses, each
// with a stake stepper, the bet kinds as tabs, the pools' totals and what a bet would pay now.
// The tote's figure is worked out as the engine settles a pool (components/tote.py): the pool
// less its takeout rounded down, winning stakes back, the profit split equally between the
// winning selections and by stake within each, rounded down; a minus pool pays the stake.
const Betting = (() => {
  const LETTERS = "CDHS";
  const SYMBOLS = ["♣", "♦", "♥", "♠"];
  const NAMES = ["clubs", "diamonds", "hearts", "spades"];
  const TOTE = ["win", "place", "show", "board", "exacta", "trifecta", "superfecta"];
  const PLACES = { win: 1, place: 2, show: 3, exacta: 2, trifecta: 3, superfecta: 4 };
  const SAYS = {
    bet: "Win at the dealer's price: a winner gets the stake back and the stake times the odds.",
    win: "Win: the horse must finish first.",
    place: "Place: the horse must finish first or second.",
    show: "Show: the horse must finish in the first three.",
    board: "Across the board: one stake each on win, place and show (three stakes in all).",
    exacta: "Exacta: the first two horses, in order.",
    trifecta: "Trifecta: the first three horses, in order.",
    superfecta: "Superfecta: all four horses, in order.",
  };
  let chosenKind = null; // the tab open, kept across redraws
  const stakes = new Map(); // "kind|letters" -> the stake shown in that row's stepper

  function ticket(text) {
    // "win 5 H", "exacta 2 H C", "bet 3 D" -> {kind, stake, letters}; null when not a bet
    const w = text.split(" ");
    if (!(w[0] === "bet" || TOTE.includes(w[0])) || !/^\d+$/.test(w[1] || "") || w.length < 3) return null;
    if (!w.slice(2).every((l) => LETTERS.includes(l) && l.length === 1)) return null;
    return { kind: w[0], stake: Number(w[1]), letters: w.slice(2).join(" ") };
  }
  function fits(legal) { return legal.some((text) => ticket(text) !== null); }

  function shares(amount, weights) {
    const whole = weights.reduce((a, b) => a + b, 0);
    return weights.map((w) => (whole ? Math.floor((amount * w) / whole) : 0));
  }
  function settle(tickets, winning, takeout) {
    // what each ticket of one pool collects when `winning` (selection keys) win
    const stakesOf = tickets.map((t) => t.stake);
    const total = stakesOf.reduce((a, b) => a + b, 0);
    const net = total - Math.floor((total * takeout) / 100);
    const groups = winning.map((key) => tickets.map((t, i) => (t.key === key ? i : -1)).filter((i) => i >= 0)).filter((g) => g.length);
    const paid = tickets.map(() => 0);
    if (!groups.length) return shares(net, stakesOf);
    const winners = groups.flat();
    const profit = net - winners.reduce((sum, i) => sum + stakesOf[i], 0);
    if (profit < 0) { for (const i of winners) paid[i] = stakesOf[i]; return paid; } // the house makes up each stake
    const each = Math.floor(profit / groups.length);
    for (const group of groups) shares(each, group.map((i) => stakesOf[i])).forEach((share, j) => { paid[group[j]] = stakesOf[group[j]] + share; });
    return paid;
  }
  function orders() {
    const all = [];
    const grow = (done, left) => { if (!left.length) all.push(done); left.forEach((h, i) => grow([...done, h], left.filter((_, j) => j !== i))); };
    grow([], [0, 1, 2, 3]);
    return all;
  }
  const ORDERS = orders();
  function winningKeys(pool, order) {
    if (["win", "place", "show"].includes(pool)) return order.slice(0, PLACES[pool]).map((h) => LETTERS[h]);
    return [order.slice(0, PLACES[pool]).map((h) => LETTERS[h]).join(" ")];
  }
  function wouldPay(bets, pools, letters, stake, takeout) {
    // [least, most] this ticket collects over the finishes in which it wins, from the pools now
    let least = Infinity, most = -Infinity;
    for (const order of ORDERS) {
      if (pools.length > 1 && order[0] !== LETTERS.indexOf(letters)) continue; // across the board: when it wins
      let got = 0, wins = false;
      for (const pool of pools) {
        const keys = winningKeys(pool, order);
        if (!keys.includes(letters)) continue;
        const mine = { key: letters, stake };
        const tickets = [...bets.filter((b) => b.kind === pool).map((b) => ({ key: b.horses.map((h) => LETTERS[h]).join(" "), stake: b.stake })), mine];
        const paid = settle(tickets, keys, takeout);
        got += paid[paid.length - 1];
        wins = true;
      }
      if (wins) { least = Math.min(least, got); most = Math.max(most, got); }
    }
    return least === Infinity ? null : [least, most];
  }

  function horseWords(letters) {
    return letters.split(" ").map((l) => `${SYMBOLS[LETTERS.indexOf(l)]} ${NAMES[LETTERS.indexOf(l)]}`).join(" then ");
  }
  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    Object.assign(node, attrs || {});
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function bookPrice(view, suit) {
    const count = view.course.filter((c) => c !== null && c < 52 && Math.floor(c / 13) === suit).length;
    const price = view.config.book_odds.prices.find(([n]) => n === count);
    return price ? [price[1], price[2]] : null;
  }

  function draw(root, legal, view, cash, send) {
    root.dataset.drawn = ""; // the move bar's own drawing (actions.js) starts afresh after this
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : "";
    root.innerHTML = "";
    const offered = new Map(); // "kind|letters" -> the stakes the rules allow, least first
    for (const text of legal) {
      const t = ticket(text);
      if (!t) continue;
      const key = `${t.kind}|${t.letters}`;
      if (!offered.has(key)) offered.set(key, []);
      offered.get(key).push(t.stake);
    }
    const book = legal.some((text) => text.startsWith("bet "));
    const kinds = book ? ["bet"] : TOTE.filter((k) => [...offered.keys()].some((key) => key.startsWith(k + "|")));
    if (!kinds.includes(chosenKind)) chosenKind = kinds[0];
    const bets = (view.betting && view.betting.bets) || [];
    const takeout = view.config.takeout || 0;

    const head = el("div", { className: "bet-head" });
    if (book) head.append(el("p", {}, "The dealer's book: a winner gets the stake back and the stake times the price (rounded down)."));
    else {
      const totals = ["win", "place", "show", "exacta", "trifecta", "superfecta"].map((pool) => {
        const sum = bets.filter((b) => b.kind === pool).reduce((a, b) => a + b.stake, 0);
        return `${pool} ${cash(sum)}`;
      });
      head.append(el("p", { id: "pool-totals" }, `Pools now: ${totals.join(" · ")}${takeout ? ` (the house takes ${takeout}% of each)` : ""}.`));
    }
    if (legal.includes("done")) {
      const end = el("button", { type: "button", id: "bet-done" }, "Done betting");
      end.dataset.action = "done";
      end.onclick = () => send("done");
      head.appendChild(end);
    }
    root.appendChild(head);

    if (kinds.length > 1) {
      const tabs = el("div", { className: "bet-tabs" });
      tabs.setAttribute("role", "tablist");
      tabs.setAttribute("aria-label", "Kind of bet");
      for (const kind of kinds) {
        const tab = el("button", { type: "button", id: "tab-" + kind, title: SAYS[kind] }, kind[0].toUpperCase() + kind.slice(1));
        tab.setAttribute("role", "tab");
        tab.setAttribute("aria-selected", kind === chosenKind ? "true" : "false");
        tab.setAttribute("aria-controls", "bet-panel");
        tab.onclick = () => { chosenKind = kind; draw(root, legal, view, cash, send); $("tab-" + kind).focus(); };
        tabs.appendChild(tab);
      }
      root.appendChild(tabs);
    }
    const panel = el("div", { id: "bet-panel" });
    if (kinds.length > 1) { panel.setAttribute("role", "tabpanel"); panel.setAttribute("aria-labelledby", "tab-" + chosenKind); }
    const list = el("ul", { id: "bet-list", className: "bet-list" });
    panel.append(el("p", { className: "muted bet-says" }, SAYS[chosenKind] || ""), list);
    const keys = book ? [0, 1, 2, 3].map((s) => `bet|${LETTERS[s]}`) : [...offered.keys()].filter((key) => key.startsWith(chosenKind + "|"));
    for (const key of keys) list.appendChild(row(key, offered.get(key) || [], bets, view, takeout, cash, send));
    root.appendChild(panel);
    if (focused && $(focused)) $(focused).focus();
  }

  function row(key, amounts, bets, view, takeout, cash, send) {
    const [kind, letters] = key.split("|");
    const id = `${kind}-${letters.replace(/ /g, "")}`;
    const item = el("li", { className: "bet-row", id: "row-" + id });
    item.dataset.selection = letters;
    const name = el("span", { className: "bet-horse" });
    letters.split(" ").forEach((l) => {
      const suit = LETTERS.indexOf(l);
      const mark = el("span", { className: "suit suit-" + suit, title: NAMES[suit] }, SYMBOLS[suit]);
      name.append(mark);
    });
    name.append(el("span", { className: "sr-only" }, horseWords(letters)));
    item.append(name);
    const pools = kind === "board" ? ["win", "place", "show"] : [kind];
    const price = kind === "bet" ? bookPrice(view, LETTERS.indexOf(letters)) : null;
    const facts = el("span", { className: "bet-facts" });
    if (kind === "bet") facts.textContent = price ? `price ${price[0]}-${price[1]}` : "no price: no bets";
    else {
      const on = pools.map((pool) => bets.filter((b) => b.kind === pool && b.horses.map((h) => LETTERS[h]).join(" ") === letters).reduce((a, b) => a + b.stake, 0));
      facts.textContent = `on it ${on.map(cash).join(" / ")}`;
    }
    facts.dataset.pool = "";
    item.append(facts);
    if (!amounts.length) {
      if (kind === "bet" && price) item.append(el("span", { className: "muted" }, "the dealer cannot cover more"));
      return item;
    }
    const shown = Math.min(Math.max(stakes.get(key) || amounts[0], amounts[0]), amounts[amounts.length - 1]);
    const stepper = el("span", { className: "stepper" });
    const input = el("input", { type: "number", id: "stake-" + id, min: amounts[0], max: amounts[amounts.length - 1], value: shown, inputMode: "numeric" });
    input.setAttribute("aria-label", `Stake on ${horseWords(letters)}`);
    const pays = el("span", { className: "bet-pays", id: "pays-" + id });
    pays.setAttribute("aria-live", "polite");
    const tell = () => {
      const stake = Number(input.value);
      stakes.set(key, stake);
      if (!amounts.includes(stake)) { pays.textContent = `stake ${amounts[0]} to ${amounts[amounts.length - 1]}`; return; }
      if (kind === "bet") { pays.textContent = `pays ${cash(stake + Math.floor((stake * price[0]) / price[1]))}`; return; }
      const range = wouldPay(bets, pools, letters, stake, takeout);
      const words = { place: "if it places", show: "if it shows", board: "if it wins" }[kind] || "pays";
      pays.dataset.least = range ? range[0] : "";
      pays.textContent = range ? `${words} ${range[0] === range[1] ? cash(range[0]) : `${cash(range[0])} to ${cash(range[1])}`}` : "";
    };
    const step = (direction) => {
      const now = Number(input.value);
      const next = direction > 0 ? amounts.find((a) => a > now) : [...amounts].reverse().find((a) => a < now);
      if (next !== undefined) { input.value = next; tell(); }
    };
    const minus = el("button", { type: "button", id: `less-${id}`, onclick: () => step(-1) }, "−");
    minus.setAttribute("aria-label", `less on ${horseWords(letters)}`);
    const plus = el("button", { type: "button", id: `more-${id}`, onclick: () => step(1) }, "+");
    plus.setAttribute("aria-label", `more on ${horseWords(letters)}`);
    input.oninput = tell;
    stepper.append(minus, input, plus);
    const go = el("button", { type: "button", className: "primary", id: "bet-" + id }, "Bet");
    go.setAttribute("aria-label", `Bet on ${horseWords(letters)}`);
    go.dataset.action = `${kind} # ${letters}`;
    go.onclick = () => { if (amounts.includes(Number(input.value))) send(`${kind} ${input.value} ${letters}`); };
    item.append(stepper, pays, go);
    tell();
    return item;
  }

  return { fits, draw, settle, wouldPay };
})();
