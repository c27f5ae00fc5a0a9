"""The Derby's live odds print no tenth they are not sure of: a chance prints to a tenth of a
point only when its 95% interval is within half a tenth, else in whole percents. The precise
estimate (every chance within a tenth) comes first, then, while no newer position waits, the
refined one (every chance within half a tenth, so every one prints to a tenth)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from horserace.families.derby import live_odds, sampled_odds
from horserace.families.derby.render import percent
from horserace.families.derby.rules.model import DerbyView
from horserace.families.derby.rules.rules import DerbyRules
from horserace.families.derby.rules.track import packaged_track
from horserace.families.derby.rules.transcript import place_horses, play_texts, setup_texts
from horserace.families.derby.sampled_odds import CHUNK, PlaceOdds, race_odds

RULES = DerbyRules()


def view_of(positions: dict[int, int]) -> DerbyView:
    """A sprint of four horses at the start of a turn, moved to `positions`."""
    config = RULES.make_config({"players": 4, "races": 1, "track": "sprint"})
    texts = setup_texts((1, 2, 3, 4), (1, 1, 1, 1), (0, 0, 0, 0))
    state, _ = play_texts(RULES, RULES.initial_state(config), texts)
    view: DerbyView = RULES.view(place_horses(state, positions), None)
    return view


def odds(chances: tuple[float, ...], samples: int, rough: bool = False) -> PlaceOdds:
    horses = tuple(range(1, len(chances) + 1))
    return PlaceOdds(horses, tuple((p, 0.0, 0.0) for p in chances), samples, rough=rough)


def test_a_chance_prints_to_a_tenth_only_when_sure_of_it() -> None:
    sampled = odds((0.05, 0.3, 0.65), 1_000_000)  # 95% half-widths 0.043, 0.090, 0.093 point
    assert [sampled.to_a_tenth(h, 1) for h in (1, 2, 3)] == [True, False, False]
    assert not sampled.all_to_a_tenth
    assert odds((0.3, 0.7), 4_000_000).all_to_a_tenth  # 0.045 point
    assert odds((0.3, 0.7), 0).all_to_a_tenth  # exact
    assert not odds((0.3, 0.7), 1000, rough=True).to_a_tenth(1, 1)
    assert percent(0.0512, False, True) == "   5.1"
    assert percent(0.3046, False, False) == "    30"  # not 30.5: that tenth is not sure
    assert percent(0.3046, True, False) == "   ~30"


def test_the_refined_estimate_goes_on_while_it_is_let() -> None:
    race = view_of({1: 4, 2: 5, 3: 8, 4: 0}).race
    assert race is not None
    track = packaged_track("sprint")
    told = iter([True, True, False])
    let = race_odds(race, track, samples=40 * CHUNK, precision=0.0, going=lambda: next(told))
    assert let == race_odds(race, track, samples=3 * CHUNK)  # the same first races


def test_an_estimate_gone_on_from_is_the_same_as_one_from_scratch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    race = view_of({1: 4, 2: 5, 3: 8, 4: 0}).race
    assert race is not None
    track = packaged_track("sprint")
    first = race_odds(race, track, samples=2 * CHUNK, precision=0.0)
    whole = race_odds(race, track, samples=5 * CHUNK, precision=0.0)
    played: list[int] = []
    races = sampled_odds.simulate_races

    def counted(*args: Any, **kwargs: Any) -> Any:
        played.append(kwargs["first"])
        return races(*args, **kwargs)

    monkeypatch.setattr(sampled_odds, "simulate_races", counted)
    gone_on = race_odds(race, track, samples=5 * CHUNK, precision=0.0, after=first)
    assert gone_on == whole and gone_on.samples == 5 * CHUNK
    assert played == [2 * CHUNK, 3 * CHUNK, 4 * CHUNK]  # the first two steps not played again
    assert race_odds(race, track, samples=2 * CHUNK, after=first) == first  # nothing to add


@pytest.fixture
def fake_estimates(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Precise odds with a chance too wide for a tenth, refined ones without; the refinement
    waits for `release` and says what `going()` told it then."""
    seen: dict[str, Any] = {"release": threading.Event(), "going": []}

    def precise(key: DerbyView) -> PlaceOdds:
        return odds((0.05, 0.3, 0.25, 0.4), 1_000_000)

    def refined(key: DerbyView, going: Any = None, after: Any = None) -> PlaceOdds:
        seen["release"].wait(60)
        if going is not None and not going():
            seen["going"].append(False)
            return odds((0.05, 0.3, 0.25, 0.4), 2 * CHUNK)  # cut short: fewer races
        return odds((0.05, 0.3, 0.25, 0.4), 4_000_000)

    monkeypatch.setattr(live_odds, "precise_odds", precise)
    monkeypatch.setattr(live_odds, "refined_odds", refined)
    return seen


def test_the_precise_odds_are_refined_next(fake_estimates: dict[str, Any]) -> None:
    live, view = live_odds.LiveOdds(), view_of({1: 4, 2: 5, 3: 8, 4: 0})
    drawn: list[str] = []
    first = live.odds(view, ready=lambda: drawn.append("precise"))
    assert first is not None and first.rough
    fake_estimates["release"].set()
    live.settle()
    refined = live.odds(view)
    assert refined is not None and refined.samples == 4_000_000 and refined.all_to_a_tenth
    assert drawn == ["precise"]


def test_a_refinement_gives_way_to_a_newer_position(fake_estimates: dict[str, Any]) -> None:
    live = live_odds.LiveOdds()
    older, newer = view_of({1: 4, 2: 5, 3: 8, 4: 0}), view_of({1: 6, 2: 5, 3: 8, 4: 2})
    live.odds(older)
    key = live_odds.odds_key(older)
    for _ in range(600):  # the older position's precise odds in, its refinement under way
        if live._working == key and key in live._done:
            break
        threading.Event().wait(0.05)
    live.odds(newer)  # waits for its precise odds: the refinement stops
    fake_estimates["release"].set()
    live.settle()
    assert fake_estimates["going"][:1] == [False]
    kept = live.odds(older)  # the precise estimate stays: the cut one had fewer races
    assert kept is not None and kept.samples == 1_000_000 and not kept.all_to_a_tenth
    newest = live.odds(newer)  # refined, with nothing newer waiting
    assert newest is not None and newest.samples == 4_000_000


def test_odds_whose_races_are_all_run_are_not_asked_for_again(
    monkeypatch: pytest.MonkeyPatch, fake_estimates: dict[str, Any]
) -> None:
    """A board asks again each time it is told its odds are in: once the refinement has run all
    its races (here too few for every tenth), asking again works nothing more out, so the odds'
    thread does not go round redrawing the board for ever."""
    monkeypatch.setattr(live_odds, "REFINED_SAMPLES", 2_000_000)
    view = view_of({1: 3, 2: 6, 3: 7, 4: 1})  # a position of its own: the odds' threads of
    refined: list[int] = []  # other tests may still refine theirs, with this test's fake

    def capped(key: DerbyView, going: Any = None, after: Any = None) -> PlaceOdds:
        if key == live_odds.odds_key(view):
            refined.append(len(refined))
        return odds((0.05, 0.3, 0.25, 0.4), 2_000_000)  # all the races, a chance still wide

    monkeypatch.setattr(live_odds, "refined_odds", capped)
    live = live_odds.LiveOdds()
    told: list[str] = []

    def ready() -> None:  # as a board does: drawn again, so asked again
        told.append("in")
        live.odds(view, ready=ready)

    live.odds(view, ready=ready)
    live.settle()  # the precise odds, then the refined ones (their board asked again)
    last = live.odds(view, ready=ready)
    live.settle()
    assert last is not None and last.samples == 2_000_000 and not last.all_to_a_tenth
    assert refined == [0]  # refined once, never again
    assert told == ["in", "in"]
