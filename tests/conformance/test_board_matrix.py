"""Every row of the board matrix (presets x house rules x their allowed combinations), many
seeded games each with random and expected-chips bots: chips are conserved, every account's
money is its start plus its own money events, the record replays, and who is asked, and what
every other seat sees, never depends on one seat's hidden cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from horserace.components.cards import ACE, JOKER, KING, with_count
from horserace.core.actions import Action
from horserace.core.chance import ScriptedChance
from horserace.core.events import redact
from horserace.core.types import CHANCE, TERMINAL
from horserace.engine import Game, Step, replay
from horserace.families.board.rules.events import MoneyEvent
from horserace.families.board.rules.records import Dealing, Payout, Scratching, innermost
from horserace.families.board.rules.state import BoardState
from horserace.families.presets import get_preset
from tests.board_positions import arrange
from tests.conformance.board_matrix import ROWS, Row, play_row

# every seat random, and a table seating every kind of bot (an EV seat beside random ones was a
# third mix: the four-seat mix seats that too, so it proved nothing more)
MIXES = (("random",), ("ev", "heuristic", "random", "ev"))
SEEDS = (11, 12, 13)


@pytest.mark.parametrize("row", ROWS, ids=repr)
@pytest.mark.parametrize("mix", MIXES, ids=",".join)
def test_money_is_explained_by_events_and_the_record_replays(
    row: Row, mix: tuple[str, ...]
) -> None:
    for seed in SEEDS:
        check_money_and_replay(row, seed, mix)


def check_money_and_replay(row: Row, seed: int, mix: tuple[str, ...]) -> None:
    accounts: list[int] = []

    def follow(step: Step) -> None:
        state: BoardState = step.after
        players = state.config.players
        if not accounts:
            accounts.extend(step.before.ledger.balances)
        total = sum(accounts)
        for event in step.events:
            if isinstance(event, MoneyEvent):
                for account, delta in event.money_moves(players):
                    accounts[account] += delta
        assert tuple(accounts) == state.ledger.balances, f"step {step.index}: {step.action}"
        assert sum(state.ledger.balances) == total

    game = play_row(row, seed, mix, observe=follow)
    assert game.over
    start = game.config.starting_chips
    result = game.rules.result(game.state)
    players = game.rules.players(game.config)
    assert sum(s.chips for s in result.standings) + result.unclaimed == players * start
    report = replay(game.record(), get_preset)
    assert report.ok, report.problems
    assert report.game is not None and report.game.state == game.state


# --- who is asked never depends on a hidden card ---------------------------------------------


def passive(legal: Sequence[Action]) -> Action:
    """A seat that never plays a card it holds: pay or pass whenever it may."""
    texts = {action.text: action for action in legal}
    for word in ("pay", "pass", "decline", "roll", "check", "meet", "discard none"):
        if word in texts:
            return texts[word]
    return legal[0]


def run_passive(game: Game, chance: Any, stop_at_payout: bool) -> list[Step]:
    steps: list[Step] = []
    while game.actor is not TERMINAL:
        if stop_at_payout and isinstance(game.state.phase_record, Payout):
            break
        actor = game.actor
        if actor is CHANCE:
            steps.append(game.apply(chance.choose(game.rules, game.state)))
        else:
            assert isinstance(actor, int)
            legal = game.rules.legal_actions(game.state, actor)
            steps.append(game.act(actor, passive(legal)))
    return steps


class Recorder:
    """A seeded chance source that also keeps what it chose, to replay the same dice."""

    def __init__(self, seed: int) -> None:
        from horserace.core.chance import SeededChance

        self._seeded = SeededChance(seed)
        self.texts: list[str] = []

    def choose(self, rules: Any, state: Any) -> Action:
        action = self._seeded.choose(rules, state)
        if rules.forced_chance(state) is None:
            self.texts.append(action.text)
        return action


POWERS = (ACE, KING, JOKER)


def swapped(state: BoardState, seat: int) -> BoardState | None:
    """The same table with one of `seat`'s power cards exchanged for another power card from
    the stub: a difference nobody else can see. None when there is no such pair."""
    hand, deck = state.cards.hands[seat], state.cards.deck
    for held in POWERS:
        for other in POWERS:
            if held != other and hand[held] and deck[other]:
                new_hand = with_count(with_count(hand, held, -1), other, 1)
                hands = list(state.cards.hands)
                hands[seat] = new_hand
                new_deck = with_count(with_count(deck, other, -1), held, 1)
                return arrange(state, hands=tuple(hands), deck=new_deck)
    return None


def until_scratching(row: Row, seed: int) -> Game:
    preset = get_preset(row.preset)
    config = preset.config({**row.options, "rounds": 1})
    game = Game(row.preset, preset.rules, config, seed=seed, chance_mode="seeded")
    from horserace.core.chance import SeededChance

    chance = SeededChance(seed)
    while not isinstance(game.state.phase_record, Scratching):
        actor = game.actor
        if actor is CHANCE:
            game.apply(chance.choose(game.rules, game.state))
        else:
            assert isinstance(actor, int)
            game.act(actor, passive(game.rules.legal_actions(game.state, actor)))
    return game


def leaves_a_stub(row: Row) -> bool:
    """The first deal leaves cards in the stub (the swap below takes one from there)."""
    preset = get_preset(row.preset)
    state = preset.rules.initial_state(preset.config(row.options))
    record = innermost(state.phase_record)
    assert isinstance(record, Dealing)
    return bool(sum(state.cards.deck) > record.to_deal)


HIDDEN_ROWS = [row for row in ROWS if row.hidden_hands and leaves_a_stub(row)]


@pytest.mark.parametrize("row", HIDDEN_ROWS, ids=repr)
def test_turn_order_and_others_views_do_not_depend_on_a_hidden_card(row: Row) -> None:
    compared = 0
    for seed in range(1, 40):
        start = until_scratching(row, seed)
        players = start.config.players
        for seat in range(players):
            other_state = swapped(start.state, seat)
            if other_state is None:
                continue
            first = Game(start.preset, start.rules, start.config, seed, "seeded", start.state)
            recorder = Recorder(seed + 1000)
            a = run_passive(first, recorder, stop_at_payout=True)
            second = Game(start.preset, start.rules, start.config, seed, "scripted", other_state)
            b = run_passive(second, ScriptedChance(recorder.texts), stop_at_payout=True)
            assert [s.actor for s in a] == [s.actor for s in b], f"seed {seed}, seat {seat}"
            others = [s for s in range(players) if s != seat] + [None]
            for x, y in zip(a, b, strict=True):
                for viewer in others:
                    where = f"seed {seed}, seat {seat}, step {x.index}, viewer {viewer}"
                    assert redact(x.events, viewer) == redact(y.events, viewer), where
                    assert start.rules.view(x.after, viewer) == start.rules.view(y.after, viewer), (
                        where
                    )
            compared += 1
        if compared >= 3:
            break
    assert compared, f"{row}: no seat held a power card with another in the stub"
