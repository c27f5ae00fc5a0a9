"""The race of the four aces as pure moves on a small value: who stands where, who finished.

Shared by the rules (which turn these moves into events) and the odds (which replay a public
history with them); the odds' fast paths are separate code, tested against these moves.

The standing order is the finishing order of the horses still running: farthest along first,
and among equals the one that came to stand there first. A horse that moves up or falls back
arrives last at its new spot, except at the gate, which is not a link: horses level there,
fallen back or never moved, stand clubs, diamonds, hearts, spades. A stumbling joker lifts
every non-leader together, which keeps the order as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from horserace.components.french_deck import SUIT_LETTERS

RACING_SUITS: tuple[int, ...] = tuple(range(len(SUIT_LETTERS)))  # 0..3 = the aces of C, D, H, S


@dataclass(frozen=True)
class CardTrack:
    """Positions (links moved from the gate) per suit, the standing order of the horses still
    running, the finishers in order, and `frontier`: links 1..frontier have been reached."""

    positions: tuple[int, ...] = (0, 0, 0, 0)
    standing: tuple[int, ...] = RACING_SUITS
    finished: tuple[int, ...] = ()
    frontier: int = 0

    @property
    def order(self) -> tuple[int, ...]:
        """Every horse from first to last as things stand: finishers, then the runners."""
        return self.finished + self.standing

    def running(self, suit: int) -> bool:
        return suit not in self.finished

    @property
    def leaders(self) -> tuple[int, ...]:
        """The running horses farthest along (all of them when they stand level)."""
        if not self.standing:
            return ()
        top = max(self.positions[s] for s in self.standing)
        return tuple(s for s in self.standing if self.positions[s] == top)


def reorder_standing(
    standing: Sequence[int], positions: Sequence[int], suit: int
) -> tuple[int, ...]:
    """`standing` with `suit` moved to arrive last among the horses at its position or beyond;
    at the gate, which is not a link, it takes its place in suit order instead."""
    others = [s for s in standing if s != suit]
    spot = positions[suit]
    index = 0
    while index < len(others) and _ahead(positions[others[index]], others[index], spot, suit):
        index += 1
    return (*others[:index], suit, *others[index:])


def _ahead(position: int, other: int, spot: int, suit: int) -> bool:
    """Whether a horse standing at `position` stays ahead of `suit` arriving at `spot`."""
    if position != spot:
        return position > spot
    return spot > 0 or other < suit  # level at the gate: clubs, diamonds, hearts, spades


def move_up(track: CardTrack, suit: int, need: int) -> CardTrack:
    """The horse of `suit` advances one link; at `need` links it finishes (it must be running)."""
    positions = list(track.positions)
    positions[suit] += 1
    if positions[suit] >= need:
        standing = tuple(s for s in track.standing if s != suit)
        return CardTrack(tuple(positions), standing, (*track.finished, suit), track.frontier)
    standing = reorder_standing(track.standing, positions, suit)
    return CardTrack(tuple(positions), standing, track.finished, track.frontier)


def fall_back(track: CardTrack, suit: int) -> CardTrack:
    """The horse of `suit` falls back one link: never behind the gate, never once finished."""
    if not track.running(suit) or track.positions[suit] == 0:
        return track
    positions = list(track.positions)
    positions[suit] -= 1
    standing = reorder_standing(track.standing, positions, suit)
    return CardTrack(tuple(positions), standing, track.finished, track.frontier)


def stumble(track: CardTrack) -> tuple[CardTrack, tuple[int, ...]]:
    """The joker: every running horse but the leader(s) moves up one link (never to the finish,
    since a leader stands farther on). Returns the track and the horses that moved."""
    leaders = track.leaders
    moved = tuple(s for s in track.standing if s not in leaders)
    if not moved:
        return track, ()
    positions = tuple(p + 1 if s in moved else p for s, p in enumerate(track.positions))
    return CardTrack(positions, track.standing, track.finished, track.frontier), moved


def can_finish(position: int, unseen: int, joker_unseen: bool, need: int) -> bool:
    """Public test: the unseen cards of its suit (and the joker, while unseen) could still carry
    the horse to the finish. A horse short of that is placed by position."""
    return position + unseen + (1 if joker_unseen else 0) >= need


def race_settled(
    track: CardTrack,
    places: int,
    unseen: Sequence[int],
    joker_unseen: bool,
    need: int,
    deck_left: int,
) -> bool:
    """Dealing stops once `places` places are known (the last horse's place is known when the
    others have finished), when no running horse can finish any more, or when the deck is out
    (with a face-down course, unseen cards may still lie on the links)."""
    if len(track.finished) >= min(places, len(RACING_SUITS) - 1) or deck_left == 0:
        return True
    return not any(
        can_finish(track.positions[s], unseen[s], joker_unseen, need) for s in track.standing
    )
