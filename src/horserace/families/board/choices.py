"""The questions a dice-board table puts to a person, as choices that cannot be misread: cards
are keyed by their own names (a `3` typed at the draft keeps the card 3), every option says what
it does, Perry's trade is asked in steps (the cards to give, the cards to ask for, the partner)
and Schellenberg's buy in two (the market card, then the card put in its place). A decision
with real consequences (a trade, a penalty, a wager) has no default."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from horserace.components.cards import ALL_RANKS, JOKER, RANKS, parse_rank, rank_text
from horserace.core.actions import Action
from horserace.core.errors import IllegalAction, InvalidAction
from horserace.core.events import seat_name
from horserace.core.words import counted
from horserace.families.board.rules.actions import (
    Answer,
    Buy,
    Check,
    Discard,
    Fold,
    Keep,
    Meet,
    Offer,
    Pair,
    Pass,
    Pay,
    PlayAce,
    PlayJoker,
    PlayKing,
    Power,
    Roll,
    Wager,
    parse_seat_action,
)
from horserace.families.board.rules.phases.trade import MAX_CARDS_MOVED
from horserace.families.board.rules.records import Phase
from horserace.families.board.rules.view import BoardView
from horserace.terminal.choices import (
    Choice,
    NumberField,
    Option,
    Rejection,
    lettered,
    over_a_quarter,
)
from horserace.terminal.screen import TableScreen

CARD_LETTERS = ("a", "j", "q", "k")  # never letter keys beside cards: they name cards
POWER_NAMES = {11: "jack", 12: "queen", 13: "king"}
TOO_MANY_MOVED = Rejection(f"an offer moves at most {MAX_CARDS_MOVED} cards each way", "")


def card_words(rank: int) -> str:
    return "the joker" if rank == JOKER else rank_text(rank)


def cards_words(ranks: Sequence[int]) -> str:
    return " ".join(rank_text(r) for r in ranks) or "nothing"


def card_key(rank: int) -> str:
    return "joker" if rank == JOKER else rank_text(rank)


def read_cards(text: str) -> tuple[int, ...]:
    """'6 9', '6,9', 'none' -> sorted ranks (an InvalidAction names a word that is no card)."""
    words = text.replace(",", " ").split()
    if words in (["none"], ["nothing"], ["-"]):
        return ()
    return tuple(sorted(parse_rank(word, ALL_RANKS) for word in words))


class BoardAsker:
    """Builds each question from the legal actions; free-typed canonical texts (`buy 7 for K`,
    `offer 3: 6 9 for 7 K`) are accepted too, and a text the rules refuse says why."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen

    @property
    def names(self) -> Sequence[str]:
        return self.screen.names

    def seen(self, view: Any, screen: TableScreen) -> Any:
        return view

    def choice(self, view: Any, legal: Sequence[Action], seat: int) -> Choice:
        assert isinstance(view, BoardView)
        name = seat_name(self.names, seat)
        read = self.reader(view, legal, seat)
        if any(isinstance(a, Offer) for a in legal):
            return self.trading(view, legal, seat, read)
        if any(isinstance(a, Buy) for a in legal):
            return self.market(view, legal, seat, read)
        field = None
        wagers = [a for a in legal if isinstance(a, Wager)]
        if wagers:
            raising = wagers[0].raising
            field = NumberField(
                "raise" if raising else "wager",
                min(w.amount for w in wagers),
                max(w.amount for w in wagers),
                lambda amount: Wager(amount, raising=raising),
            )
        plain = [a for a in legal if not isinstance(a, Wager)]
        cards = any(isinstance(a, Keep | Discard | Power) for a in plain)
        options = lettered(
            ((a, self.words(view, a, seat)) for a in plain),
            preferred=_preferred_key,
            reserved=CARD_LETTERS if cards else (),
        )
        # paying or passing alone: an Ace, a King, the joker or a face card could have answered,
        # so the seat is asked whatever it holds (RULINGS 1b)
        hidden = len(legal) == 1 and isinstance(legal[0], Pay | Pass)
        return Choice(
            seat,
            f"{name}, {_question(plain or legal, view)}",
            tuple(options),
            field,
            read=read,
            always_ask=hidden,
            doubt=over_a_quarter(view.chips[seat], _wagered),
        )

    def words(self, view: BoardView, action: Action, seat: int) -> str:
        """What an action does, in words."""
        if isinstance(action, Roll):
            return "roll the dice"
        if isinstance(action, Keep):
            return f"keep {card_words(action.rank)}"
        if isinstance(action, Pay):
            owed = view.pending.amount if view.pending is not None else 0
            return f"pay the penalty ({counted(owed, 'chip')})"
        if isinstance(action, PlayAce):
            return "play an ace: the penalty is cancelled"
        if isinstance(action, PlayKing):
            to = self._neighbour(view, seat, action.left)
            side = "left" if action.left else "right"
            return f"play a king: pass the penalty to {to} on your {side}"
        if isinstance(action, PlayJoker):
            way = "forward" if action.forward else "back"
            return f"play the joker: horse {action.horse} one slot {way}"
        if isinstance(action, Pass):
            return "pass"
        if isinstance(action, Answer):
            offer = view.offer
            deal = ""
            if offer is not None:
                deal = (
                    f" {seat_name(self.names, offer.seat)}'s trade: you give"
                    f" {cards_words(offer.take)}, you get {cards_words(offer.give)}"
                )
            return ("accept" if action.accept else "decline") + deal
        if isinstance(action, Pair):
            return f"horse {action.first} first, then horse {action.second}"
        if isinstance(action, Check):
            return "check: no wager"
        if isinstance(action, Meet):
            return "meet the wager"
        if isinstance(action, Fold):
            return "fold: your cards collect nothing this round"
        if isinstance(action, Discard):
            if not action.ranks:
                return "keep your hand: discard nothing"
            count = len(action.ranks)
            return f"discard {cards_words(action.ranks)}, draw {counted(count, 'card')}"
        if isinstance(action, Power):
            if action.card == 11:
                return f"play a jack: horse {action.horse} one slot back"
            chips = action.card - 11
            blocks = counted(chips, "chip")
            return f"play a {POWER_NAMES[action.card]}: {blocks} block horse {action.horse}"
        return action.text

    def _neighbour(self, view: BoardView, seat: int, left: bool) -> str:
        n = len(view.out)
        for offset in range(1, n):
            other = (seat + offset) % n if left else (seat - offset) % n
            if not view.out[other]:
                return seat_name(self.names, other)
        return "your neighbour"

    def reader(
        self, view: BoardView, legal: Sequence[Action], seat: int
    ) -> Callable[[str], Action | Choice | Rejection | None]:
        """Any canonical action text: the legal action, or why the rules refuse it."""

        def read(text: str) -> Action | Choice | Rejection | None:
            try:
                action = parse_seat_action(text, seat)
            except InvalidAction:
                return None
            for allowed in legal:
                if allowed == action:
                    return allowed
            return self.refused(action)

        return read

    def refused(self, action: Action) -> Action | Rejection:
        """The rules' reason a well-formed action is not allowed now; the action itself when the
        rules take it though it is not listed (Perry's unusual offers)."""
        game = self.screen.game
        if game is None:
            return Rejection(f"{action.text!r} is not allowed now", "")
        try:
            self.screen.rules.verify(game.state, action)
        except IllegalAction as error:
            return Rejection(str(error), "")
        return action

    # --- Perry's trade, in steps ------------------------------------------------------------
    def trading(self, view: BoardView, legal: Sequence[Action], seat: int, read: Any) -> Choice:
        name = seat_name(self.names, seat)
        options = [Option("p", "pass: make no more offers in this window", Pass())]
        options.append(Option("o", "make an offer", then=lambda: self.give_step(view, seat)))
        return Choice(
            seat,
            f"{name}, trade?",
            tuple(options),
            hint="or type a whole offer: 'offer SEAT: CARDS for CARDS' ('offer 3: 6 9 for 7 K')",
            read=read,
        )

    def give_step(self, view: BoardView, seat: int) -> Choice:
        hand = view.hands[seat] or (0,) * len(ALL_RANKS)
        held = [r for r in ALL_RANKS if hand[r]]
        options = [
            Option(
                "none", "give nothing: only ask for cards", then=partial(self.take_step, view, seat)
            )
        ]
        for rank in held:
            options.append(
                Option(
                    card_key(rank),
                    f"give {card_words(rank)} (you hold {hand[rank]})",
                    then=partial(self.take_step, view, seat, (rank,)),
                )
            )

        def read(text: str) -> Choice | Rejection | None:
            give = read_cards(text)
            if len(give) > MAX_CARDS_MOVED:
                return TOO_MANY_MOVED
            if any(give.count(r) > hand[r] for r in set(give)):
                return Rejection(
                    "you can only offer cards you hold", f"your cards: {cards_words(_ranks(hand))}"
                )
            return self.take_step(view, seat, give)

        return Choice(
            seat,
            "Trade, step 1 of 3: the cards you give",
            tuple(options),
            hint="or type several, e.g. '6 9'",
            read=read,
        )

    def take_step(self, view: BoardView, seat: int, give: tuple[int, ...] = ()) -> Choice:
        wanted = self._wanted(view, seat)
        options = []
        if give:
            options.append(
                Option(
                    "none",
                    "ask for nothing: a gift",
                    then=lambda: self.partner_step(view, seat, give, ()),
                )
            )
        for rank in wanted:
            if rank not in give:
                options.append(
                    Option(
                        card_key(rank),
                        f"ask for {card_words(rank)}",
                        then=partial(self.partner_step, view, seat, give, (rank,)),
                    )
                )

        def read(text: str) -> Choice | Rejection | None:
            take = read_cards(text)
            if not give and not take:
                return Rejection(
                    "an offer moves at least one card", "ask for a card, or < to give one"
                )
            if len(take) > MAX_CARDS_MOVED:
                return TOO_MANY_MOVED
            return self.partner_step(view, seat, give, take)

        return Choice(
            seat,
            f"Trade, step 2 of 3: you give {cards_words(give)}; the cards you ask for",
            tuple(options),
            hint="or type several, e.g. '7 K'",
            read=read,
        )

    def partner_step(
        self, view: BoardView, seat: int, give: tuple[int, ...], take: tuple[int, ...]
    ) -> Choice:
        options = []
        for target in range(len(view.out)):
            if target == seat or view.out[target]:
                continue
            theirs = view.hands[target]
            short = theirs is not None and any(take.count(r) > theirs[r] for r in set(take))
            if short and view.config.open_hands:
                continue
            offer = Offer(seat, target, give, take)
            who = seat_name(self.names, target)
            options.append(
                Option(
                    str(target + 1),
                    f"{who}: give {cards_words(give)} for {cards_words(take)}",
                    offer,
                )
            )
        if not options:
            return Choice(
                seat,
                f"Nobody holds {cards_words(take)}: < to go back",
                (),
                read=lambda text: Rejection(f"nobody can give {cards_words(take)}", "< to go back"),
            )
        return Choice(
            seat,
            f"Trade, step 3 of 3: give {cards_words(give)} for {cards_words(take)}; to whom (seat)",
            tuple(options),
        )

    def _wanted(self, view: BoardView, seat: int) -> list[int]:
        if view.config.open_hands:
            held: set[int] = set()
            for other, hand in enumerate(view.hands):
                if other != seat and hand is not None and not view.out[other]:
                    held.update(r for r in ALL_RANKS if hand[r])
            return sorted(held)
        return list(ALL_RANKS if view.config.deck == "advanced" else RANKS)

    # --- Schellenberg's market, in two steps ---------------------------------------------------
    def market(self, view: BoardView, legal: Sequence[Action], seat: int, read: Any) -> Choice:
        name = seat_name(self.names, seat)
        buys = [a for a in legal if isinstance(a, Buy)]
        options = [Option("p", "pass: buy nothing", a) for a in legal if isinstance(a, Pass)]
        for take in sorted({b.take for b in buys}):
            gives = [b for b in buys if b.take == take]
            options.append(
                Option(
                    card_key(take),
                    f"buy {card_words(take)} from the market",
                    then=partial(self.buy_step, seat, take, gives),
                )
            )
        return Choice(
            seat,
            f"{name}, buy from the market?",
            tuple(options),
            hint="or type a whole buy: 'buy CARD for CARD', e.g. 'buy 7 for K'",
            read=read,
        )

    def buy_step(self, seat: int, take: int, buys: Sequence[Buy]) -> Choice:
        options = [
            Option(card_key(b.give), f"put your {card_words(b.give)} in its place", b) for b in buys
        ]
        return Choice(
            seat, f"Buy {card_words(take)}: which of your cards goes to the market", tuple(options)
        )


def _ranks(hand: Sequence[int]) -> list[int]:
    return [r for r in ALL_RANKS for _ in range(hand[r])]


def _wagered(action: Action) -> int | None:
    return action.amount if isinstance(action, Wager) else None


def _preferred_key(action: Action) -> str | None:
    if isinstance(action, Keep):
        return card_key(action.rank)
    if isinstance(action, Discard):
        return " ".join(rank_text(r) for r in action.ranks) or "none"
    if isinstance(action, Power):
        return f"{rank_text(action.card)}{action.horse}"
    if isinstance(action, PlayJoker):
        return f"{action.horse}{'+' if action.forward else '-'}"
    if isinstance(action, PlayKing):
        return "l" if action.left else "r"
    if isinstance(action, Answer):
        return "y" if action.accept else "n"
    simple: dict[type, str] = {
        Roll: "r", Pay: "p", PlayAce: "a", Pass: "p", Check: "c", Meet: "m", Fold: "f"
    }  # fmt: skip
    return simple.get(type(action))


def _question(legal: Sequence[Action], view: BoardView) -> str:
    first = legal[0]
    if len(legal) == 1 and isinstance(first, Pass) and view.phase is Phase.RACE:
        # asked as if the seat held the card: the question says nothing of the hand
        if view.config.husted:
            return "play a face card?"
        return "play your joker?" if view.config.deck == "advanced" else "buy from the market?"
    if isinstance(first, Keep):
        return "which card do you keep"
    if isinstance(first, Pay | PlayAce | PlayKing):
        return "you owe a penalty"
    if isinstance(first, PlayJoker) or any(isinstance(a, PlayJoker) for a in legal):
        return "play your joker?"
    if any(isinstance(a, Answer) for a in legal):
        return "answer the trade"
    if isinstance(first, Pair):
        return "in which order do the pairs run"
    if any(isinstance(a, Check | Meet | Fold) for a in legal):
        return "your bet"
    if isinstance(first, Discard):
        return "which cards do you discard"
    if any(isinstance(a, Power) for a in legal):
        return "play a face card?"
    return "your move"
