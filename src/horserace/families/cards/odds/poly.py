"""The plain card race in closed form: order statistics of independent uniform times.

Shuffling the unseen cards is the same as giving every card an independent uniform time in
[0, 1] and turning them in time order. A runner that needs r more cards and has u unseen
cards of its suit finishes at the r-th smallest of its u times, with density
f(t) = u! / ((r-1)! (u-r)!) t^(r-1) (1-t)^(u-r), and the suits are independent. So

    P(horses finish in the order s1, s2, ..., sm) = G(s1..sm)(0),
    G() = 1,  G(s, rest)(t) = ∫_t^1 f_s(x) G(rest)(x) dx,

polynomials kept in the basis t^k (1-t)^(n-k), where every coefficient is positive (no
cancellation, so floats stay accurate) and ∫_t^1 x^k (1-x)^(n-k) dx =
Σ_{j<=k} t^j (1-t)^(n+1-j) C(n+1, j) k! (n-k)! / (n+1)!.

It applies when the course lies face up, the joker is out of play and every runner holds
enough unseen cards of its suit to finish (then nobody is placed by position): the basic and
scarne games as dealt. The DP (dp.py) covers everything else and checks this.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import permutations
from typing import TypeVar

from horserace.core.errors import ConfigError

Number = TypeVar("Number", float, Fraction)


def runner_orders(
    left: Sequence[tuple[int, int, int]], ratio: Callable[[int, int], Number]
) -> dict[tuple[int, ...], Number]:
    """P(each order of the runners) for runners (suit, cards needed, unseen cards of its suit),
    every one with unseen >= needed >= 1."""
    one = ratio(1, 1)
    zero = 0 * one
    runners = {suit: (need, unseen) for suit, need, unseen in left}
    for suit, (need, unseen) in runners.items():
        if not 1 <= need <= unseen:
            raise ConfigError(f"runner {suit} needs {need} of {unseen} cards: 1 <= need <= unseen")
    memo: dict[tuple[int, ...], list[Number]] = {(): [one]}

    def integral(order: tuple[int, ...]) -> list[Number]:
        known = memo.get(order)
        if known is not None:
            return known
        rest = integral(order[1:])
        need, unseen = runners[order[0]]
        scale = ratio(
            math.factorial(unseen), math.factorial(need - 1) * math.factorial(unseen - need)
        )
        n = len(rest) - 1 + unseen - 1  # degree of f * G(rest)
        product = [zero] * (n + 1)
        for k, value in enumerate(rest):
            product[k + need - 1] = value * scale
        # ∫_t^1: coefficient j = C(n+1, j) Σ_{k>=j} product[k] k! (n-k)! / (n+1)!
        result = [zero] * (n + 2)
        tail = zero
        top = math.factorial(n + 1)
        for k in range(n, -1, -1):
            if product[k]:
                tail += product[k] * ratio(math.factorial(k) * math.factorial(n - k), top)
            result[k] = tail * math.comb(n + 1, k)
        memo[order] = result
        return result

    return {order: integral(order)[0] for order in permutations(runners)}
