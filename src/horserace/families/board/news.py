"""What a dice-board table announces, a line per happening, in the table's money."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from horserace.components.cards import rank_text
from horserace.core.events import Event, seat_name
from horserace.families.board.rules import events as ev
from horserace.families.board.rules import house_events as hev
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
    if paid.paid == paid.owed:
        return f"{who} pays {money_text(unit, paid.paid)}"
    return f"{who} owes {money_text(unit, paid.owed)}, pays only {money_text(unit, paid.paid)}"


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


def step_news(events: Sequence[Event], names: Sequence[str], unit: str = "chips") -> list[News]:
    """What one step announces, a line per happening: the dice with what they did, the payout
    with everyone's share, a new round. Deals say nothing (there are dozens per round).
    Amounts are in the table's money (`unit`: chips, or cents shown as dollars)."""
    news: list[News] = []
    rest = list(events)
    head = ""
    dice = 0
    rolled = rest[0] if rest else None
    if isinstance(rolled, ev.DiceRolled):
        rest.pop(0)
        low, high = rolled.dice
        dice = low + high
        head = f"{seat_name(names, rolled.seat)} rolls {low}+{high}={dice}: "
    payments = [e for e in rest if isinstance(e, ev.ChipsPaid)]
    short = any(p.paid < p.owed for p in payments)
    for event in rest:
        if isinstance(event, ev.HorseScratched):
            if event.from_line is None:
                what = f"horse {event.horse} to scratch line {event.line}"
            else:
                what = (
                    f"horse {event.horse} moves from scratch line {event.from_line} to {event.line}"
                )
            tail = "; " + _paid_list(names, payments, unit)
            news.append(News(head + what + tail, "short" if short else "scratch"))
        elif isinstance(event, ev.RepeatRerolled):
            news.append(
                News(head + f"horse {event.horse} is already scratched, roll again", "scratch")
            )
        elif isinstance(event, ev.HorseAdvanced):
            if event.position >= event.finish:
                news.append(News(head + f"horse {event.horse} crosses the finish line!", "win"))
            else:
                where = f"slot {event.position} of {event.finish - 1}"
                news.append(News(head + f"horse {event.horse} → {where}", "move"))
        elif isinstance(event, ev.PotShared):
            news.append(_payout_news(event, rest, names, unit))
        elif isinstance(event, ev.GameOver):
            news.append(News(_game_over(event, names, unit), "over"))
        elif isinstance(event, ev.RoundStarted):
            news.append(News(event.describe(names), "round"))
        elif not isinstance(event, _QUIET):
            news.append(News(event.describe(names)))
    if payments and not any(isinstance(e, ev.HorseScratched) for e in rest):
        what = f"horse {dice} is scratched: " if dice else ""
        paid_text = ", ".join(_pays(names, p, unit) for p in payments)
        news.insert(0, News(head + what + paid_text, "short" if short else "penalty"))
    return news


_QUIET = (
    ev.CardDealt,
    ev.CardDealtFaceDown,
    hev.MarketDealt,
    hev.MarketDealtFaceDown,
    ev.CardKept,
    ev.CardKeptFaceDown,
    hev.Checked,
    ev.CardsDiscarded,
    ev.ChipsPaid,
    ev.PayoutMade,
    ev.PotCarried,
    ev.HandsPassed,
    ev.RaceWon,
    ev.JockeyPotFilled,
)


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
    return News(text, "payout")


def _game_over(over: ev.GameOver, names: Sequence[str], unit: str) -> str:
    who = " and ".join(seat_name(names, s) for s in over.winners)
    verb = "share the win" if len(over.winners) > 1 else "wins"
    left = money_text(unit, over.unclaimed)
    if unit == "chips":
        left += " chip" if over.unclaimed == 1 else " chips"
    return f"Game over: {who} {verb}; {left} left in the pot"
