"use strict";
// Keeping the books of a real board at table speed (the host of a companion table): where the
// rules count a roll by its sum alone (the server says so in state.entry.sums, the same rule
// the terminal reads), one tap on the sum enters a person's roll and its dice together; a deal
// is entered a hand at a time on a grid of ranks and counts, each hand confirmed once. Once
// every hand of the deal is in, the cards go to the table one at a time in the order the rules
// deal them (each its own entry, as the undo takes them back), paced under the socket's rate.
const Companion = (() => {
  const RATE = 15; // moves sent by themselves a second, and at once (BURST): under the
  const BURST = 40; // socket's 20 messages a second and 60 at once, with room to spare
  let tokens = BURST;
  let filled = Date.now();
  let typed = []; // the hands confirmed: [{seat, texts}], in the deal's order
  let sending = false; // every hand is in: the cards are on their way
  let then = null; // the dice to enter once a person's roll is in
  let picked = new Map(); // the hand on the grid: action text ("deal 7") -> count
  let timer = null;

  const rankOf = (text) => text.replace(/^deal /, "");
  const handName = (seat, nameOf) => (seat === null ? "the market" : nameOf(seat));

  function reset() {
    typed = []; sending = false; then = null; picked = new Map();
    if (timer) clearTimeout(timer);
    timer = null;
  }

  function next(state) {
    // the move to send by itself now, if any: a typed card whose hand the deal has reached,
    // or the dice of a roll tapped by its sum
    const entry = state.entry;
    if (!state.legal.length || !entry) return null;
    if (entry.hands.length && sending) {
      const hand = typed.find((h) => h.seat === entry.hands[0][0]);
      const text = hand && hand.texts[0];
      if (text && state.legal.includes(text)) return text;
      reset(); // the deal went another way than typed (an undo): enter the rest again
      return null;
    }
    if (!entry.hands.length && typed.length) reset();
    if (then && state.legal.includes(then)) return then;
    then = null;
    return null;
  }

  function step(state, act, current) {
    // send the next move by itself after a short pause; true while moves are on their way
    const text = next(state);
    if (!text) return false;
    if (timer) clearTimeout(timer);
    tokens = Math.min(BURST, tokens + ((Date.now() - filled) * RATE) / 1000);
    filled = Date.now();
    const wait = tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / RATE);
    timer = setTimeout(() => {
      timer = null;
      if (!current(state)) return;
      if (then === text) then = null;
      else typed.find((h) => h.texts[0] === text && h.seat === state.entry.hands[0][0]).texts.shift();
      tokens -= 1;
      act(text);
    }, wait);
    return true;
  }

  const RANKS = { joker: 0, A: 1, J: 11, Q: 12, K: 13 };
  function asEntered(view) {
    // the board with the hands as entered, before their cards are sent (a hand the view
    // hides stays hidden: only its size grows)
    if (sending || !typed.length || !view || !view.hands) return view;
    const hands = view.hands.map((hand) => (hand ? [...hand] : hand));
    const sizes = [...view.hand_sizes];
    for (const { seat, texts } of typed) {
      if (seat === null) continue;
      sizes[seat] += texts.length;
      for (const text of texts) {
        const word = rankOf(text);
        if (hands[seat]) hands[seat][word in RANKS ? RANKS[word] : Number(word)] += 1;
      }
    }
    return { ...view, hands, hand_sizes: sizes };
  }

  function undo() {
    // a hand confirmed but not sent yet is taken back here, the server never saw it
    if (sending || !typed.length) return false;
    typed.pop();
    picked = new Map();
    return true;
  }

  function draw(root, state, nameOf, act, host, redraw) {
    // the host's controls for this state, or false to leave them to Actions
    const entry = state.entry;
    if (!host || !entry || !state.legal.length) return false;
    next(state); // what was typed and no longer fits the table is dropped before drawing
    if (then && state.legal.includes(then)) {
      fresh(root).innerHTML = `<p class="muted" role="status">Entering the dice: ${esc(then)}.</p>`;
      return true;
    }
    if (entry.hands.length) {
      if (sending) return waiting(root, entry);
      picker(root, state, nameOf, redraw);
      return true;
    }
    if (entry.sums && state.legal.length === 1 && state.legal[0] === "roll") {
      const all = [];
      for (let a = 1; a <= 6; a++) for (let b = a; b <= 6; b++) all.push(`${a}+${b}`);
      fresh(root).appendChild(Actions.sumGrid(all, (pair) => { then = pair; act("roll"); }));
      return true;
    }
    return false;
  }

  function fresh(root) {
    root.innerHTML = "";
    root.dataset.drawn = ""; // Actions draws again next time
    return root;
  }

  function waiting(root, entry) {
    const left = entry.hands.reduce((sum, hand) => sum + hand[1], 0);
    fresh(root).innerHTML = `<p class="muted" role="status">Dealing the hands as entered: ${left} cards to go.</p>`;
    return true;
  }

  function picker(root, state, nameOf, redraw) {
    const entry = state.entry;
    const [seat, owed] = entry.hands[typed.length];
    const who = handName(seat, nameOf);
    const box = fresh(root);
    if (typed.length) {
      const shown = document.createElement("p");
      shown.className = "hands-entered";
      shown.textContent = "Entered: " + typed.map((h) => `${handName(h.seat, nameOf)}: ${h.texts.map(rankOf).join(" ")}`).join(" · ");
      box.appendChild(shown);
    }
    const count = () => [...picked.values()].reduce((a, b) => a + b, 0);
    const head = document.createElement("p");
    head.className = "hand-head";
    box.appendChild(head);
    const grid = document.createElement("div");
    grid.className = "card-grid";
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", `The cards of ${who}'s hand`);
    const taken = new Map();
    for (const hand of typed) for (const text of hand.texts) taken.set(text, (taken.get(text) || 0) + 1);
    for (const text of state.legal) {
      const left = (entry.pack[text] || 0) - (taken.get(text) || 0);
      if (left <= 0) continue;
      const row = document.createElement("div");
      row.className = "card-row";
      row.innerHTML = `<span class="card-rank">${esc(rankOf(text))}</span>`;
      for (let n = 1; n <= Math.min(left, owed); n++) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = "×" + n;
        b.setAttribute("aria-label", `${n} × ${rankOf(text)}`);
        b.setAttribute("aria-pressed", picked.get(text) === n ? "true" : "false");
        b.onclick = () => {
          if (picked.get(text) === n) picked.delete(text);
          else picked.set(text, n);
          for (const other of row.querySelectorAll("button")) other.setAttribute("aria-pressed", other === b && picked.get(text) === n ? "true" : "false");
          show();
        };
        row.appendChild(b);
      }
      grid.appendChild(row);
    }
    box.appendChild(grid);
    const enter = document.createElement("button");
    enter.type = "button";
    enter.className = "primary enter-hand";
    enter.onclick = () => {
      const texts = [];
      for (const text of state.legal) for (let i = 0; i < (picked.get(text) || 0); i++) texts.push(text);
      typed.push({ seat, texts });
      picked = new Map();
      sending = typed.length === entry.hands.length;
      redraw(); // the board shows the hand as entered, the grid the next hand
    };
    box.appendChild(enter);
    const rest = new Map(state.legal.map((text) => [text, (entry.pack[text] || 0) - (taken.get(text) || 0)]));
    if ([...rest.values()].reduce((a, b) => a + Math.max(0, b), 0) === owed) {
      // no stub: the last hand is every card still in the pack, in one tap
      const all = document.createElement("button");
      all.type = "button";
      all.className = "enter-hand";
      all.textContent = `${who} has the rest`;
      all.onclick = () => {
        picked = new Map([...rest].filter(([, n]) => n > 0));
        enter.onclick();
      };
      box.appendChild(all);
    }
    function show() {
      const n = count();
      head.textContent = `${who}'s hand: ${owed} cards · picked ${n}: ${[...state.legal].flatMap((t) => Array(picked.get(t) || 0).fill(rankOf(t))).join(" ") || "none yet"}`;
      enter.textContent = n > owed ? `${n} cards: ${who} gets ${owed}` : `Enter ${who}'s hand (${n} of ${owed})`;
      enter.disabled = n !== owed;
    }
    show();
  }

  return { draw, step, undo, reset, asEntered };
})();
