"""Exact figures of the card race that the kernel's distribution tests hold it to, worked out
here by counting, apart from the kernel and from the odds module: the expected number of race
cards turned, over every course the rules let stand, face up or face down (faltering)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, product
from math import comb

SUITS = 4


def _times(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def face_up_cards(unseen: tuple[int, ...], need: int, places: int) -> Fraction:
    """Expected race cards turned on a face-up course with no joker, every horse able to finish
    (unseen[s] >= need): the race goes on until `places` horses have turned `need` cards of their
    suit. E[T] = sum over t of P(T > t), and T > t when fewer than `places` suits are complete
    among the first t cards, a uniform t-subset of the unseen cards: counted with generating
    polynomials, B_s(x) = sum over k < need of C(u_s, k) x^k for a suit short of the finish and
    A_s(x) = the rest of (1 + x)^u_s for one past it."""
    assert all(count >= need for count in unseen)
    short = [[comb(u, k) if k < need else 0 for k in range(u + 1)] for u in unseen]
    past = [[comb(u, k) if k >= need else 0 for k in range(u + 1)] for u in unseen]
    total = sum(unseen)
    ways = [0] * (total + 1)
    for finished in range(places):
        for chosen in combinations(range(SUITS), finished):
            poly = [1]
            for suit in range(SUITS):
                poly = _times(poly, past[suit] if suit in chosen else short[suit])
            for t, count in enumerate(poly):
                ways[t] += count
    return sum((Fraction(count, comb(total, t)) for t, count in enumerate(ways)), Fraction(0))


def courses(
    ranks: int, length: int, redeal_at: int | None
) -> list[tuple[Fraction, tuple[int, ...]]]:
    """Every face-up course by its suit counts and its chance (a uniform draw of `length` cards
    from four suits of `ranks`), dealt again while a suit shows `redeal_at` or more."""
    weights = {}
    for counts in product(range(min(ranks, length) + 1), repeat=SUITS):
        if sum(counts) != length or (redeal_at is not None and max(counts) >= redeal_at):
            continue
        ways = 1
        for count in counts:
            ways *= comb(ranks, count)
        weights[counts] = ways
    whole = sum(weights.values())
    return [(Fraction(ways, whole), counts) for counts, ways in weights.items()]


def face_up_race_cards(
    ranks: int, length: int, need: int, places: int, redeal_at: int | None
) -> Fraction:
    """Expected race cards turned per race over every course that stands."""
    return sum(
        (chance * face_up_cards(tuple(ranks - c for c in counts), need, places)
         for chance, counts in courses(ranks, length, redeal_at)),
        Fraction(0),
    )  # fmt: skip


def stepped_cards(
    ranks: int,
    length: int,
    need: int,
    places: int,
    faltering: bool,
    unseen: tuple[int, ...] | None = None,
) -> float:
    """Expected race cards turned, card by card over the public positions: every unseen card (in
    the deck or face down on the course) is equally likely to be the next one turned, and so is
    the card of a link a horse reaches first. Horses move by their suit's cards; a faltering
    course turns a link's card when a horse first reaches it (not the finish) and throws the
    horse of that suit back one link (not behind the gate, not once finished). The race stops
    once min(places, 3) horses are home, the deck is out, or no horse can still finish.
    `unseen`: a face-up course's unseen cards per suit (None: the whole pack, face down).
    In floats, for speed: their rounding is some 1e-14, far below any sample's error."""
    start = unseen if unseen is not None else (ranks,) * SUITS
    hidden_links = length if faltering else 0

    @cache
    def expect(pos: tuple[int, ...], frontier: int, unseen: tuple[int, ...]) -> float:
        home = sum(p >= need for p in pos)
        deck = sum(unseen) - (hidden_links - frontier if faltering else 0)
        able = any(p < need and p + unseen[s] >= need for s, p in enumerate(pos))
        if home >= min(places, 3) or deck == 0 or not able:
            return 0.0
        total = sum(unseen)
        value = 1.0
        for suit in range(SUITS):
            if not unseen[suit]:
                continue
            chance = unseen[suit] / total
            left = tuple(u - (s == suit) for s, u in enumerate(unseen))
            if pos[suit] >= need:  # a finished horse's card changes nothing
                value += chance * expect(pos, frontier, left)
                continue
            moved = tuple(p + (s == suit) for s, p in enumerate(pos))
            spot = moved[suit]
            if not faltering or spot >= need or not frontier < spot <= length:
                value += chance * expect(moved, frontier, left)
                continue
            rest = sum(left)
            for link in range(SUITS):
                if left[link]:
                    after = tuple(u - (s == link) for s, u in enumerate(left))
                    back = tuple(p - (s == link and 0 < p < need) for s, p in enumerate(moved))
                    value += chance * left[link] / rest * expect(back, spot, after)
        return value

    return expect((0,) * SUITS, 0, start)
