"""Classic Mode with forced dice and cards: exact chip counts derived from RULINGS.md §1 and the
seed text (seeds/001), not from the engine's code.

Table used unless said otherwise: dealer seat 0, so the deal and the first scratch roll start at
seat 1, scratch roll k is made by seat k mod n, and the race starts at the seat after the fourth
scratch roller.
"""

from __future__ import annotations

import pytest

from horserace.components.cards import counts_from_ranks
from horserace.core.types import CHANCE, TERMINAL
from horserace.engine import Game, Step, replay
from horserace.families.board.rules.actions import ROLL
from horserace.families.board.rules.events import (
    CardDealt,
    CardsDiscarded,
    ChipsPaid,
    GameOver,
    HandsPassed,
    HorseAdvanced,
    HorseScratched,
    PayoutMade,
    PotCarried,
    PotShared,
    RaceWon,
    RepeatRerolled,
    RoundStarted,
)
from horserace.families.board.rules.state import Phase
from horserace.families.presets import get_preset
from tests.helpers import (
    count,
    deal_script,
    dice_for,
    events_of,
    fill_hands,
    random_game,
    rolls,
    scripted_game,
)

RULES = get_preset("classic").rules


def paid_by(steps: list[Step], seat: int) -> list[tuple[int, int]]:
    """(owed, paid) of every ChipsPaid event of `seat`, in order."""
    return [(e.owed, e.paid) for e in events_of(steps, ChipsPaid) if e.seat == seat]


def chips(game: Game) -> tuple[int, ...]:
    players: int = game.config.players
    return tuple(game.state.ledger.balances[:players])


def roll_actors(steps: list[Step], phase: Phase) -> list[int]:
    """The seats that called for the dice during `phase`, in order."""
    return [
        s.actor
        for s in steps
        if isinstance(s.actor, int) and s.action == ROLL and s.before.phase is phase
    ]


# --- the seed's example and the scratch phase ---------------------------------------------------

SEED_HANDS = [  # 3 players: 14 cards each; the other two 4s lie in the stub
    [2, 2, 2, 2, 3, 3, 3, 3, 5, 5, 5, 5, 6, 6],
    [4, 4, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 9, 9],
    [9, 9, 10, 10, 10, 10, 11, 11, 11, 11, 12, 12, 12, 12],
]


def test_seed_example_rescratched_horse_moves_down_and_its_holder_pays_again() -> None:
    steps: list[Step] = []
    script = deal_script(SEED_HANDS, dealer=0) + rolls(4, 12, 4, 11)
    game = scripted_game({"players": 3, "rounds": 1}, script, steps=steps)
    after_first = next(
        s.after for s in steps if any(isinstance(e, HorseScratched) for e in s.events)
    )
    assert after_first.lines == (4, 0, 0, 0)
    state = game.state
    # Horse 4 moved from line 1 to line 3: line 1 is empty; Q on 2, J on 4.
    assert state.lines == (0, 12, 4, 11)
    moved = [e for e in events_of(steps, HorseScratched) if e.horse == 4]
    assert [(e.line, e.from_line) for e in moved] == [(1, None), (3, 1)]
    # Player 2 (seat 1) paid 1 x 2 at the first scratch, then 3 x 2 = 6 more.
    assert paid_by(steps, 1) == [(2, 2), (6, 6)]
    # Seat 2 holds four Q (line 2) and four J (line 4); seat 0 holds none of 4, Q, J.
    assert paid_by(steps, 2) == [(8, 8), (16, 16)]
    assert paid_by(steps, 0) == []
    assert chips(game) == (100, 92, 76)
    assert state.pot == 2 + 6 + 8 + 16
    # The 4s were discarded once; they are not discarded a second time.
    assert state.discards == counts_from_ranks([4, 4] + [12] * 4 + [11] * 4)
    assert count(SEED_HANDS[1], 4) == 2 and state.hands[1][4] == 0
    # Scratch rollers 1, 2, 0, 1; the race starts at the seat after the fourth: seat 2.
    assert roll_actors(steps, Phase.SCRATCH) == [1, 2, 0, 1]
    assert state.phase is Phase.RACE
    assert game.actor == 2
    assert replay(game.record(), get_preset).ok  # a scripted record replays from its events


def test_a_horse_rescratched_every_time_ends_on_line_4_and_costs_1_2_3_4() -> None:
    steps: list[Step] = []
    # Horse 4 four times: it moves 1 -> 2 -> 3 -> 4, the only scratched horse. Race from seat 2:
    # seat 2 rolls 4 and owes the line it stands on, 4.
    script = deal_script(SEED_HANDS, dealer=0) + rolls(4, 4, 4, 4) + rolls(4)
    game = scripted_game({"players": 3}, script, steps=steps)
    assert game.state.lines == (0, 0, 0, 4)
    assert paid_by(steps, 1) == [(2, 2), (4, 4), (6, 6), (8, 8)]
    assert paid_by(steps, 2) == [(4, 4)]
    assert paid_by(steps, 0) == []
    assert game.state.pot == 2 * (1 + 2 + 3 + 4) + 4


def test_first_scratch_costs_line_number_per_card_per_player() -> None:
    hands = fill_hands(4, {0: [7], 1: [7, 7], 2: [8, 8, 8], 3: [7, 8]})
    steps: list[Step] = []
    game = scripted_game({"players": 4}, deal_script(hands, 0) + rolls(7, 8), steps=steps)
    assert paid_by(steps, 0) == [(1, 1)]
    assert paid_by(steps, 1) == [(2, 2)]
    assert paid_by(steps, 2) == [(6, 6)]
    assert paid_by(steps, 3) == [(1, 1), (2, 2)]
    assert chips(game) == (99, 98, 94, 97)
    assert game.state.pot == 4 * 1 + 4 * 2
    discarded = {(e.seat, e.rank, e.count) for e in events_of(steps, CardsDiscarded)}
    assert discarded == {(0, 7, 1), (1, 7, 2), (3, 7, 1), (2, 8, 3), (3, 8, 1)}
    for seat in range(4):
        assert game.state.hands[seat][7] == 0 and game.state.hands[seat][8] == 0
        assert sum(game.state.hands[seat]) == 11 - count(hands[seat], 7) - count(hands[seat], 8)
    assert game.state.lines == (7, 8, 0, 0)


def test_pay_what_you_can_and_a_broke_player_plays_on() -> None:
    hands = [  # 4 players, one deck, 11 cards each
        [7, 7, 7, 7, 8, 2, 2, 2, 2, 3, 3],
        [8, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6],
        [8, 8, 3, 6, 6, 6, 9, 9, 9, 9, 10],
        [10, 10, 10, 11, 11, 11, 11, 12, 12, 12, 12],
    ]
    # Scratch 7, 8, J, Q (lines 1..4) by seats 1, 2, 3, 0. Race: seat 1 rolls 2, seat 2 rolls 2,
    # seat 3 rolls scratched Q, seat 0 rolls scratched 7, seat 1 rolls 2 and horse 2 wins.
    script = deal_script(hands, 0) + rolls(7, 8, 11, 12) + rolls(2, 2, 12, 7, 2)
    steps: list[Step] = []
    game = scripted_game({"players": 4, "rounds": 1, "starting_chips": 3}, script, steps=steps)
    # Seat 0 owes 4 for its 7s and pays its 3; then owes 2 for its 8 with nothing left; then
    # rolls the 7 (line 1) in the race, owes 1 and pays nothing, and the race goes on.
    assert paid_by(steps, 0) == [(4, 3), (2, 0), (1, 0)]
    assert paid_by(steps, 1) == [(2, 2)]
    assert paid_by(steps, 2) == [(4, 3)]
    assert paid_by(steps, 3) == [(12, 3), (16, 0), (4, 0)]
    assert roll_actors(steps, Phase.RACE) == [1, 2, 3, 0, 1]
    # Pot 3 + 2 + 3 + 3 = 11, share 11 // 4 = 2; seat 0 holds four 2s.
    assert [(e.pot, e.share) for e in events_of(steps, PotShared)] == [(11, 2)]
    assert chips(game) == (8, 1, 0, 0)
    assert game.state.pot == 3
    assert game.over


# --- the race -----------------------------------------------------------------------------------


def test_race_scratched_roll_costs_line_value_and_horse_2_needs_three_advances() -> None:
    hands = fill_hands(4)
    # Scratch 5, 6, 8, 9; race rollers 1, 2, 3, 0, 1, 2.
    script = deal_script(hands, 0) + rolls(5, 6, 8, 9) + rolls(2, 7, 6, 2, 12, 2)
    steps: list[Step] = []
    game = scripted_game({"players": 4, "rounds": 1}, script, steps=steps)
    advances = [(e.horse, e.position) for e in events_of(steps, HorseAdvanced)]
    assert advances == [(2, 1), (7, 1), (2, 2), (12, 1), (2, 3)]
    race = _race_steps(steps)
    race_paid = [
        (seat, e.owed, e.paid) for seat, step in race for e in events_of([step], ChipsPaid)
    ]
    assert race_paid == [(3, 2, 2)]  # seat 3 rolled horse 6, on scratch line 2
    assert all(step.after.phase is Phase.RACE for _, step in race[:-1])
    won = events_of(steps, RaceWon)
    assert [(e.horse, e.rolls) for e in won] == [(2, 6)]
    assert game.over and game.actor is TERMINAL


def _race_steps(steps: list[Step]) -> list[tuple[int, Step]]:
    """The dice steps of the race, each with the seat that called for them."""
    found = []
    for index, step in enumerate(steps):
        if step.actor is CHANCE and step.before.phase is Phase.RACE:
            roller = steps[index - 1].actor
            assert isinstance(roller, int)
            found.append((roller, step))
    return found


@pytest.mark.parametrize(("horse", "slots"), [(7, 1), (12, 4)])
def test_finish_needs_slots_plus_one_advances_on_a_custom_board(horse: int, slots: int) -> None:
    lanes = {str(h): 3 for h in range(2, 13)}
    lanes[str(horse)] = slots
    board = {"name": "test", "lanes": lanes}
    script = deal_script(fill_hands(2), 0) + rolls(3, 4, 5, 6) + [dice_for(horse)] * (slots + 1)
    steps: list[Step] = []
    game = scripted_game({"players": 2, "rounds": 1, "board": board}, script, steps=steps)
    positions = [e.position for e in events_of(steps, HorseAdvanced)]
    assert positions == list(range(1, slots + 2))
    assert [e.horse for e in events_of(steps, RaceWon)] == [horse]
    assert game.over


# --- payout -------------------------------------------------------------------------------------


def test_one_deck_payout_is_a_quarter_of_the_pot_per_winning_card() -> None:
    hands = fill_hands(4, {0: [2, 2, 2], 2: [2]})
    # Scratches cost 4 x (1 + 2 + 3 + 4) = 40; seat 2 then rolls horse 8 on line 3: pot 43.
    script = deal_script(hands, 0) + rolls(5, 6, 8, 9) + rolls(2, 8, 2, 2)
    steps: list[Step] = []
    game = scripted_game({"players": 4, "rounds": 2}, script, steps=steps)
    won = events_of(steps, PotShared)
    assert [(e.horse, e.pot, e.share) for e in won] == [(2, 43, 10)]
    assert {(e.seat, e.cards, e.amount) for e in events_of(steps, PayoutMade)} == {
        (0, 3, 30),
        (2, 1, 10),
    }
    assert [e.amount for e in events_of(steps, PotCarried)] == [3]
    state = game.state
    assert state.round == 2 and state.pot == 3  # the remainder waits for round 2
    winning = next(s for s in steps if events_of([s], PotShared))
    before = winning.before.ledger.balances
    assert state.ledger.balances[0] == before[0] + 30
    assert state.ledger.balances[2] == before[2] + 10
    assert state.ledger.total == 4 * 100


def test_two_deck_payout_is_an_eighth_of_the_pot_per_winning_card() -> None:
    # 5 players: 88 cards, 17 each, stub 3. All eight 2s are held: seat 4 five, seat 1 three.
    hands = fill_hands(5, {4: [2] * 5, 1: [2] * 3}, stub=[3, 3, 3])
    # Scratch rollers 1..4; race rollers 0, 1, 2, 3. Scratches: 8 x (1+2+3+4) = 80;
    # seat 0 rolls horse 8 (line 3): pot 83; share 83 // 8 = 10.
    script = deal_script(hands, 0) + rolls(5, 6, 8, 9) + rolls(8, 2, 2, 2)
    steps: list[Step] = []
    game = scripted_game({"players": 5, "rounds": 1}, script, steps=steps)
    assert [(e.pot, e.share) for e in events_of(steps, PotShared)] == [(83, 10)]
    assert {(e.seat, e.amount) for e in events_of(steps, PayoutMade)} == {(4, 50), (1, 30)}
    assert game.state.pot == 3
    result = RULES.result(game.state)
    assert result.unclaimed == 3


def test_nobody_holding_the_winner_carries_the_whole_pot() -> None:
    # 10 players, two decks: 8 cards each and a stub of 8, which holds every 2.
    hands = fill_hands(10, stub=[2] * 8)
    script = deal_script(hands, 0) + rolls(5, 6, 8, 9) + rolls(2, 2, 2)
    steps: list[Step] = []
    game = scripted_game({"players": 10, "rounds": 2}, script, steps=steps)
    expected_pot = 8 * (1 + 2 + 3 + 4)
    assert [(e.horse, e.pot, e.share) for e in events_of(steps, PotShared)] == [
        (2, expected_pot, 10)
    ]
    assert events_of(steps, PayoutMade) == []
    assert [e.amount for e in events_of(steps, PotCarried)] == [expected_pot]
    assert game.state.round == 2 and game.state.pot == expected_pot


# --- dealing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "each", "stub"), [(2, 22, 0), (3, 14, 2), (4, 11, 0), (5, 17, 3), (12, 7, 4)]
)
def test_deal_is_even_and_the_rest_is_the_stub(players: int, each: int, stub: int) -> None:
    steps: list[Step] = []
    game = random_game({"players": players, "rounds": 1}, seed=players, observe=steps.append)
    state = next(s.before for s in steps if s.before.phase is Phase.SCRATCH)
    assert [sum(hand) for hand in state.hands] == [each] * players
    assert sum(state.deck) == stub
    assert len(events_of(steps, CardDealt)) == each * players
    view = RULES.view(state, 0)
    assert view.hand_sizes == (each,) * players and view.undealt == stub
    assert game.over


def test_deal_goes_one_card_at_a_time_from_the_dealers_left() -> None:
    hands = fill_hands(5, {3: [12, 11, 10]}, stub=[2, 2, 2])
    steps: list[Step] = []
    game = scripted_game(
        {"players": 5, "first_dealer": 2}, deal_script(hands, dealer=2), steps=steps
    )
    seats = [e.seat for e in events_of(steps, CardDealt)]
    assert seats == [(3 + i) % 5 for i in range(85)]
    assert seats[:5] == [3, 4, 0, 1, 2]
    for seat in range(5):
        assert game.state.hands[seat] == counts_from_ranks(hands[seat])
    assert game.state.deck == counts_from_ranks([2, 2, 2])
    assert game.state.phase is Phase.SCRATCH
    assert game.actor == 3  # the first scratch roll: the dealer's left


# --- reset and the next round -------------------------------------------------------------------


def test_reset_passes_hands_left_redeals_discards_and_stub_and_moves_the_dealer() -> None:
    hands = fill_hands(3, {}, stub=[2, 2])
    # Round 1 (dealer 0): scratches 5, 6, 5, 8 by seats 1, 2, 0, 1: three horses, 12 discards.
    # Race from seat 2: horse 12 three times.
    round_1 = deal_script(hands, 0) + rolls(5, 6, 5, 8) + rolls(12, 12, 12)
    # Round 2 (dealer 1): 12 discards + 2 stub = 14 cards, 4 each from seat 2, stub 2.
    new_cards = [[5, 5, 6, 6], [5, 5, 8, 8], [6, 6, 8, 8]]
    round_2 = deal_script(new_cards, dealer=1) + rolls(3, 4, 9, 10) + [dice_for(7)]
    steps: list[Step] = []
    scripted_game({"players": 3, "rounds": 2}, round_1 + round_2, steps=steps)
    won = next(s for s in steps if events_of([s], RaceWon))
    end = next(s for s in steps if events_of([s], HandsPassed))  # two steps on: paid, then reset
    assert steps.index(end) == steps.index(won) + 2
    kept = won.after.hands
    reset = end.after
    assert events_of([end], HandsPassed)
    assert [
        (e.round, e.dealer, e.cards_to_deal, e.stub) for e in events_of([end], RoundStarted)
    ] == [(2, 1, 12, 2)]
    assert reset.dealer == 1 and reset.round == 2 and reset.phase is Phase.DEAL
    for seat in range(3):
        assert reset.hands[(seat + 1) % 3] == kept[seat]  # seat i's hand goes to seat i + 1
    assert reset.deck == counts_from_ranks([2, 2] + [5, 6, 8] * 4)
    assert reset.lines == (0, 0, 0, 0) and set(reset.positions) == {0}
    dealt = next(s.before for s in steps if s.before.round == 2 and s.before.phase is Phase.SCRATCH)
    for seat in range(3):
        passed = kept[(seat - 1) % 3]
        new = counts_from_ranks(new_cards[seat])
        assert dealt.hands[seat] == tuple(a + b for a, b in zip(passed, new, strict=True))
    assert dealt.deck == counts_from_ranks([2, 2])
    # Round 2 scratch rollers start at the new dealer's left (seat 2); the race at the seat after
    # the fourth scratch roller.
    second_round = [s for s in steps if s.before.round == 2]
    assert roll_actors(second_round, Phase.SCRATCH) == [2, 0, 1, 2]
    assert roll_actors(second_round, Phase.RACE) == [0]


def test_a_round_with_fewer_cards_than_players_to_deal_deals_none() -> None:
    # 12 players, two decks: 7 cards each, a stub of four 7s; the other four 7s are held.
    hands = fill_hands(12, {0: [7, 7], 5: [7], 11: [7]}, stub=[7] * 4)
    # Horse 7 is scratched four times (seats 1..4), then horse 2 wins (seats 5, 6, 7).
    script = deal_script(hands, 0) + rolls(7, 7, 7, 7) + rolls(2, 2, 2)
    steps: list[Step] = []
    game = scripted_game({"players": 12, "rounds": 2}, script, steps=steps)
    # Round 2: 4 discards + 4 stub = 8 cards, fewer than 12 players: all 8 stay in the stub.
    started = events_of(steps, RoundStarted)
    assert [(e.round, e.dealer, e.cards_to_deal, e.stub) for e in started] == [(2, 1, 0, 8)]
    state = game.state
    assert state.phase is Phase.SCRATCH and game.actor == 2
    assert state.deck == counts_from_ranks([7] * 8)
    assert sum(map(sum, state.hands)) == 12 * 7 - 4


@pytest.mark.parametrize(("rotate", "first_dealer"), [(True, 0), (True, 3), (False, 2)])
def test_roller_order_every_round(rotate: bool, first_dealer: int) -> None:
    steps: list[Step] = []
    options = {"players": 5, "rounds": 4, "rotate_dealer": rotate, "first_dealer": first_dealer}
    random_game(options, seed=11, observe=steps.append)
    for round_number in range(1, 5):
        dealer = (first_dealer + (round_number - 1 if rotate else 0)) % 5
        in_round = [s for s in steps if s.before.round == round_number]
        assert {s.before.dealer for s in in_round} == {dealer}
        deals = events_of(in_round, CardDealt)
        assert deals[0].seat == (dealer + 1) % 5
        scratch = roll_actors(in_round, Phase.SCRATCH)
        assert scratch == [(dealer + k) % 5 for k in range(1, 5)]
        race = roll_actors(in_round, Phase.RACE)
        assert race[:5] == [(dealer + 5 + k) % 5 for k in range(min(5, len(race)))]


# --- the end ------------------------------------------------------------------------------------


def test_equal_most_chips_share_the_win() -> None:
    both = [r for r in range(2, 13) for _ in range(2)]  # two of every rank each
    # Scratch rollers 1, 0, 1, 0; race from seat 1: horse 2 three times.
    script = deal_script([both, both], 0) + rolls(3, 4, 10, 11) + rolls(2, 2, 2)
    steps: list[Step] = []
    game = scripted_game({"players": 2, "rounds": 1}, script, steps=steps)
    # Each pays 2 x (1 + 2 + 3 + 4) = 20: pot 40, share 10, each gets 2 x 10.
    assert chips(game) == (100, 100)
    result = RULES.result(game.state)
    assert result.winners == (0, 1)
    assert [(s.seat, s.place, s.chips) for s in result.standings] == [(0, 1, 100), (1, 1, 100)]
    assert result.unclaimed == 0
    assert [e.winners for e in events_of(steps, GameOver)] == [(0, 1)]
    record = game.record()
    assert record.result is not None and record.result["winners"] == [0, 1]


def test_the_game_ends_after_the_agreed_rounds_with_standings() -> None:
    steps: list[Step] = []
    game = random_game({"players": 4, "rounds": 3}, seed=5, observe=steps.append)
    assert len(events_of(steps, RaceWon)) == 3
    assert [e.round for e in events_of(steps, RoundStarted)] == [2, 3]
    result = RULES.result(game.state)
    final = chips(game)
    assert [s.chips for s in result.standings] == sorted(final, reverse=True)
    assert sorted(s.seat for s in result.standings) == [0, 1, 2, 3]
    top = max(final)
    assert result.winners == tuple(seat for seat in range(4) if final[seat] == top)
    assert result.unclaimed == game.state.pot


# --- options ------------------------------------------------------------------------------------


def test_reroll_option_rolls_a_repeat_again_and_charges_nothing() -> None:
    hands = fill_hands(4)
    # Seat 1 scratches 4; seat 2 rolls 4 (again: rolls once more) then 6; seat 3 scratches 8;
    # seat 0 rolls 4 (again) then 9. Race from seat 1.
    script = deal_script(hands, 0) + rolls(4, 4, 6, 8, 4, 9) + [dice_for(7)]
    steps: list[Step] = []
    game = scripted_game({"players": 4, "repeat_scratch": "reroll"}, script, steps=steps)
    assert game.state.lines == (4, 6, 8, 9)
    rerolled = [(e.seat, e.horse) for e in events_of(steps, RepeatRerolled)]
    assert rerolled == [(2, 4), (0, 4)]
    for step in steps:
        if events_of([step], RepeatRerolled):
            assert events_of([step], ChipsPaid) == []
            assert events_of([step], HorseScratched) == []
    # Every card of 4, 6, 8 and 9 is held (four players, no stub): 4 x (1 + 2 + 3 + 4).
    owed = [owed for seat in range(4) for owed, _ in paid_by(steps, seat)]
    assert sum(owed) == 40
    assert roll_actors(steps, Phase.SCRATCH) == [1, 2, 2, 3, 0, 0]
    assert roll_actors(steps, Phase.RACE) == [1]
