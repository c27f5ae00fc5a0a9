"use strict";
// Choices made by tapping cards: the draft (the packet's card to keep), Husted's discard (0 to
// 2 cards of the hand) and the face cards' powers (J, Q or K, then a horse). The cards are
// toggles; one button says what the selection does and sends it, once the rules allow it.
const Picker = (() => {
  const NAMES = { 0: "joker", 1: "A", 11: "J", 12: "Q", 13: "K" };
  const BACK = { JOKER: 0, A: 1, J: 11, Q: 12, K: 13 };
  const POWER = { 11: "jack", 12: "queen", 13: "king" };
  const POWER_SAYS = { jack: "back one slot", queen: "a chip under it (its next roll does not move it)", king: "two chips under it (its next two rolls do not move it)" };
  let chosen = { drawn: "", cards: [], horse: null }; // the selection, kept while the moves stay

  function rankOf(word) { return word.toUpperCase() in BACK ? BACK[word.toUpperCase()] : Number(word); }
  function rankText(rank) { return NAMES[rank] || String(rank); }
  function kindOf(text) {
    if (/^keep \S+$/.test(text)) return "keep";
    if (/^discard( \S+)+$/.test(text)) return "discard";
    if (/^(jack|queen|king) \d+$/.test(text)) return "power";
    return null;
  }
  // the moves this picker makes, and the ones left for the move bar's buttons; only a seat's
  // own move has its cards to tap (a companion's keeper enters others' moves from the list)
  function split(legal, own) {
    const kinds = new Set(legal.map(kindOf).filter((k) => k));
    const kind = own && kinds.size === 1 ? [...kinds][0] : null;
    return { kind, picked: kind ? legal.filter((t) => kindOf(t) === kind) : [], rest: kind ? legal.filter((t) => kindOf(t) !== kind) : legal };
  }
  function cardsOf(counts) {
    const ranks = [];
    (counts || []).forEach((n, rank) => { for (let i = 0; i < n; i++) ranks.push(rank); });
    return ranks;
  }
  function sameRanks(a, b) { return JSON.stringify([...a].sort((x, y) => x - y)) === JSON.stringify([...b].sort((x, y) => x - y)); }

  function answer(kind, picked) {
    // the move the selection makes (a legal text), or null
    const ranks = chosen.cards.map((i) => chosen.ranks[i]);
    if (kind === "keep") return ranks.length === 1 ? picked.find((t) => rankOf(t.split(" ")[1]) === ranks[0]) || null : null;
    if (kind === "discard") {
      return picked.find((t) => {
        const words = t.split(" ").slice(1);
        return sameRanks(words[0] === "none" ? [] : words.map(rankOf), ranks);
      }) || null;
    }
    if (ranks.length !== 1 || chosen.horse === null) return null;
    const text = `${POWER[ranks[0]]} ${chosen.horse}`;
    return picked.includes(text) ? text : null;
  }
  function label(kind, text) {
    if (!text) return { keep: "Tap the card to keep", discard: "Tap up to two cards to discard", power: "Tap a face card, then a horse" }[kind];
    const w = text.split(" ");
    if (kind === "keep") return `Keep ${rankText(rankOf(w[1]))}`;
    if (kind === "discard") return w[1] === "none" ? "Keep my hand (draw none)" : `Discard ${w.slice(1).map((r) => rankText(rankOf(r))).join(" ")} and draw`;
    return `${rankText(BACK[w[0][0].toUpperCase()])}: horse ${w[1]} ${POWER_SAYS[w[0]]}`;
  }

  let last = null;
  function again() { if (last) draw(...last); } // enabled afresh after a refused move
  function draw(root, kind, picked, view, send) {
    last = [root, kind, picked, view, send];
    const drawn = JSON.stringify([kind, picked]);
    if (chosen.drawn !== drawn) chosen = { drawn, cards: [], horse: null };
    root.innerHTML = "";
    root.hidden = !kind;
    if (!kind) return;
    const hand = view.hands && view.seat !== null && view.seat !== undefined ? view.hands[view.seat] : null;
    chosen.ranks = cardsOf(kind === "keep" ? view.packet : hand);
    const usable = new Set(kind === "keep" ? picked.map((t) => rankOf(t.split(" ")[1]))
      : kind === "power" ? picked.map((t) => Number(Object.keys(POWER).find((r) => POWER[r] === t.split(" ")[0])))
        : picked.flatMap((t) => t.split(" ").slice(1).filter((w) => w !== "none").map(rankOf)));
    const title = { keep: "The packet in front of you: tap the card to keep", discard: "Your hand: tap the cards to discard", power: "Your hand: tap the face card to play" }[kind];
    const cards = document.createElement("div");
    cards.className = "pick-cards";
    cards.setAttribute("role", "group");
    cards.setAttribute("aria-label", title);
    cards.innerHTML = `<span class="muted">${title}:</span> `;
    const go = document.createElement("button");
    go.type = "button";
    go.className = "primary pick-go";
    go.id = "pick-go";
    const refresh = () => {
      const text = answer(kind, picked);
      go.textContent = label(kind, text);
      go.disabled = !text;
      go.dataset.action = text || "";
      for (const b of root.querySelectorAll("[data-index]")) b.setAttribute("aria-pressed", chosen.cards.includes(Number(b.dataset.index)) ? "true" : "false");
      for (const b of root.querySelectorAll("[data-horse]")) b.setAttribute("aria-pressed", String(chosen.horse) === b.dataset.horse ? "true" : "false");
      horses();
    };
    const horseRow = document.createElement("div");
    horseRow.className = "pick-horses";
    horseRow.setAttribute("role", "group");
    horseRow.setAttribute("aria-label", "The horse");
    const horses = () => {
      // the face card chosen: the horses it may be played on
      if (kind !== "power") return;
      const card = chosen.cards.length === 1 ? chosen.ranks[chosen.cards[0]] : null;
      const offered = card === null ? [] : picked.filter((t) => t.startsWith(POWER[card] + " ")).map((t) => Number(t.split(" ")[1]));
      if (horseRow.dataset.card === String(card)) return;
      horseRow.dataset.card = String(card);
      horseRow.innerHTML = offered.length ? '<span class="muted">on horse:</span> ' : "";
      if (!offered.includes(chosen.horse)) chosen.horse = null;
      for (const horse of offered) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "pick-horse";
        b.textContent = String(horse);
        b.dataset.horse = String(horse);
        b.setAttribute("aria-label", `horse ${horse}`);
        b.setAttribute("aria-pressed", "false");
        b.onclick = () => { chosen.horse = horse; refresh(); };
        horseRow.appendChild(b);
      }
    };
    chosen.ranks.forEach((rank, index) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "card pick-card";
      b.textContent = rankText(rank);
      b.dataset.index = String(index);
      b.setAttribute("aria-label", rank === 11 || rank === 12 ? `${rankText(rank)} (${rank})` : rankText(rank));
      b.disabled = !usable.has(rank);
      b.onclick = () => {
        const at = chosen.cards.indexOf(index);
        if (at >= 0) chosen.cards.splice(at, 1);
        else if (kind === "discard") chosen.cards.push(index);
        else chosen.cards = [index];
        refresh();
      };
      cards.appendChild(b);
    });
    go.onclick = () => { const text = answer(kind, picked); if (text) send(text); };
    root.append(cards, horseRow, go);
    refresh();
  }

  return { split, draw, again };
})();
