"""The Derby's live odds for a server: a quick estimate at once, the precise one from a thread.

A table's odds are those of the position at the start of the turn: the turn's dice falling
one by one do not change them (as on the terminal board), so the six steps of a turn share one
entry. The first request for a position gets a quick estimate (ODDS_SAMPLES races, a few
milliseconds) and queues the precise one: races until every chance is within a tenth of a
point (95%), at most PRECISE_SAMPLES, worked out on a thread of its own. The compiled kernel
lets go of the interpreter while it runs, so a server's event loop keeps serving meanwhile;
the newest positions are worked out first, and the next update of the table carries them.
At most WAITING positions wait their turn: an older one is dropped (its table has moved on).
The terminal's board asks for the same figures (`odds`): the quick estimate comes back marked
`rough` and the board is drawn again when the precise one is in (`ready`); a board printed line
by line waits for it (`precise`).
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
from horserace.families.derby.sampled_odds import TENTH, PlaceOdds, table_odds

if TYPE_CHECKING:
    from horserace.families.derby.rules.model import DerbyView

ODDS_SAMPLES = 1000  # the quick estimate: a few milliseconds, about 1.5 points of noise
PRECISE_SAMPLES = 2_000_000  # at most this many races for the precise estimate
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


def wins(odds: PlaceOdds) -> Wins:
    return tuple((str(horse), odds.win(horse)) for horse in odds.horses)


@lru_cache(maxsize=256)
def quick_odds(key: DerbyView) -> PlaceOdds | None:
    """The quick estimate, marked `rough` (an exact answer is not)."""
    odds = table_odds(key, samples=ODDS_SAMPLES, seed=ODDS_SEED)
    return odds if odds is None or odds.exact else replace(odds, rough=True)


def precise_odds(key: DerbyView) -> PlaceOdds | None:
    return table_odds(key, samples=PRECISE_SAMPLES, seed=ODDS_SEED, precision=TENTH)


class LiveOdds:
    """Each view's odds: exact or precise when known, else the quick estimate (and the precise
    one queued)."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._done: OrderedDict[DerbyView, PlaceOdds] = OrderedDict()
        self._waiting: deque[DerbyView] = deque()
        self._working: DerbyView | None = None
        self._thread: threading.Thread | None = None
        self._ready: dict[DerbyView, list[Callable[[], None]]] = {}

    def wins(self, view: DerbyView) -> Wins | None:
        """None where the table has no odds (horses still being picked, or a bad track)."""
        odds = self.odds(view)
        return None if odds is None else wins(odds)

    def odds(self, view: DerbyView, ready: Callable[[], None] | None = None) -> PlaceOdds | None:
        """Exact or precise when known, else the quick estimate (`rough`) while the precise one
        is worked out; `ready()` is called (on the odds' thread) once it is in."""
        key = odds_key(view)
        found = self._looked_up(key)
        if found is None or not found.rough:
            return found
        with self._lock:
            if key in self._done:  # in since it was looked up
                return self._done[key]
            self._queue(key)
            if ready is not None:
                self._ready.setdefault(key, []).append(ready)
        return found

    def _looked_up(self, key: DerbyView) -> PlaceOdds | None:
        """Exact or precise when known, else the quick estimate (None: the table has none)."""
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
        """Exact or precise, worked out now if need be, on a thread of its own while the main
        thread waits in short timed waits: Ctrl-C reaches it (a kernel's first compile, run on
        it, would swallow it)."""
        return aside(self._precise_now, view)

    def _precise_now(self, view: DerbyView) -> PlaceOdds | None:
        key = odds_key(view)
        found = self._looked_up(key)
        if found is None or not found.rough:
            return found
        odds = precise_odds(key) or found
        with self._lock:
            self._keep(key, odds)
        return odds

    def _queue(self, key: DerbyView) -> None:
        """Queue `key` for its precise estimate (the lock held)."""
        if key == self._working or key in self._waiting:
            return
        self._waiting.appendleft(key)
        while len(self._waiting) > WAITING:
            self._ready.pop(self._waiting.pop(), None)
        self._lock.notify_all()
        if self._thread is None:  # a daemon: a server that stops does not wait for it
            self._thread = threading.Thread(target=self._work, name="derby-odds", daemon=True)
            self._thread.start()

    def _keep(self, key: DerbyView, odds: PlaceOdds) -> None:
        """Keep a precise estimate (the lock held)."""
        self._done[key] = odds
        while len(self._done) > KEEP:
            self._done.popitem(last=False)

    def settle(self) -> None:
        """Wait until every waiting precise estimate is done."""
        with self._lock:
            self._lock.wait_for(lambda: not self._waiting and self._working is None)

    def _work(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: bool(self._waiting))
                key = self._working = self._waiting.popleft()
            try:
                odds = precise_odds(key)
            except Exception:  # never lose the thread: the quick estimate stays instead
                log.exception("the precise Derby odds failed")
                odds = quick_odds(key)
            with self._lock:
                if odds is not None:
                    self._keep(key, odds)
                self._working = None
                ready = self._ready.pop(key, [])
                self._lock.notify_all()
            for call in ready:
                try:
                    call()
                except Exception:  # a screen gone meanwhile: nothing to draw on
                    log.debug("a board waiting for the Derby odds is gone", exc_info=True)


LIVE = LiveOdds()
