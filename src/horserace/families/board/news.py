"""What a dice-board table announces, a line per happening, in the table's money."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from horserace.components.cards import rank_text, total
from horserace.core.events import Event, redact, seat_name
from horserace.core.words import counted
from horserace.engine import Step
from horserace.families.board.rules import events as ev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.records import Dealing, innermost
from horserace.families.board.rules.seats import next_seat, seats_from
from horserace.terminal.screen import News as TerminalNews

NEWS_STYLES: Mapping[str, str] = {
    "move": "",
    "scratch": "yellow",
    "penalty": "orange1",
    "short": "bold red",
    "win": "bold green",
    "payout": "green",
    "round": "bold",
    "over": "bold magenta",
    "info": "",
}


class News(TerminalNews):
    """One announcement line; `kind` picks its colour and whether it is worth keeping on screen."""

    STYLES = NEWS_STYLES


def money_text(unit: str, amount: int) -> str:
    """Chips as a number; Northwoods' cents as dollars."""
    if unit == "cents":
        return f"${amount // 100}.{amount % 100:02d}"
    return str(amount)


def _pays(names: Sequence[str], paid: ev.ChipsPaid, unit: str) -> str:
    who = seat_name(names, paid.seat)
    why = f" ({paid.reason})" if paid.reason else ""
    where = " into the Jockey Pot" if paid.into == "jockey" else ""
    if paid.paid == paid.owed:
        return f"{who} pays {money_text(unit, paid.paid)}{where}{why}"
    owed, only = money_text(unit, paid.owed), money_text(unit, paid.paid)
    return f"{who} owes {owed}, pays only {only}{where}{why}"


def _paid_list(names: Sequence[str], payments: Sequence[ev.ChipsPaid], unit: str) -> str:
    """'paid: Ann 2, Bob 1 of 3' -- compact, as a scratch can make every seat pay."""
    if not payments:
        return "nobody holds one"
    items = [
        f"{seat_name(names, p.seat)} {money_text(unit, p.paid)}"
        + ("" if p.paid == p.owed else f" of {money_text(unit, p.owed)}")
        for p in payments
    ]
    return "paid: " + ", ".join(items)


class Takers(NamedTuple):
    """Who a deal goes round: the seats still in, from the dealer's left, then the market."""

    out: tuple[int | None, ...]
    market: bool

    @classmethod
    def of(cls, table: Any) -> Takers:
        """From a board state or a view (each tells who is out and whether there is a market)."""
        out = table.seats.out if hasattr(table, "seats") else table.out_rounds
        return cls(tuple(out), bool(table.config.market))


def deal_text(
    round_no: int,
    dealer: int,
    to_deal: int,
    stub: int,
    names: Sequence[str],
    takers: Takers | None = None,
) -> str:
    """A deal's one line: who deals how many cards to whom (never which: a hand is its holder's
    to see), and how many stay in the stub."""
    text = f"Round {round_no}: {seat_name(names, dealer)} deals {counted(to_deal, 'card')}"
    if takers is not None and to_deal:
        order = [seat_name(names, s) for s in seats_from(takers.out, next_seat(takers.out, dealer))]
        if takers.market:
            order.append("the market")
        listed = ", ".join(order[:-1]) + f" and {order[-1]}" if len(order) > 1 else order[0]
        text += f", {to_deal // len(order)} each to {listed}"
    return f"{text} ({stub} left in the stub)"


def round_news(
    round_no: int, dealer: int, to_deal: int, stub: int, names: Sequence[str], table: Any
) -> list[News]:
    """A round's opening lines: the deal, and under Husted, when it leaves no stub, that there
    is no draw (`NoDraw` says so in every later round; the first deal has no event)."""
    text = deal_text(round_no, dealer, to_deal, stub, names, Takers.of(table))
    lines = [News(text, "round")]
    if table.config.husted and stub == 0:
        lines.append(News(hev.NoDraw(round_no).describe(names), "round"))
    return lines


def opening_news(state: Any, names: Sequence[str]) -> list[News]:
    """The first deal's lines, which no event tells (the game starts dealing): from the state
    before the game's first step."""
    record = innermost(state.phase_record)
    if not isinstance(record, Dealing):
        return []
    stub = total(state.cards.deck) - record.to_deal
    return round_news(state.round, state.dealer, record.to_deal, stub, names, state)


def table_news(step: Step, names: Sequence[str], viewer: int | None) -> list[News]:
    """The log lines of one step as `viewer` may see them (None: a spectator), in the table's
    money: what the terminal prints, the web table shows and a replay tells. The game's first
    step (its first card) also says the first deal."""
    unit = getattr(getattr(step.before, "config", None), "money", "chips")
    lines = step_news(redact(step.events, viewer), names, unit, Takers.of(step.after))
    opening = opening_news(step.before, names) if step.index == 0 else []
    return [*opening, *lines]


def step_news(
    events: Sequence[Event],
    names: Sequence[str],
    unit: str = "chips",
    takers: Takers | None = None,
) -> list[News]:
    """What one step announces, a line per happening, in the order it happened: the dice with
    what they did, the payout with everyone's share, each seat's move (a bot's as a person's).
    A deal is one line, when the round starts (`deal_text`: how many cards each of `takers`
    gets), not a line a card. Amounts are in the table's money (`unit`: chips, or cents shown
    as dollars)."""
    lines: list[tuple[int, News]] = []  # (index of the first event told, line)
    rest = list(events)
    head: tuple[Event, ...] = ()
    prefix = ""
    dice = 0
    rolled = rest[0] if rest else None
    if isinstance(rolled, ev.DiceRolled):
        rest.pop(0)
        low, high = rolled.dice
        dice = low + high
        prefix = f"{seat_name(names, rolled.seat)} rolls {low}+{high}={dice}: "
        head = (rolled,)
    payments = [e for e in rest if isinstance(e, ev.ChipsPaid)]
    short = any(p.paid < p.owed for p in payments)
    scratched = any(isinstance(e, ev.HorseScratched) for e in rest)
    finish: list[Event] = [e for e in rest if isinstance(e, ev.RaceWon)]

    def say(index: int, text: str, kind: str, *covers: Event) -> None:
        nonlocal head, prefix
        if prefix and text.startswith("Horse "):  # mid-sentence after the dice
            text = "h" + text[1:]
        lines.append((index, News(prefix + text, kind, (*head, *covers))))
        head, prefix = (), ""

    for index, event in enumerate(rest):
        if isinstance(event, ev.HorseScratched):
            if event.from_line is None:
                what = f"horse {event.horse} to scratch line {event.line}"
            else:
                what = (
                    f"horse {event.horse} moves from scratch line {event.from_line} to {event.line}"
                )
            # where the holders discard and are asked to pay after (Advanced), the lines of the
            # discards and the payments say who holds one
            discarded = any(isinstance(e, ev.CardsDiscarded) for e in rest)
            tail = "" if discarded and not payments else "; " + _paid_list(names, payments, unit)
            say(index, what + tail, "short" if short else "scratch", event, *payments)
        elif isinstance(event, ev.RepeatRerolled):
            say(index, f"horse {event.horse} is already scratched, roll again", "scratch", event)
        elif isinstance(event, ev.HorseAdvanced):
            if event.position >= event.finish:
                say(index, f"horse {event.horse} crosses the finish line!", "win", event, *finish)
            else:
                where = f"slot {event.position} of {event.finish - 1}"
                say(index, f"horse {event.horse} → {where}", "move", event)
        elif isinstance(event, ev.PotShared):
            line = _payout_news(event, rest, names, unit)
            say(index, line.text, line.kind, *line.covers)
        elif isinstance(event, ev.GameOver):
            say(index, _game_over(event, names, unit), "over", event)
        elif isinstance(event, ev.RoundStarted):
            dealt = (event.round, event.dealer, event.cards_to_deal, event.stub)
            say(index, deal_text(*dealt, names, takers), "round", event)
        elif isinstance(event, ev.CardKeptFaceDown):
            say(index, f"{seat_name(names, event.seat)} keeps a card", "move", event)
        elif isinstance(event, ev.RaceWon) and not any(
            isinstance(e, ev.HorseAdvanced) and e.position >= e.finish for e in rest
        ):
            say(index, event.describe(names), "win", event)
        elif not isinstance(event, _QUIET):
            say(index, event.describe(names), _KINDS.get(type(event), "info"), event)
    if payments and not scratched:
        first = rest.index(payments[0])
        what = f"horse {dice} is scratched: " if dice and not lines else ""
        paid_text = ", ".join(_pays(names, p, unit) for p in payments)
        say(first, what + paid_text, "short" if short else "penalty", *payments)
    told = {id(e) for _, line in lines for e in line.covers}
    for index, event in enumerate(rest):  # money moved by a step no line above tells of
        if isinstance(event, ev.PayoutMade | ev.PotCarried) and id(event) not in told:
            say(index, event.describe(names), "payout", event)
    if head:  # the dice did nothing worth a line of their own
        say(-1, "no horse moves", "move")
    lines.sort(key=lambda pair: pair[0])
    return [line for _, line in lines]


_QUIET = (
    ev.CardDealt,
    ev.CardDealtFaceDown,
    hev.MarketDealt,
    hev.MarketDealtFaceDown,
    ev.ChipsPaid,
    ev.PayoutMade,
    ev.PotCarried,
    ev.RaceWon,
)
_KINDS: Mapping[type[Event], str] = {
    ev.CardKept: "move",
    hev.Checked: "move",
    hev.NoDraw: "round",
    ev.JockeyPotFilled: "payout",
    ev.JockeyPotWon: "payout",
}


def _payout_news(
    won: ev.PotShared, events: Sequence[Event], names: Sequence[str], unit: str
) -> News:
    payouts = [e for e in events if isinstance(e, ev.PayoutMade)]
    carried = next((e.amount for e in events if isinstance(e, ev.PotCarried)), None)
    pot, share = money_text(unit, won.pot), money_text(unit, won.share)
    text = f"Horse {won.horse} wins: pot {pot} pays {share} a card: "
    if payouts:
        text += ", ".join(
            f"{seat_name(names, p.seat)} +{money_text(unit, p.amount)}" for p in payouts
        )
    else:
        text += f"nobody holds a {rank_text(won.horse)}"
    if carried is not None:
        text += f"; {money_text(unit, carried)} stay in the pot"
    told = (won, *payouts, *(e for e in events if isinstance(e, ev.PotCarried)))
    return News(text, "payout", told)


def _game_over(over: ev.GameOver, names: Sequence[str], unit: str) -> str:
    who = " and ".join(seat_name(names, s) for s in over.winners)
    verb = "share the win" if len(over.winners) > 1 else "wins"
    left = money_text(unit, over.unclaimed)
    if unit == "chips":
        left += " chip" if over.unclaimed == 1 else " chips"
    return f"Game over: {who} {verb}; {left} left in the pot"
