"""The simplest bot: any legal action, uniformly, from its own seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction


class RandomBot:
    """Sees only its view and the legal actions, like every driver."""

    kind = "random"
    reads_view = False  # it picks among the legal actions alone

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise IllegalAction("a bot was asked to move with no legal action")
        if len(legal) == 1:
            return legal[0]
        return legal[self._rng.randrange(len(legal))]
