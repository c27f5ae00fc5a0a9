"use strict";
// The drawn table: one function per family, each turning a seat's view (as JSON) into HTML.
// Tokens keep their last place between redraws so a CSS transition shows the horse moving.
const Board = (() => {
  const HORSE_COLOURS = { // dark enough for white text on a token and on the lane's number
    2: "#7d3c98", 3: "#2471a3", 4: "#117a65", 5: "#1e7b45", 6: "#b03a2e", 7: "#a04000",
    8: "#2c3e50", 9: "#7d6608", 10: "#ad1457", 11: "#00697a", 12: "#6d4c41",
  };
  const SUIT_COLOURS = ["#17703b", "#a94400", "#b03024", "#1d65a3"]; // 4.5:1 or more on white and on the lanes' cream
  const SUIT_SYMBOLS = ["♣", "♦", "♥", "♠"];
  const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
  const RANK_NAMES = { 0: "joker", 1: "A", 11: "J", 12: "Q", 13: "K" };
  const PHASES = { deal: "dealing", draft: "drafting", scratch: "scratching horses", race: "the race", betting: "betting", draw: "the draw", trade: "trading", over: "game over" };
  const CARD_PHASES = { cut: "cutting for the deal", course: "dealing the course", betting: "betting", race: "the race", over: "over" };
  const lastLeft = new Map(); // token key -> its last CSS left, so the move can be animated
  let names = [];

  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  }
  function who(seat) {
    return seat === null || seat === undefined || seat < 0 ? "-" : esc(names[seat] || "Seat " + (seat + 1));
  }
  function rankText(rank) { return RANK_NAMES[rank] || String(rank); }
  function boardCard(rank) {
    // on the dice board J and Q are horses 11 and 12: the card says so
    if (rank === 11 || rank === 12) return `<span class="card" title="${rankText(rank)} = horse ${rank}">${rankText(rank)}<sub>${rank}</sub></span>`;
    return `<span class="card">${rankText(rank)}</span>`;
  }
  function handCards(counts) {
    // a hand is a count per rank 0..13; one small card per card held
    const cards = [];
    counts.forEach((n, rank) => { for (let i = 0; i < n; i++) cards.push(boardCard(rank)); });
    return cards.length ? cards.join("") : '<span class="muted">no cards</span>';
  }
  function token(key, left, colour, label, extra) {
    const from = lastLeft.has(key) ? lastLeft.get(key) : left;
    lastLeft.set(key, left);
    return `<span class="token${extra ? " " + extra : ""}" data-key="${esc(key)}" data-left="${left}" style="left:${from};background:${colour}">${esc(label)}</span>`;
  }
  function animate(root) {
    // tokens are drawn at their old place; move them on the next frame so the transition runs
    const tokens = root.querySelectorAll(".token[data-left]");
    if (!tokens.length) return;
    void root.offsetWidth;
    requestAnimationFrame(() => tokens.forEach((t) => { t.style.left = t.dataset.left; }));
  }
  function die(value, cls) { return `<span class="die${cls ? " " + cls : ""}">${esc(value)}</span>`; }
  function box(title, body, cls) {
    return `<div class="panel${cls ? " " + cls : ""}"><div class="panel-title">${title}</div>${body}</div>`;
  }

  function percent(p, rough, tenth) {
    // as the terminal prints a chance (core/shown_odds.py): a tenth of a point only when it is
    // sure to a tenth, else whole percents, ~12 for a quick estimate
    if (rough) return `~${Math.round(p * 100)}%`;
    if (!tenth) return `${Math.round(p * 100)}%`;
    return p < 0.0005 ? "<0.1%" : `${(p * 100).toFixed(1)}%`;
  }
  function oddsBox(info, label) {
    // the live win chances the server sends (horse id -> chance), best first, each with the
    // decimals it may print with (none sent: every one to a tenth); "" when none
    const odds = info.odds;
    if (!odds) return "";
    const ranked = Object.entries(odds).filter(([, p]) => p > 0).sort((a, b) => b[1] - a[1]);
    if (!ranked.length) return "";
    const decimals = info.oddsDecimals || {};
    const tenth = (horse) => !info.oddsRough && decimals[horse] !== 0;
    const rows = ranked.map(([horse, p]) => `<div class="odds-row">${label(horse)}<span class="odds-bar" style="width:${Math.round(p * 100)}%"></span><span>${percent(p, info.oddsRough, tenth(horse))}</span></div>`);
    const note = info.oddsRough ? "~ odds being refined" : ranked.some(([horse]) => !tenth(horse)) ? "whole % being refined" : "";
    return box("Win odds", rows.join("") + (note ? `<div class="muted odds-note">${note}</div>` : ""), "odds");
  }
  function derbyColour(horse) { return `hsl(${(horse * 137) % 360} 60% 28%)`; } // 4.5:1 with white, every hue

  // --- the dice board (classic, advanced, northwoods) ---------------------------------------
  function turnOf(view) {
    // whose turn the "rolls" mark names: the roller, or while Robertson's four dice are paired,
    // the seat pairing them (the view's roller is the next one already), as on the terminal
    return view.four_dice && view.four_dice.length && typeof view.actor === "number" ? view.actor : view.roller;
  }
  function drawDiceBoard(view, info) {
    const slots = view.board.slots;
    const maxSlots = Math.max(...slots);
    const cols = maxSlots + 7; // 4 scratch lines, the number, the gate, slots, the finish
    const cell = (i) => `calc(${i} * 100% / ${cols})`;
    const lineOf = (horse) => view.lines.indexOf(horse) + 1;
    let lanes = `<div class="lane lane-head" style="--cols:${cols}">`;
    for (let k = 1; k <= 4; k++) lanes += `<span class="cell scratch-head" style="left:${cell(k - 1)}">${k}</span>`;
    lanes += `<span class="cell head" style="left:${cell(5)}">gate</span>`;
    lanes += `<span class="cell head" style="left:${cell(maxSlots + 6)}">fin</span></div>`;
    for (let horse = 2; horse <= 12; horse++) {
      const n = slots[horse - 2];
      const line = lineOf(horse);
      const pos = view.positions[horse - 2];
      const finished = !line && pos > n;
      const classes = ["lane"];
      if (line) classes.push("scratched");
      if (finished) classes.push("winner");
      let row = `<div class="${classes.join(" ")}" style="--cols:${cols}">`;
      for (let k = 1; k <= 4; k++) row += `<span class="cell scratch-line" style="left:${cell(k - 1)}"></span>`;
      row += `<span class="cell number" style="left:${cell(4)};color:${HORSE_COLOURS[horse]}">${horse}</span>`;
      row += `<span class="cell gate" style="left:${cell(5)}"></span>`;
      for (let s = 1; s <= n; s++) row += `<span class="cell slot" style="left:${cell(5 + s)}"></span>`;
      row += `<span class="cell finish" style="left:${cell(6 + n)}"></span>`;
      const at = line ? line - 1 : finished ? 6 + n : 5 + Math.min(pos, n);
      row += token("board-" + horse, cell(at), HORSE_COLOURS[horse], horse, line ? "out" : finished ? "won" : "");
      row += "</div>";
      lanes += row;
    }
    const heads = [];
    heads.push(`<b>round ${view.round}/${view.rounds}</b>`);
    heads.push(`<b>${esc(PHASES[view.phase] || view.phase)}</b>`);
    heads.push(`dealer ${who(view.dealer)}`);
    heads.push(`roller ${who(view.roller)}`);
    heads.push(`race rolls ${view.race_rolls}`);
    if (view.undealt) heads.push(`undealt ${view.undealt}`);
    const cash = (amount) => money(amount, info.unit);
    let pots = `<div class="pot">Pot <b>${cash(view.pot)}</b></div>`;
    if (view.config.jockey_pot) pots += `<div class="pot jockey">Jockey pot <b>${cash(view.jockey)}</b></div>`;
    let dice = "";
    if (info.lastDice) {
      const [a, b] = info.lastDice.dice;
      dice = `<div class="dice" data-roll="${info.diceStamp}">${die(a, "hot")}${die(b, "hot")}<span class="sum">= ${a + b}</span> <span class="muted">by ${who(info.lastDice.seat)}</span></div>`;
    }
    if (view.four_dice && view.four_dice.length) {
      dice += `<div class="dice">${view.four_dice.map((d) => die(d, "hot")).join("")} <span class="muted">to pair</span></div>`;
    }
    const notes = [];
    if (view.pending) {
      notes.push(`<div class="note warn">${who(view.pending.debtor)} owes <b>${cash(view.pending.amount)}</b> (${esc(view.pending.reason)})${view.pending.kings ? `, kings played ${view.pending.kings}` : ""}</div>`);
    }
    if (view.offer) {
      const o = view.offer;
      notes.push(`<div class="note offer">${who(o.seat)} offers ${who(o.target)} ${o.count} × ${rankText(o.give)} for a ${rankText(o.take)}</div>`);
    }
    if (view.market && view.config.market) notes.push(`<div class="note">Market: ${handCards(view.market)}</div>`);
    if (view.bet_level) notes.push(`<div class="note">Bet to meet: <b>${view.bet_level}</b></div>`);
    notes.push(oddsBox(info, (horse) => `<span style="color:${HORSE_COLOURS[horse]}">${esc(horse)}</span>`));
    let players = "";
    view.chips.forEach((chips, seat) => {
      const marks = [];
      if (seat === view.seat) marks.push("you");
      if (seat === view.dealer) marks.push("dealer");
      if (seat === turnOf(view)) marks.push(view.four_dice && view.four_dice.length ? "pairs" : "rolls");
      if (view.folded && view.folded[seat]) marks.push("folded");
      if (view.out && view.out[seat]) marks.push("out");
      const hand = view.hands[seat];
      const cards = hand ? handCards(hand) : `<span class="card back">${view.hand_sizes[seat]}</span> <span class="muted">cards</span>`;
      const bet = view.wagered && view.wagered[seat] ? ` · wagered ${cash(view.wagered[seat])}` : "";
      players += `<div class="player${seat === view.seat ? " me" : ""}${seat === info.actor ? " acting" : ""}" data-seat="${seat}"><div><b>${who(seat)}</b> <span class="muted">${marks.join(", ")}</span></div><div><b>${cash(chips)}</b>${bet}</div><div class="hand">${cards}</div></div>`;
    });
    if (view.packet && view.packet.some((n) => n)) players += `<div class="player me"><b>your packet</b><div class="hand">${handCards(view.packet)}</div></div>`;
    return `<div class="status-line">${heads.join(" · ")}</div>
      <div class="table-top"><div class="board">${lanes}</div>
      <div class="side">${pots}${dice}${notes.join("")}</div></div>
      <div class="players">${players}</div>`;
  }

  // --- Derby ----------------------------------------------------------------------------------
  function drawDerby(view, info) {
    const track = view.config.track;
    const finish = track.finish;
    const cols = finish + 1;
    const cell = (i) => `calc(${i} * 100% / ${cols})`;
    const zoneOf = (space) => track.zones.findIndex((z) => z.first <= space && space <= z.last);
    const race = view.phase === "race" || view.phase === "over" ? view.race : null; // before a race: last race's board is not this one's
    const runners = race ? race.runners : view.horses.filter((h) => h).sort((a, b) => a - b);
    const horses = [...new Set([...runners, ...view.scratched])].sort((a, b) => a - b);
    const labels = new Map(track.labels.map(([space, text]) => [space, text]));
    let head = `<div class="lane lane-head" style="--cols:${cols}">`;
    for (let s = 0; s <= finish; s++) {
      if (s === finish) head += `<span class="cell head" style="left:${cell(s)}">F</span>`;
      else if (s % 5 === 0) head += `<span class="cell head" style="left:${cell(s)}">${s}</span>`;
    }
    head += "</div>";
    let lanes = head;
    for (const horse of horses) {
      const owner = view.horses.indexOf(horse);
      const scratched = view.scratched.includes(horse);
      const pos = race ? race.positions[horse - 1] || 0 : 0;
      const stuck = race && race.stuck.includes(horse);
      const colour = derbyColour(horse);
      let row = `<div class="derby-row"><div class="rider">${owner >= 0 ? who(owner) : '<span class="muted">house</span>'}${owner >= 0 && view.odds[owner] ? ` <span class="muted">odds ${view.odds[owner]} · bet ${view.wagers[owner]}</span>` : ""}</div>`;
      row += `<div class="lane${scratched ? " scratched" : ""}" style="--cols:${cols}">`;
      for (let s = 0; s <= finish; s++) {
        let kind = "z" + Math.max(0, zoneOf(s));
        if (s === finish) kind = "finish";
        else if (track.mud.includes(s)) kind = "mud";
        else if (track.accelerators.includes(s)) kind = "accel";
        const title = labels.has(s) ? ` title="${esc(labels.get(s))}"` : "";
        row += `<span class="cell dspace ${kind}${labels.has(s) ? " labelled" : ""}" style="left:${cell(s)}"${title}></span>`;
      }
      if (!scratched) row += token("derby-" + horse, cell(Math.min(pos, finish)), colour, horse, stuck ? "stuck" : "");
      row += "</div></div>";
      lanes += row;
    }
    let dice = "";
    if (race) {
      const shown = race.dice && race.dice.length ? race.dice : race.last_dice;
      if (shown && shown.length) {
        dice = `<div class="dice">${shown.map((d, i) => (i === 3 ? '<span class="muted">zones</span>' : "") + die(d, runners.includes(d) ? "hot" : "cold")).join("")}</div>`;
      }
      if (race.mud_try) dice += `<div class="note warn">mud: horse ${race.mud_try.horse}, try ${race.mud_try.attempt}/${race.mud_try.spaces}</div>`;
      if (race.accelerating) dice += `<div class="note">accelerator: horse ${race.accelerating}</div>`;
    }
    let players = "";
    view.order.forEach((seat) => {
      players += `<div class="player${seat === view.seat ? " me" : ""}${seat === view.to_act ? " acting" : ""}"><b>${who(seat)}</b><div>horse ${view.horses[seat] || "-"} · odds ${view.odds[seat] || "-"} · wager ${view.wagers[seat]}</div><div>money <b>${money(view.money[seat], "dollars")}</b></div></div>`;
    });
    const podiums = view.podiums.map((p, i) => `race ${i + 1}: ${p.join(", ")}`).join("; ");
    const legend = '<div class="legend"><span class="dspace z0"></span>zone 1 <span class="dspace z1"></span>zone 2 <span class="dspace z2"></span>zone 3 <span class="dspace mud"></span>mud <span class="dspace accel"></span>accelerator</div>';
    return `<div class="status-line"><b>race ${view.race_number}/${view.config.races}</b> · phase <b>${esc(view.phase)}</b>${race ? ` · turn ${race.turn}` : ""} · left in the pot (the bank's) ${money(view.bank, "dollars")}${podiums ? " · " + esc(podiums) : ""}</div>
      <div class="table-top"><div class="board derby">${lanes}${legend}</div><div class="side">${dice}${oddsBox(info, (horse) => `<span style="color:${derbyColour(horse)}">${esc(horse)}</span>`)}</div></div>
      <div class="players">${players}</div>`;
  }

  // --- the card race ----------------------------------------------------------------------------
  function cardText(card) {
    if (card === null || card === undefined) return '<span class="card back">?</span>';
    if (card >= 52) return '<span class="card">joker</span>';
    const suit = Math.floor(card / 13);
    return `<span class="card" style="color:${SUIT_COLOURS[suit]}">${rankText((card % 13) + 1)}${SUIT_SYMBOLS[suit]}</span>`;
  }
  function drawCards(view, info) {
    const config = view.config;
    const last = Math.max(config.need, config.course_length);
    const cols = last + 3; // the suit, the gate, the links
    const cell = (i) => `calc(${i} * 100% / ${cols})`;
    const places = new Map(view.track.finished.map((suit, i) => [suit, i + 1]));
    let lanes = `<div class="lane course" style="--cols:${cols}"><span class="cell head" style="left:0">course</span>`;
    for (let spot = 1; spot <= last; spot++) {
      const card = spot <= view.course.length ? cardText(view.course[spot - 1]) : "";
      lanes += `<span class="cell course-card${spot === config.need ? " finish" : ""}" style="left:${cell(spot + 1)}">${card}</span>`;
    }
    lanes += "</div>";
    for (let suit = 0; suit < 4; suit++) {
      const pos = view.track.positions[suit];
      let row = `<div class="lane${places.has(suit) ? " winner" : ""}" style="--cols:${cols}"><span class="cell number" style="left:0;color:${SUIT_COLOURS[suit]}">${SUIT_SYMBOLS[suit]}</span>`;
      row += `<span class="cell gate" style="left:${cell(1)}"></span>`;
      for (let spot = 1; spot <= last; spot++) row += `<span class="cell slot${spot === config.need ? " finish" : ""}" style="left:${cell(spot + 1)}"></span>`;
      row += token("cards-" + suit, cell(Math.min(pos, last) + 1), SUIT_COLOURS[suit], SUIT_SYMBOLS[suit], places.has(suit) ? "won" : "");
      if (places.has(suit)) row += `<span class="place" style="left:${cell(last + 2)}">#${places.get(suit)}</span>`;
      row += "</div>";
      lanes += row;
    }
    const turned = view.turned && view.turned.length ? view.turned[view.turned.length - 1] : null;
    let side = `<div class="pot">Stakes on the table <b>${money(view.table, "chips")}</b>${view.bank ? ` · the bank holds ${money(view.bank, "chips")}` : ""}</div>`;
    if (turned !== null) side += `<div class="dice">last card ${cardText(turned).replace('class="card"', 'class="card hot"')}</div>`;
    side += `<div class="muted">deck ${view.deck_left} left</div>`;
    side += oddsBox(info, (letter) => {
      const suit = "CDHS".indexOf(letter);
      return suit < 0 ? esc(letter) : `<span style="color:${SUIT_COLOURS[suit]}" title="${SUIT_NAMES[suit]}">${SUIT_SYMBOLS[suit]}</span>`;
    });
    const bets = (view.betting && view.betting.bets) || [];
    if (bets.length) {
      side += box("bets", bets.map((b) => `<div>${who(b.seat)}: ${esc(b.kind)} ${b.horses.map((h) => SUIT_SYMBOLS[h]).join(" ")} · ${b.stake}</div>`).join(""));
    }
    if (config.betting === "book" && view.phase !== "course") {
      // the dealer's prices by the course count, and how a fractional price pays
      const count = (suit) => view.course.filter((c) => c !== null && c < 52 && Math.floor(c / 13) === suit).length;
      const priceOf = (n) => { const p = config.book_odds.prices.find(([c]) => c === n); return p ? `${p[1]}-${p[2]}` : null; };
      const rows = [0, 1, 2, 3].map((suit) => { const p = priceOf(count(suit)); return `<div>${SUIT_SYMBOLS[suit]} ${SUIT_NAMES[suit]}: ${p ? "<b>" + p + "</b>" : "no bets (no price for " + count(suit) + " course cards)"}</div>`; });
      const fractional = config.book_odds.prices.find(([, , per]) => per > 1);
      const rule = fractional ? `<div class="muted">Winnings are the stake times the odds, rounded down to whole chips: at ${fractional[1]}-${fractional[2]} a 1-chip bet wins ${Math.floor(fractional[1] / fractional[2])}.</div>` : "";
      side += box("Dealer's book", rows.join("") + rule);
    }
    if (config.faltering && config.betting !== "book") {
      side += `<div class="note">The course lies face down, so the dealer's book is closed: bets go on the ${config.betting === "party" ? "party's fixed prizes" : "tote"}.</div>`;
    }
    const auction = view.auction;
    if (auction && auction.bidding && auction.lot < auction.lots.length) {
      const horse = auction.lots[auction.lot];
      const high = auction.bidding.high;
      side += `<div class="note offer">Under the hammer: <b>${SUIT_SYMBOLS[horse]} ${SUIT_NAMES[horse]}</b>${high ? `, high bid ${high} by ${who(auction.bidding.leader)}` : ", no bid yet"}</div>`;
    }
    if (auction && auction.owners.some((o) => o !== null)) {
      // an owner is a seat, or null for a horse nobody has bought
      side += box("owners", auction.owners.map((o, s) => `<div>${SUIT_SYMBOLS[s]} ${SUIT_NAMES[s]}: ${o !== null ? who(o) + " (" + auction.prices[s] + ")" : "-"}</div>`).join(""));
    }
    let players = "";
    view.chips.forEach((chips, seat) => {
      const cutting = view.race === 1 && ["cut", "course", "betting"].includes(view.phase); // the first race shows who cut what
      const cutCard = cutting && view.cut && view.cut[seat] !== null && view.cut[seat] !== undefined;
      const marks = [seat === view.seat ? "you" : "", seat === view.dealer && view.phase !== "cut" ? "dealer" + (view.cut && view.cut.length && cutting ? " (highest cut)" : "") : ""].filter((m) => m);
      if (cutCard) marks.push("cut " + cardText(view.cut[seat]));
      players += `<div class="player${seat === view.seat ? " me" : ""}${seat === view.actor ? " acting" : ""}"><b>${who(seat)}</b> <span class="muted">${marks.join(", ")}</span><div><b>${money(chips, "chips")}</b></div></div>`;
    });
    const cut = view.cut && view.cut.some((c) => c !== null) && view.phase === "cut";
    return `<div class="status-line"><b>race ${view.race}/${config.races}</b> · <b>${esc(CARD_PHASES[view.phase] || view.phase)}</b> · ${cut ? "cutting for the deal" : "dealer " + who(view.dealer)} · a horse needs ${config.need} cards</div>
      <div class="table-top"><div class="board cards">${lanes}</div><div class="side">${side}</div></div>
      <div class="players">${players}</div>`;
  }

  // --- the board in words, for a screen reader (the drawing is lanes of empty cells) --------
  function plain(seat) { return seat === null || seat === undefined || seat < 0 ? "nobody" : names[seat] || "Seat " + (seat + 1); }
  function sayDiceBoard(view, info) {
    const running = [];
    const scratched = [];
    for (let horse = 2; horse <= 12; horse++) {
      const line = view.lines.indexOf(horse) + 1;
      const need = view.board.slots[horse - 2] + 1;
      if (line) scratched.push(`${horse} on line ${line}`);
      else running.push(`${horse} at ${Math.min(view.positions[horse - 2], need)} of ${need}`);
    }
    const said = [`Round ${view.round} of ${view.rounds}, ${PHASES[view.phase] || view.phase}.`, `Horses: ${running.join(", ")}.`];
    if (scratched.length) said.push(`Scratched: ${scratched.join(", ")}.`);
    if (info.lastDice) said.push(`Last roll ${info.lastDice.dice.join(" and ")}, total ${info.lastDice.dice[0] + info.lastDice.dice[1]}, by ${plain(info.lastDice.seat)}.`);
    said.push(`Pot ${money(view.pot, info.unit)}.`);
    return said.join(" ");
  }
  function sayDerby(view) {
    const race = view.phase === "race" || view.phase === "over" ? view.race : null;
    const said = [`Race ${view.race_number} of ${view.config.races}, ${view.phase}.`];
    if (race) {
      const finish = view.config.track.finish;
      said.push("Horses: " + race.runners.map((h) => {
        const owner = view.horses.indexOf(h);
        return `${h}${owner >= 0 ? " (" + plain(owner) + ")" : ""} at ${Math.min(race.positions[h - 1] || 0, finish)} of ${finish}${race.stuck.includes(h) ? ", stuck" : ""}`;
      }).join(", ") + ".");
    }
    view.order.forEach((seat) => said.push(`${plain(seat)}: horse ${view.horses[seat] || "not chosen"}, ${money(view.money[seat], "dollars")}.`));
    return said.join(" ");
  }
  function sayCards(view) {
    const need = view.config.need;
    const places = view.track.finished.map((suit, i) => `${SUIT_NAMES[suit]} ${["first", "second", "third", "fourth"][i]}`);
    const said = [`Race ${view.race} of ${view.config.races}, ${CARD_PHASES[view.phase] || view.phase}.`];
    said.push("Horses: " + [0, 1, 2, 3].map((suit) => `${SUIT_NAMES[suit]} at ${view.track.positions[suit]} of ${need}`).join(", ") + ".");
    if (places.length) said.push(`Finished: ${places.join(", ")}.`);
    const course = view.course.map((card) => card === null || card === undefined ? "face down" : card >= 52 ? "joker" : `${rankText((card % 13) + 1)} of ${SUIT_NAMES[Math.floor(card / 13)]}`);
    if (course.length) said.push(`Course: ${course.join(", ")}.`);
    return said.join(" ");
  }

  // the drawing of each rules family, by the family's name (the welcome message's `family`)
  const DRAWINGS = { board: drawDiceBoard, derby: drawDerby, cards: drawCards };
  const WORDS = { board: sayDiceBoard, derby: sayDerby, cards: sayCards };

  function draw(root, view, info) {
    names = info.names || [];
    const drawing = view ? DRAWINGS[info.family] : undefined;
    const html = drawing ? drawing(view, info) : '<p class="muted">This game has no drawing yet; its view is below.</p>';
    const words = view && WORDS[info.family] ? `<p class="sr-only board-words">${esc(WORDS[info.family](view, info))}</p>` : "";
    root.innerHTML = words + html;
    animate(root);
  }
  return { draw };
})();
