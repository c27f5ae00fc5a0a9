"""A whole hand typed in at once, for a real board's books: which hand the next card goes to,
how many cards each hand still gets in the deal under way, and a typed line of cards read and
checked against what is left in the pack. The rules still deal one card at a time round the
table, so each card stays a step of its own in the record."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Mapping, Sequence

from horserace.components.cards import ALL_RANKS, RANKS, full_deck, parse_rank, rank_text
from horserace.core.errors import InvalidAction
from horserace.core.words import counted
from horserace.families.board.rules.phases import deal
from horserace.families.board.rules.phases.deal import Hand, next_hand, still_to_deal
from horserace.families.board.rules.state import BoardState

SUITS = frozenset("CDHS♣♦♥♠")
REST = "rest"  # the line for a last hand that gets every card left in the pack
__all__ = ["REST", "Hand", "next_hand", "read_hand", "still_to_deal", "the_rest"]


def read_hand(
    state: BoardState, hand: Hand, who: str, text: str, held: Mapping[Hand, Sequence[int]]
) -> tuple[int, ...]:
    """The ranks of a line like '3 4 5 J' (or 'deal 7', or '3h 4c': a suit is read and
    ignored, since the board's rules never look at one; or 'rest', every card left, for a hand
    that gets them all) for `hand`, named `who`, with the
    cards `held` typed in for other hands but not dealt yet; InvalidAction says, in one line,
    what is wrong with the line."""
    words = text.replace(",", " ").split()
    if words[:1] == ["deal"]:
        words = words[1:]
    if not words:
        raise InvalidAction(f"type the cards of {who}'s hand in one line, like '3 4 5 J'")
    if [word.lower() for word in words] == [REST]:
        rest = the_rest(state, held)
        owed = still_to_deal(state).get(hand, 0)
        if len(rest) != owed:
            raise InvalidAction(
                f"'{REST}' is for a hand that gets every card left: the pack has"
                f" {counted(len(rest), 'card')} not typed, {who} gets {owed}"
            )
        return rest
    plain = deal.deck_for(state.config) == full_deck(state.config.decks)
    allowed = RANKS if plain else ALL_RANKS
    ranks = tuple(_rank(word, allowed) for word in words)
    owed = still_to_deal(state).get(hand, 0)
    if len(ranks) > owed:
        raise InvalidAction(
            f"{who} gets {counted(owed, 'more card')} in this deal, not {len(ranks)}"
        )
    waiting = Counter(rank for cards in held.values() for rank in cards)
    for rank, wanted in sorted(Counter(ranks).items()):
        left = state.cards.deck[rank] - waiting[rank]
        if wanted > left:
            name = rank_text(rank)
            if left <= 0:
                raise InvalidAction(f"no {name} is left in the pack (every one is dealt or typed)")
            verb = "is" if left == 1 else "are"
            raise InvalidAction(f"only {left} of the {name}s {verb} left in the pack, not {wanted}")
    return ranks


def the_rest(state: BoardState, held: Mapping[Hand, Sequence[int]]) -> tuple[int, ...]:
    """Every card still in the pack and not typed in for a hand yet, lowest rank first."""
    waiting = Counter(rank for cards in held.values() for rank in cards)
    deck = state.cards.deck
    return tuple(rank for rank in ALL_RANKS for _ in range(deck[rank] - waiting[rank]))


def _rank(word: str, allowed: tuple[int, ...]) -> int:
    """A card's rank, with or without its suit ('J', 'js', '10♥')."""
    try:
        return parse_rank(word, allowed)
    except InvalidAction:
        if len(word) > 1 and word[-1].upper() in SUITS:
            with contextlib.suppress(InvalidAction):
                return parse_rank(word[:-1], allowed)
        raise
