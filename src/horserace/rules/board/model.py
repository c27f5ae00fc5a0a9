"""The board game's state, per-seat view and actions, as immutable values."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from horserace.components.board import HORSES, Board
from horserace.components.cards import NO_CARDS, RANKS, RankCounts, parse_rank, rank_text
from horserace.core.errors import InvalidAction
from horserace.core.ledger import Ledger
from horserace.rules.board.config import SCRATCH_LINES, BoardConfig


class Phase(Enum):
    DEAL = "deal"
    DRAFT = "draft"
    BETTING = "betting"  # Husted
    DRAW = "draw"  # Husted
    SCRATCH = "scratch"
    RACE = "race"
    OVER = "over"


@dataclass(frozen=True)
class Penalty:
    """Chips a seat owes the Main Pot, waiting while the debtor may answer with an Ace or King."""

    debtor: int
    amount: int
    reason: str
    kings: int = 0  # kings played in this chain: a King answering a King doubles the penalty


AT_GATE_BLOCKS = (0,) * 11


@dataclass(frozen=True)
class Offer:
    """Perry's trade: `seat` gives `count` cards of `give` to `target` for one card of `take`."""

    seat: int
    target: int
    give: int
    count: int
    take: int

    @property
    def text(self) -> str:
        cards = " ".join([rank_text(self.give)] * self.count)
        return f"offer {self.target + 1}: {cards} for {rank_text(self.take)}"


@dataclass(frozen=True)
class BoardState:
    """Everything about the table; hidden parts (deck, hands, packets) leave only via the view."""

    config: BoardConfig
    round: int
    dealer: int
    phase: Phase
    hands: tuple[RankCounts, ...]
    packets: tuple[RankCounts, ...]  # draft: the cards in front of each seat, still to pick from
    picked: tuple[bool, ...]  # draft: who has kept a card in this pass
    deck: RankCounts  # undealt cards; once the deal ends, the stub
    to_deal: int
    deal_to: int
    discards: RankCounts
    lines: tuple[int, ...]  # horse on scratch line k at index k - 1, 0 when empty
    scratch_discards: tuple[RankCounts, ...]  # per seat: cards given up to scratches this round
    scratch_rolls: int
    positions: tuple[int, ...]  # advances made, per horse 2..12
    roller: int
    rolling: bool  # the roller has called for the dice; chance rolls them next
    pending: tuple[Penalty, ...]  # penalties still to settle, the first one's debtor decides
    joker_seat: int  # the roller who may play a Joker now, or -1
    four_dice: tuple[int, ...]  # Robertson: the dice waiting to be paired by `pairer`
    pairer: int
    sums: tuple[int, ...]  # Robertson: the second sum, still to resolve
    winner: int  # the winning horse once the race is decided, else 0
    mover: int  # the seat that moved the winner across
    ledger: Ledger  # seats, then the Main Pot, then the Jockey Pot when it is used
    race_rolls: int
    out: tuple[bool, ...]  # eliminated seats (Northwoods)
    short: tuple[bool, ...]  # seats that could not pay in full this round (Northwoods)
    traders: tuple[int, ...] = ()  # Perry: seats still to make an offer (or pass), in order
    market: RankCounts = NO_CARDS  # Schellenberg: the extra hand (face up after scratching)
    buyer: int = -1  # Schellenberg: the roller who may buy from the market now, or -1
    folded: tuple[bool, ...] = ()  # Husted: seats out of this round's payout
    wagered: tuple[int, ...] = ()  # Husted: each seat's wagers this round (at most 5A)
    round_bets: tuple[int, ...] = ()  # Husted: each seat's wagers in the current betting round
    bet_level: int = 0  # Husted: the wager every seat still in must meet
    bet_round: int = 0
    to_act: tuple[int, ...] = ()  # Husted: seats still to answer in this betting round
    drawers: tuple[int, ...] = ()  # Husted: seats still to make their draw
    draw_to: int = -1
    draw_left: int = 0
    blocks: tuple[int, ...] = AT_GATE_BLOCKS  # Husted: chips under each horse
    power_seat: int = -1  # Husted: who may play a face card after paying for a scratch
    offer: Offer | None = None  # Perry: the offer its target must answer

    @property
    def pot_account(self) -> int:
        return self.config.players

    @property
    def pot(self) -> int:
        return self.ledger.balances[self.config.players]

    @property
    def jockey(self) -> int:
        return self.ledger.balances[self.config.players + 1] if self.config.jockey_pot else 0

    def line_of(self, horse: int) -> int:
        """The scratch line a horse stands on (1..4), or 0 if it runs."""
        for index, scratched in enumerate(self.lines):
            if scratched == horse:
                return index + 1
        return 0

    def position(self, horse: int) -> int:
        return self.positions[horse - 2]

    @property
    def scratched_count(self) -> int:
        return sum(1 for horse in self.lines if horse)


@dataclass(frozen=True)
class BoardView:
    """What one seat (or a spectator, seat None) may know: hands only if open or its own."""

    seat: int | None
    round: int
    rounds: int
    dealer: int
    phase: Phase
    chips: tuple[int, ...]
    pot: int
    jockey: int
    hands: tuple[RankCounts | None, ...]
    hand_sizes: tuple[int, ...]
    packet: RankCounts | None  # the seat's own draft packet
    undealt: int
    discards: RankCounts
    lines: tuple[int, ...]
    positions: tuple[int, ...]
    board: Board
    roller: int
    race_rolls: int
    decks: int
    pending: Penalty | None
    offer: Offer | None
    market: RankCounts | None  # None while it still lies face down
    folded: tuple[bool, ...]
    wagered: tuple[int, ...]
    bet_level: int
    round_bets: tuple[int, ...]
    blocks: tuple[int, ...]
    four_dice: tuple[int, ...]
    out: tuple[bool, ...]
    config: BoardConfig


@dataclass(frozen=True)
class Roll:
    """A seat calls for the dice; chance then rolls them."""

    @property
    def text(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Deal:
    """Chance: the next card dealt is of `rank` (suits do not matter)."""

    rank: int

    @property
    def text(self) -> str:
        return f"deal {rank_text(self.rank)}"

    @classmethod
    def parse(cls, text: str, allowed: tuple[int, ...] = RANKS) -> Deal:
        """'deal 7', or just '7' / 'q' as a person at a real table would type it."""
        words = text.split()
        if len(words) == 2 and words[0] == "deal":
            return cls(parse_rank(words[1], allowed))
        if len(words) == 1:
            return cls(parse_rank(words[0], allowed))
        raise InvalidAction(f"{text!r} is not a deal; write it like 'deal 7' or just 'Q'")


@dataclass(frozen=True)
class Keep:
    """Draft: keep one card of this rank from the packet in front of you."""

    rank: int

    @property
    def text(self) -> str:
        return f"keep {rank_text(self.rank)}"


@dataclass(frozen=True)
class Pay:
    """Pay the penalty you owe (as much as you hold)."""

    @property
    def text(self) -> str:
        return "pay"


@dataclass(frozen=True)
class PlayAce:
    """Cancel the penalty you owe."""

    @property
    def text(self) -> str:
        return "ace"


@dataclass(frozen=True)
class PlayKing:
    """Pass the penalty to a neighbour (doubled first if it was passed to you by a King)."""

    left: bool

    @property
    def text(self) -> str:
        return "king left" if self.left else "king right"


@dataclass(frozen=True)
class PlayJoker:
    """After your roll resolves: move a running horse one slot forward or back."""

    horse: int
    forward: bool

    @property
    def text(self) -> str:
        return f"joker {self.horse} {'forward' if self.forward else 'back'}"


@dataclass(frozen=True)
class Pass:
    """Decline an optional move (a Joker, for now)."""

    @property
    def text(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Answer:
    """Accept or decline the trade offered to you."""

    accept: bool

    @property
    def text(self) -> str:
        return "accept" if self.accept else "decline"


@dataclass(frozen=True)
class Buy:
    """Schellenberg: take a market card, putting a card of your hand in its place."""

    take: int
    give: int

    @property
    def text(self) -> str:
        return f"buy {rank_text(self.take)} for {rank_text(self.give)}"


@dataclass(frozen=True)
class Pair:
    """Robertson: the two sums of the four dice, in the order they resolve."""

    first: int
    second: int

    @property
    def text(self) -> str:
        return f"pair {self.first} {self.second}"


ROLL, PAY, ACE_PLAY, PASS = Roll(), Pay(), PlayAce(), Pass()
ACCEPT, DECLINE = Answer(True), Answer(False)
_OFFER_TEXT = re.compile(r"^offer\s+(\d+)\s*:\s*(.+?)\s+for\s+(\S+)$")
EMPTY_LINES = (0,) * SCRATCH_LINES
AT_GATE = (0,) * len(HORSES)


SeatAction = Roll | Pay | PlayAce | PlayKing | PlayJoker | Pass | Pair | Keep | Answer | Offer | Buy


def parse_seat_action(text: str, seat: int = -1) -> SeatAction:
    """Every seat action's text form, read back; whether it is allowed now is verify's job.
    `seat` is who speaks (an offer names only its target)."""
    offer = _OFFER_TEXT.match(text.strip().lower())
    if offer is not None:
        target, cards, take = offer.groups()
        ranks = [parse_rank(word, range(0, 14)) for word in cards.split()]
        if len(set(ranks)) != 1:
            raise InvalidAction("an offer gives cards of a single rank, e.g. 'offer 3: 6 6 for 7'")
        return Offer(seat, int(target) - 1, ranks[0], len(ranks), parse_rank(take, range(0, 14)))
    words = text.lower().split()
    simple: dict[str, Roll | Pay | PlayAce | Pass | Answer] = {
        "roll": ROLL,
        "pay": PAY,
        "ace": ACE_PLAY,
        "pass": PASS,
        "accept": ACCEPT,
        "decline": DECLINE,
    }
    if len(words) == 1 and words[0] in simple:
        return simple[words[0]]
    if len(words) == 2 and words[0] == "king" and words[1] in ("left", "right"):
        return PlayKing(left=words[1] == "left")
    if len(words) == 2 and words[0] == "keep":
        return Keep(parse_rank(words[1], range(0, 14)))
    if len(words) == 3 and words[0] == "joker" and words[2] in ("forward", "back", "+", "-"):
        return PlayJoker(_horse(words[1]), forward=words[2] in ("forward", "+"))
    if len(words) == 4 and words[0] == "buy" and words[2] == "for":
        return Buy(parse_rank(words[1], range(0, 14)), parse_rank(words[3], range(0, 14)))
    if len(words) == 3 and words[0] == "pair":
        return Pair(_horse(words[1]), _horse(words[2]))
    raise InvalidAction(f"{text!r} is not an action of the board game")


def _horse(word: str) -> int:
    if not word.isdigit() or int(word) not in HORSES:
        raise InvalidAction(f"{word!r} is not a horse (2..12)")
    return int(word)
