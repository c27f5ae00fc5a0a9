"""The scratch phase, the race (two dice or four), the Joker, and how a round pays out."""

from __future__ import annotations

from dataclasses import replace

from horserace.components.cards import ACE, JOKER, KING, count_of, total, with_count
from horserace.core.events import Event
from horserace.core.rules import rank_standings
from horserace.rules.board import events as ev
from horserace.rules.board.config import SCRATCH_LINES
from horserace.rules.board.dealing import reset
from horserace.rules.board.husted import offer_power
from horserace.rules.board.model import BoardState, Phase
from horserace.rules.board.penalties import owe, pay_into, settle_pending
from horserace.rules.board.seats import active_count, next_seat, seats_from
from horserace.rules.board.trading import open_window


def scratch_value(state: BoardState, line: int) -> int:
    return state.config.scratch_values[line - 1] * state.config.penalty_unit


# --- scratch phase -------------------------------------------------------------------------


def scratch_roll(state: BoardState, horse: int) -> tuple[BoardState, list[Event]]:
    rule = state.config.repeat_scratch
    earlier = state.line_of(horse)
    roller = state.roller
    if earlier and rule == "reroll":
        return state, [ev.RepeatRerolled(roller, horse)]
    if earlier and rule == "move":
        state, events = _rescratch(state, horse, earlier, state.scratch_rolls + 1)
    elif earlier:  # chain: only the roller pays the horse's position
        reason = f"rolled scratched horse {horse} (position {earlier})"
        state, events = owe(state, roller, scratch_value(state, earlier), reason), []
    else:
        line = state.scratch_rolls + 1 if rule == "move" else state.scratched_count + 1
        state, events = _first_scratch(state, horse, line)
    state = replace(state, scratch_rolls=state.scratch_rolls + 1, roller=next_seat(state, roller))
    if rule == "move" or not earlier:  # a horse went onto a line
        state = open_window(state, "after-each-scratch")
    done = state.scratch_rolls == SCRATCH_LINES if rule == "move" else state.scratched_count == 4
    if done:
        state, opened = _open_market(state)
        events.extend(opened)
        state = open_window(state, "after-scratch")
        first = {
            "after-last-scratch": state.roller,
            "last-scratcher": roller,
            "dealer-left": next_seat(state, state.dealer),
        }[state.config.race_starts]
        state = replace(state, phase=Phase.RACE, roller=first)
    return state, events


def _open_market(state: BoardState) -> tuple[BoardState, list[Event]]:
    """Schellenberg: the market gives up its scratched cards and is turned face up."""
    if not state.config.market:
        return state, []
    market, discards = state.market, state.discards
    for horse in state.lines:
        if horse and count_of(market, horse):
            discards = with_count(discards, horse, count_of(market, horse))
            market = with_count(market, horse, -count_of(market, horse))
    state = replace(state, market=market, discards=discards)
    return state, [ev.MarketOpened(tuple(market))]


def market_price(state: BoardState) -> int:
    """The value of the highest occupied scratch line."""
    line = max((index + 1 for index, horse in enumerate(state.lines) if horse), default=0)
    return scratch_value(state, line) if line else 0


def buy(state: BoardState, take: int, give: int, events: list[Event]) -> BoardState:
    seat, price = state.buyer, market_price(state)
    state = pay_into(state, seat, state.config.players, price, "a market card", events)
    hands = list(state.hands)
    hands[seat] = with_count(with_count(hands[seat], take, 1), give, -1)
    market = with_count(with_count(state.market, take, -1), give, 1)
    events.append(ev.CardBought(seat, take, give, price))
    return replace(state, hands=tuple(hands), market=market, buyer=-1)


def _first_scratch(state: BoardState, horse: int, line: int) -> tuple[BoardState, list[Event]]:
    """Every holder discards the horse's cards and owes the line's value per card."""
    events: list[Event] = [ev.HorseScratched(horse, line, None)]
    lines = list(state.lines)
    lines[line - 1] = horse
    state = replace(state, lines=tuple(lines))
    for seat in seats_from(state, state.roller):
        cards = count_of(state.hands[seat], horse)
        if not cards:
            continue
        hands, given_up = list(state.hands), list(state.scratch_discards)
        hands[seat] = with_count(hands[seat], horse, -cards)
        given_up[seat] = with_count(given_up[seat], horse, cards)
        state = replace(
            state,
            hands=tuple(hands),
            scratch_discards=tuple(given_up),
            discards=with_count(state.discards, horse, cards),
        )
        events.append(ev.CardsDiscarded(seat, horse, cards))
        reason = f"{cards} × {horse} at scratch line {line}"
        state = owe(state, seat, scratch_value(state, line) * cards, reason)
    return state, events


def _rescratch(
    state: BoardState, horse: int, earlier: int, line: int
) -> tuple[BoardState, list[Event]]:
    """The horse moves down to the new line and its former holders pay that line again."""
    lines = list(state.lines)
    lines[earlier - 1], lines[line - 1] = 0, horse
    state = replace(state, lines=tuple(lines))
    for seat in seats_from(state, state.roller):
        cards = count_of(state.scratch_discards[seat], horse)
        if cards:
            reason = f"held {cards} × {horse}, now on scratch line {line}"
            state = owe(state, seat, scratch_value(state, line) * cards, reason)
    return state, [ev.HorseScratched(horse, line, earlier)]


# --- the race ---------------------------------------------------------------------------------


def race_roll(state: BoardState, horse: int) -> tuple[BoardState, list[Event]]:
    roller = state.roller
    state = _roll_taken(state)
    state, events = race_sum(state, horse, roller)
    return _after_roll(state, roller), events


def four_dice(state: BoardState, dice: tuple[int, ...]) -> BoardState:
    """Robertson: the roller now chooses how to pair the dice."""
    return replace(_roll_taken(state), four_dice=dice, pairer=state.roller)


def pair(state: BoardState, first: int, second: int) -> BoardState:
    state = replace(state, four_dice=(), sums=(first, second))
    return _after_roll(state, state.pairer)


def _roll_taken(state: BoardState) -> BoardState:
    return replace(state, race_rolls=state.race_rolls + 1, roller=next_seat(state, state.roller))


def _after_roll(state: BoardState, seat: int) -> BoardState:
    """Once this roll is settled the roller may play a Joker (Advanced) or buy (the market)."""
    if state.winner:
        return state
    if state.config.responses and count_of(state.hands[seat], JOKER):
        return replace(state, joker_seat=seat)
    hand = state.hands[seat]
    affordable = state.ledger.balances[seat] >= market_price(state)
    if state.config.market and total(state.market) and total(hand) and affordable:
        return replace(state, buyer=seat)
    return state


def race_sum(state: BoardState, horse: int, seat: int) -> tuple[BoardState, list[Event]]:
    """One sum: a scratched horse costs `seat` its line value, a running horse advances."""
    line = state.line_of(horse)
    if line:
        reason = f"rolled scratched horse {horse} on line {line}"
        return offer_power(owe(state, seat, scratch_value(state, line), reason), seat), []
    if state.blocks[horse - 2]:  # Husted: a chip under the horse stops this roll
        blocks = list(state.blocks)
        blocks[horse - 2] -= 1
        return replace(state, blocks=tuple(blocks)), [ev.HorseBlocked(horse, blocks[horse - 2])]
    return move_horse(state, horse, 1, seat)


def move_horse(
    state: BoardState, horse: int, step: int, seat: int
) -> tuple[BoardState, list[Event]]:
    position = state.position(horse) + step
    finish = state.config.board.advances_to_finish(horse)
    positions = list(state.positions)
    positions[horse - 2] = position
    state = replace(state, positions=tuple(positions))
    if position >= finish:  # the race is decided; whatever was still to come is void
        state = replace(
            state, winner=horse, mover=seat, sums=(), joker_seat=-1, buyer=-1, power_seat=-1
        )
    return state, [ev.HorseAdvanced(horse, position, finish)]


def play_joker(state: BoardState, horse: int, forward: bool, events: list[Event]) -> BoardState:
    seat = state.joker_seat
    hands = list(state.hands)
    hands[seat] = with_count(hands[seat], JOKER, -1)
    state = replace(
        state,
        hands=tuple(hands),
        discards=with_count(state.discards, JOKER, 1),
        joker_seat=-1,
    )
    state, moved = move_horse(state, horse, 1 if forward else -1, seat)
    events.append(ev.JokerPlayed(seat, horse, forward))
    events.extend(moved)
    return state


# --- after every action -----------------------------------------------------------------------


def proceed(state: BoardState, events: list[Event]) -> tuple[BoardState, list[Event]]:
    """Do everything automatic: pay penalties nobody can answer, resolve a queued second sum,
    and pay out once the race is decided and nothing is owed any more."""
    while True:
        state = settle_pending(state, events)
        if state.pending:
            return state, events
        if state.sums:
            horse, state = state.sums[0], replace(state, sums=state.sums[1:])
            state, moved = race_sum(state, horse, state.pairer)
            events.extend(moved)
            continue
        if state.winner and state.phase is Phase.RACE:
            return finish_race(state, events)
        return state, events


def finish_race(state: BoardState, events: list[Event]) -> tuple[BoardState, list[Event]]:
    config = state.config
    horse, pot = state.winner, config.players
    if config.responses:  # cards with powers still held are paid for
        fees = ((KING, 2, "K"), (ACE, 3, "A"), (JOKER, 4, "joker"))
        for seat in seats_from(state, next_seat(state, state.dealer)):
            for rank, times, name in fees:
                held = count_of(state.hands[seat], rank)
                if held:
                    owed = held * times * config.ante
                    state = pay_into(state, seat, pot, owed, f"holding {held} × {name}", events)
    holders = [
        (seat, count_of(state.hands[seat], horse))
        for seat in seats_from(state, next_seat(state, state.dealer))
        if count_of(state.hands[seat], horse) and not state.folded[seat]
    ]
    cards_held = sum(cards for _, cards in holders)
    if config.payout == "share":
        portion = state.pot // (4 * config.decks)
    else:
        portion = state.pot // cards_held if cards_held else 0
    events.append(ev.RaceWon(horse, state.race_rolls, state.pot, portion))
    ledger = state.ledger
    for seat, cards in holders:
        ledger = ledger.transfer(pot, seat, cards * portion)
        events.append(ev.PayoutMade(seat, cards, cards * portion))
    state = replace(state, ledger=ledger)
    if config.jockey_pot:
        jockey = pot + 1
        ledger = ledger.transfer(pot, jockey, ledger.balances[pot])
        winnings = ledger.balances[jockey]
        state = replace(state, ledger=ledger.transfer(jockey, state.mover, winnings))
        events.append(ev.JockeyPotWon(state.mover, winnings))
    events.append(ev.PotCarried(state.pot))
    return end_round(state, events)


def end_round(state: BoardState, events: list[Event]) -> tuple[BoardState, list[Event]]:
    config = state.config
    if config.elimination:
        out = tuple(o or s for o, s in zip(state.out, state.short, strict=True))
        for seat in range(config.players):
            if out[seat] and not state.out[seat]:
                events.append(ev.PlayerOut(seat))
        state = replace(state, out=out)
    if state.round == config.rounds or (config.elimination and active_count(state) <= 1):
        chips = state.ledger.balances[: config.players]
        result = rank_standings(chips, unclaimed=state.pot + state.jockey)
        events.append(ev.GameOver(result.winners, result.unclaimed))
        return replace(state, phase=Phase.OVER), events
    return reset(state, events)
