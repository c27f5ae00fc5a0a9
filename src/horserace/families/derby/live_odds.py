"""The Derby's live odds for a server: a quick estimate at once, the precise one from a thread.

A table's odds are those of the position at the start of the turn: the turn's dice falling
one by one do not change them (as on the terminal board), so the six steps of a turn share one
entry. The first request for a position gets a quick estimate (ODDS_SAMPLES races, a few
milliseconds) and queues the precise one, worked out on a thread of its own in two steps:
PRECISE_SAMPLES races (every chance within 0.1 point, 95%; those within half a tenth, the
small ones, print to a tenth, the others in whole percents), then, refined while no newer
position waits, races until every chance is within half a tenth (at most REFINED_SAMPLES), so
that every printed tenth is within a tenth of the truth. Half a tenth everywhere at once would
take four times the races (1.7 s of CPU a position on average, up to 2.6 s: longer than a
turn on the board), so the first step keeps its cost (about 0.5 s) and the refinement gives
way to the next position. The compiled kernel lets go of the interpreter while it runs, so a
server's event loop keeps serving meanwhile; the newest positions are worked out first, and
the next update of the table carries them. At most WAITING positions wait for each step: an
older one is dropped (its table has moved on). The terminal's board asks for the same figures
(`odds`): the quick estimate comes back marked `rough` and the board is drawn again when each
step is in (`ready`); a board printed line by line waits for the refined odds (`precise`).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from horserace.core.aside import aside
from horserace.core.errors import HorseraceError
from horserace.core.shown_odds import ShownOdds
from horserace.families.derby.sampled_odds import HALF_TENTH, PlaceOdds, table_odds

if TYPE_CHECKING:
    from horserace.families.derby.rules.model import DerbyView

ODDS_SAMPLES = 1000  # the quick estimate: a few milliseconds, about 1.5 points of noise
PRECISE_SAMPLES = 1_000_000  # the precise estimate: every chance within 0.098 point (95%)
REFINED_SAMPLES = 4_000_000  # the refined one: every chance within half a tenth (3.84 million)
ODDS_SEED = 0  # fixed, so the same table always shows the same numbers
KEEP = 1024  # precise estimates kept (the most recently used)
WAITING = 8  # positions waiting for their precise estimate, newest first

Wins = tuple[tuple[str, float], ...]
log = logging.getLogger(__name__)


def odds_key(view: DerbyView) -> DerbyView:
    """The view with what the odds do not read blanked out, so every seat, wager and payout
    of one table position, and every die of a turn still falling, share one entry."""
    n = len(view.horses)
    race = view.race
    if race is not None:
        mid_dice = race.dice and race.waiting_for == "d20" and not race.queue
        race = replace(race, dice=() if mid_dice else race.dice, last_dice=())
    return replace(
        view,
        seat=None,
        order=(),
        to_act=None,
        silks=(None,) * n,
        odds=(None,) * n,
        wagers=(0,) * n,
        money=(0,) * n,
        bank=0,
        podiums=(),
        race=race,
    )


def final(odds: PlaceOdds) -> bool:
    """Nothing more to work out: every chance prints to a tenth, or the refinement's races are
    all run (asked again, it would return the same estimate and, on a screen that asks again
    when told, go round for ever)."""
    return odds.all_to_a_tenth or odds.samples >= REFINED_SAMPLES


def wins(odds: PlaceOdds) -> Wins:
    return tuple((str(horse), odds.win(horse)) for horse in odds.horses)


def shown(odds: PlaceOdds) -> ShownOdds:
    """The win chances with the digits the board prints them with: a tenth only where sure."""
    decimals = {str(horse): int(odds.to_a_tenth(horse, 1)) for horse in odds.horses}
    return ShownOdds(dict(wins(odds)), decimals, odds.rough)


@lru_cache(maxsize=256)
def quick_odds(key: DerbyView) -> PlaceOdds | None:
    """The quick estimate, marked `rough` (an exact answer is not)."""
    odds = table_odds(key, samples=ODDS_SAMPLES, seed=ODDS_SEED)
    return odds if odds is None or odds.exact else replace(odds, rough=True)


def precise_odds(key: DerbyView) -> PlaceOdds | None:
    """Every chance within a tenth of a point; those within half a tenth print to a tenth."""
    return table_odds(key, samples=PRECISE_SAMPLES, seed=ODDS_SEED, precision=HALF_TENTH)


def refined_odds(
    key: DerbyView, going: Callable[[], bool] | None = None, after: PlaceOdds | None = None
) -> PlaceOdds | None:
    """Every chance within half a tenth, so every one prints to a tenth (the same first races
    as `precise_odds`, then more, gone on from `after` when it is one of these estimates);
    fewer races if `going()` says to stop."""
    if after is not None and (after.rough or after.exact):
        after = None  # not a whole number of the steps these take
    return table_odds(
        key, samples=REFINED_SAMPLES, seed=ODDS_SEED, precision=HALF_TENTH, going=going, after=after
    )


class LiveOdds:
    """Each view's odds: exact or refined when known, else the precise or the quick estimate
    (and the next step queued)."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._done: OrderedDict[DerbyView, PlaceOdds] = OrderedDict()
        self._waiting: deque[DerbyView] = deque()  # for their precise odds
        self._refining: deque[DerbyView] = deque()  # for their refined odds, when none waits
        self._working: DerbyView | None = None
        self._thread: threading.Thread | None = None
        self._ready: dict[DerbyView, list[Callable[[], None]]] = {}

    def wins(self, view: DerbyView) -> Wins | None:
        """None where the table has no odds (horses still being picked, or a bad track)."""
        odds = self.odds(view)
        return None if odds is None else wins(odds)

    def odds(self, view: DerbyView, ready: Callable[[], None] | None = None) -> PlaceOdds | None:
        """Exact or refined when known, else the quick estimate (`rough`) or the precise one
        while the next step is worked out; `ready()` is called (on the odds' thread) once it
        is in."""
        key = odds_key(view)
        found = self._looked_up(key)
        if found is None or final(found):
            return found
        with self._lock:
            if self._done.get(key, found) is not found:  # in since it was looked up
                return self._done[key]
            self._queue(key, self._refining if key in self._done else self._waiting)
            if ready is not None:
                self._ready.setdefault(key, []).append(ready)
        return found

    def _looked_up(self, key: DerbyView) -> PlaceOdds | None:
        """Exact, refined or precise when known, else the quick estimate (None: the table has
        none)."""
        try:
            quick = quick_odds(key)
        except HorseraceError:
            return None
        if quick is None or quick.exact:
            return quick
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return self._done[key]
        return quick

    def precise(self, view: DerbyView) -> PlaceOdds | None:
        """Exact or refined, worked out now if need be, on a thread of its own while the main
        thread waits in short timed waits: Ctrl-C reaches it (a kernel's first compile, run on
        it, would swallow it)."""
        return aside(self._precise_now, view)

    def _precise_now(self, view: DerbyView) -> PlaceOdds | None:
        key = odds_key(view)
        found = self._looked_up(key)
        if found is None or final(found):
            return found
        odds = refined_odds(key, after=found) or found
        with self._lock:
            self._keep(key, odds)
        return odds

    def _queue(self, key: DerbyView, queue: deque[DerbyView]) -> None:
        """Queue `key` for its next step (the lock held), newest first."""
        if key == self._working or key in queue:
            return
        queue.appendleft(key)
        while len(queue) > WAITING:
            self._ready.pop(queue.pop(), None)
        self._lock.notify_all()
        if self._thread is None:  # a daemon: a server that stops does not wait for it
            self._thread = threading.Thread(target=self._work, name="derby-odds", daemon=True)
            self._thread.start()

    def _keep(self, key: DerbyView, odds: PlaceOdds) -> None:
        """Keep an estimate (the lock held) unless a better one is kept already."""
        kept = self._done.get(key)
        if kept is None or kept.samples < odds.samples:
            self._done[key] = odds
        while len(self._done) > KEEP:
            self._done.popitem(last=False)

    def settle(self) -> None:
        """Wait until every waiting estimate, precise and refined, is done."""
        with self._lock:
            self._lock.wait_for(
                lambda: not self._waiting and not self._refining and self._working is None
            )

    def forget_waiting(self) -> None:
        """Work nothing more out for the positions asked so far (their screens are gone): the
        thread finishes the position under way and then waits."""
        with self._lock:
            self._waiting.clear()
            self._refining.clear()
            self._ready.clear()

    def _none_waiting(self) -> bool:
        """A refinement goes on while no position waits for its precise odds."""
        with self._lock:
            return not self._waiting

    def _work(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: bool(self._waiting or self._refining))
                refine = not self._waiting
                key = self._working = (self._refining if refine else self._waiting).popleft()
                kept = self._done.get(key)
            try:
                going = self._none_waiting
                odds = refined_odds(key, going, kept) if refine else precise_odds(key)
            except Exception:  # never lose the thread: the estimate kept stays instead
                log.exception("the precise Derby odds failed")
                odds = None if refine else quick_odds(key)
            with self._lock:
                if odds is not None:
                    self._keep(key, odds)
                self._working = None
                if not refine and odds is not None and not final(odds):
                    self._queue(key, self._refining)  # refined next, unless a newer one waits
                ready = self._ready.pop(key, [])
                self._lock.notify_all()
            for call in ready:
                try:
                    call()
                except Exception:  # a screen gone meanwhile: nothing to draw on
                    log.debug("a board waiting for the Derby odds is gone", exc_info=True)


LIVE = LiveOdds()
