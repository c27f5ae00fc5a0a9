"use strict";
// The results between two races (a table of the natural pace): the race's end in words, each
// seat's money and what it won or lost in that race (from the money this page saw when the
// race began), who is still looking, and a countdown; "Next race" says this person is done.
const startMoney = {}; // race number -> each seat's money when this page first saw that race
let breakClock = null;
function raceOf(view) {
  for (const key of ["round", "race_number", "race"]) if (view && typeof view[key] === "number") return [key, view[key]];
  return [null, null];
}
function moneyOf(view) { return (view && (view.chips || view.money)) || null; }
function noteRace(view) {
  const [, race] = raceOf(view);
  const held = moneyOf(view);
  if (race !== null && held && !(race in startMoney)) startMoney[race] = [...held];
}
function showBreak(info) {
  clearInterval(breakClock);
  $("results").hidden = !info;
  if (!info) return;
  const [key] = raceOf(lastState && lastState.view);
  $("results-heading").textContent = `${key === "round" ? "Round" : "Race"} ${info.race} is over`;
  $("results-lines").innerHTML = "";
  for (const text of info.lines) {
    const item = document.createElement("li");
    item.textContent = text;
    $("results-lines").appendChild(item);
  }
  const now = moneyOf(lastState && lastState.view) || [];
  const before = startMoney[info.race];
  const cash = (amount) => money(amount, unit(lastState && lastState.view));
  $("results-money").innerHTML = "";
  now.forEach((held, seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = seat;
    row.innerHTML = "<td></td><td></td><td></td>";
    row.children[0].textContent = nameOf(seat) + (seat === mySeat() ? " (you)" : "");
    row.children[1].textContent = cash(held);
    const change = before ? held - before[seat] : null;
    row.children[2].textContent = change === null ? "-" : change > 0 ? "+" + cash(change) : change < 0 ? "−" + cash(-change) : "even";
    $("results-money").appendChild(row);
  });
  const mine = info.waiting.includes(mySeat());
  $("next-race").hidden = !mine;
  $("next-race").disabled = false;
  const others = info.waiting.filter((seat) => seat !== mySeat()).map(nameOf);
  const ends = Date.now() + info.seconds * 1000;
  const tell = () => {
    const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
    const who = others.length ? `Waiting for ${others.join(", ")} to tap Next race. ` : "";
    $("results-wait").textContent = `${who}The next race starts in ${left} s.`;
  };
  tell();
  breakClock = setInterval(tell, 1000);
}
