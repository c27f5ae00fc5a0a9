"""Exact finishing-order odds of the card race by dynamic programming over the unseen cards.

Every unseen suit card (in the deck or face down on the course) is equally likely to be the
next one turned: the public history says nothing about how they are arranged. The joker, while
unseen, is in the deck (one dealt to the course was discarded), so it comes next with chance
one in the cards left in the deck; at a table that leaves a joker dealt to the course on its
link (`joker_on_links`), it may lie on a face-down link too, and is then any unseen card alike,
moving nobody when a link turns it. So the race is a walk over small states (positions,
standing order, finishers, unseen cards per suit, the joker, the last link turned), and the
probability mass is pushed forward one card at a time, merging states that agree on everything
the rest of the race depends on:

- with a face-up course, a card of a horse that has finished changes nothing, so those cards
  are skipped (the next card that matters is equally likely to be any card that matters);
- with a face-down course they still matter (they may lie on a link, or run the deck out), so
  they are kept, as one count of blanks;
- the order among horses level on position matters only if some horse may end up placed by
  position; when every runner holds enough cards of its own suit to finish, it is dropped.

The arithmetic is generic: `Fraction` for exact odds, `float` for fast ones. Exact odds are
pushed as integers over one denominator per card turned (the least common multiple of that
card's totals), which gives the same fractions as `Fraction` arithmetic state by state at a
fraction of its cost (no gcd per step); they become fractions once, at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import gcd, lcm
from typing import TypeVar

from horserace.core.errors import HorseraceError
from horserace.families.cards.rules.track import reorder_standing

Number = TypeVar("Number", float, Fraction)

# A state: (positions, standing, finished, frontier, unseen per suit, blanks, joker unseen)
State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int, int]


class TooManyStates(HorseraceError):
    """The computation would visit more states than the caller allowed (a face-down course
    early in the race is the costly case: its positions and unseen cards move apart)."""


class _Race:
    """The fixed parameters of one computation."""

    def __init__(
        self, need: int, course_length: int, faltering: bool, places: int, joker_on_links: bool
    ) -> None:
        self.need = need
        self.course_length = course_length
        self.faltering = faltering
        self.joker_on_links = faltering and joker_on_links
        self.places = places
        self.enough = min(places, 3)  # the last horse's place is known once three finished

    # --- moves on tuples (the reference moves are families/cards/rules/track.py) ---------------

    def settled(self, state: State) -> bool:
        positions, standing, finished, frontier, unseen, blanks, joker = state
        if len(finished) >= self.enough:
            return True
        if self.faltering:
            hidden = self.course_length - frontier
            if sum(unseen) + blanks + joker - hidden == 0:
                return True
        need = self.need
        return not any(positions[s] + unseen[s] + joker >= need for s in standing)

    def canonical(self, state: State) -> State:
        """Forget what the rest of the race cannot depend on (see the module text)."""
        positions, standing, finished, frontier, unseen, blanks, joker = state
        if finished:
            moved = [u if s in standing else 0 for s, u in enumerate(unseen)]
            if self.faltering:
                blanks += sum(unseen) - sum(moved)
            unseen = tuple(moved)
            positions = tuple(p if s in standing else 0 for s, p in enumerate(positions))
        if not self.faltering:
            frontier = 0
            if all(positions[s] + unseen[s] >= self.need for s in standing):
                standing = tuple(sorted(standing, key=lambda s: (-positions[s], s)))
        return positions, standing, finished, frontier, unseen, blanks, joker

    def move_up(self, state: State, suit: int) -> tuple[State, bool]:
        """A card of a running horse is turned; True if it reached a new face-down link."""
        positions, standing, finished, frontier, unseen, blanks, joker = state
        moved = list(positions)
        moved[suit] += 1
        new_positions = tuple(moved)
        left = list(unseen)
        left[suit] -= 1
        if moved[suit] >= self.need:
            standing = tuple(s for s in standing if s != suit)
            return (
                new_positions,
                standing,
                (*finished, suit),
                frontier,
                tuple(left),
                blanks,
                joker,
            ), False
        standing = reorder_standing(standing, new_positions, suit)
        new_link = self.faltering and frontier < moved[suit] <= self.course_length
        if new_link:
            frontier = moved[suit]
        return (new_positions, standing, finished, frontier, tuple(left), blanks, joker), new_link

    def fall_back(self, state: State, suit: int) -> State:
        positions, standing, finished, frontier, unseen, blanks, joker = state
        if suit not in standing or positions[suit] == 0:
            return state
        moved = list(positions)
        moved[suit] -= 1
        new_positions = tuple(moved)
        return (
            new_positions,
            reorder_standing(standing, new_positions, suit),
            finished,
            frontier,
            unseen,
            blanks,
            joker,
        )

    @staticmethod
    def stumble(state: State) -> State:
        positions, standing, finished, frontier, unseen, blanks, _ = state
        top = max(positions[s] for s in standing)
        lifted = tuple(p + 1 if s in standing and p < top else p for s, p in enumerate(positions))
        return lifted, standing, finished, frontier, unseen, blanks, 0

    def order(self, state: State) -> tuple[int, ...]:
        return (state[2] + state[1])[: max(self.places, 1)]

    # --- one card ----------------------------------------------------------------------------
    def successors(self, state: State) -> list[tuple[State, int, int]]:
        """(next state, weight, total): the next card turned, each with chance weight/total;
        a card that reaches a new face-down link expands into the link cards it may turn."""
        _, standing, _, frontier, unseen, blanks, joker = state
        out: list[tuple[State, int, int]] = []
        if self.joker_on_links:  # the joker may lie on a face-down link: any unseen card alike
            suits = deck = sum(unseen) + blanks + joker
            share, total = 1, deck
        elif self.faltering:
            # The joker is in the deck, never on a link (one dealt there was discarded), so it
            # comes next with chance 1/deck; else the card is any unseen suit card alike.
            suits = sum(unseen) + blanks
            deck = suits + joker - (self.course_length - frontier)
            share, total = deck - joker, deck * suits
        else:
            suits = deck = sum(unseen[s] for s in standing) + joker
            share, total = 1, deck
        for suit in standing:
            count = unseen[suit]
            if not count:
                continue
            after, new_link = self.move_up(state, suit)
            if not new_link:
                out.append((after, count * share, total))
                continue
            for link_state, weight in self._link_cards(after):
                out.append((link_state, count * share * weight, total * (suits - 1)))
        if joker:
            out.append((self.stumble(state), 1, deck))
        if self.faltering and blanks:
            p, st, fi, fr, un, bl, jo = state
            out.append(((p, st, fi, fr, un, bl - 1, jo), blanks * share, total))
        return out

    def _link_cards(self, state: State) -> list[tuple[State, int]]:
        """The newly reached link's card is any unseen suit card (or the joker, where it may lie
        there: it moves nobody), equally likely."""
        positions, standing, finished, frontier, unseen, blanks, joker = state
        out: list[tuple[State, int]] = []
        for suit, count in enumerate(unseen):
            if count:
                left = list(unseen)
                left[suit] -= 1
                turned = (positions, standing, finished, frontier, tuple(left), blanks, joker)
                out.append((self.fall_back(turned, suit), count))
        if blanks:
            out.append(
                ((positions, standing, finished, frontier, unseen, blanks - 1, joker), blanks)
            )
        if joker and self.joker_on_links:
            out.append(((positions, standing, finished, frontier, unseen, blanks, 0), 1))
        return out


def order_distribution(
    start: State,
    need: int,
    course_length: int,
    faltering: bool,
    places: int,
    ratio: Callable[[int, int], Number],
    max_states: int | None = None,
    joker_on_links: bool = False,
) -> dict[tuple[int, ...], Number]:
    """P(the first `places` horses finish in each order), pushing the mass forward card by card.

    `start` is (positions, standing, finished, frontier, unseen per suit, 0, joker unseen as
    0/1); unseen cards of finished horses are simply left in their suit's count. With
    `max_states`, TooManyStates is raised once more states than that have been visited.
    `joker_on_links`: an unseen joker may lie on a face-down link (`course_joker = "stays"`).
    """
    race = _Race(need, course_length, faltering, places, joker_on_links)
    first = race.canonical(start)
    one = ratio(1, 1)
    if race.settled(first):
        return {race.order(first): one}
    if isinstance(one, Fraction):
        return _exact(race, first, max_states)
    result: dict[tuple[int, ...], Number] = {}
    level: dict[State, Number] = {first: one}
    visited = 0
    while level:
        visited = _count_visits(visited, len(level), max_states)
        following: dict[State, Number] = {}
        for state, mass in level.items():
            for after, weight, total in race.successors(state):
                child = race.canonical(after)
                share = mass * ratio(weight, total)
                if race.settled(child):
                    key = race.order(child)
                    result[key] = result.get(key, 0 * one) + share
                else:
                    following[child] = following.get(child, 0 * one) + share
        level = following
    return result


def _count_visits(visited: int, level: int, max_states: int | None) -> int:
    """The states visited once a level of `level` states is: TooManyStates past `max_states`."""
    visited += level
    if max_states is not None and visited > max_states:
        raise TooManyStates(f"more than {max_states} states to visit")
    return visited


def _exact(race: _Race, first: State, max_states: int | None) -> dict[tuple[int, ...], Fraction]:
    """order_distribution in exact arithmetic: each level's masses are integer numerators over
    the level's one denominator `scale`, the next card's scale the product of this one and the
    least common multiple of the card's totals."""
    result: dict[tuple[int, ...], int] = {}  # numerators over `scale`
    level: dict[State, int] = {first: 1}
    scale = 1
    visited = 0
    while level:
        visited = _count_visits(visited, len(level), max_states)
        steps = [(mass, race.successors(state)) for state, mass in level.items()]
        common = lcm(*{total for _, moves in steps for _, _, total in moves})
        scale *= common
        result = {key: mass * common for key, mass in result.items()}
        following: dict[State, int] = {}
        for mass, moves in steps:
            for after, weight, total in moves:
                child = race.canonical(after)
                share = mass * weight * (common // total)
                if race.settled(child):
                    key = race.order(child)
                    result[key] = result.get(key, 0) + share
                else:
                    following[child] = following.get(child, 0) + share
        divisor = gcd(scale, *result.values(), *following.values())
        if divisor > 1:  # keep the integers as short as the fractions they stand for allow
            scale //= divisor
            result = {key: mass // divisor for key, mass in result.items()}
            following = {state: mass // divisor for state, mass in following.items()}
        level = following
    return {key: Fraction(mass, scale) for key, mass in result.items()}
