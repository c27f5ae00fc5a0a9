"""The dice board game: one Rules class for Classic, Advanced, Northwoods and the house rules,
each of which is configuration (see config.py), resolved by the phase modules beside this one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from horserace.components.cards import (
    ACE,
    ALL_RANKS,
    JOKER,
    KING,
    NO_CARDS,
    RANKS,
    count_of,
    full_deck,
    total,
)
from horserace.components.dice import ALL_FOUR_DICE, ALL_ROLLS, DiceRoll, FourDice
from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.core.events import Event
from horserace.core.ledger import Ledger
from horserace.core.rules import Result, Rules, rank_standings
from horserace.core.types import CHANCE, TERMINAL, Actor
from horserace.rules.board import dealing, husted, penalties, racing, trading
from horserace.rules.board import events as ev
from horserace.rules.board.config import (
    BoardConfig,
    board_config,
    board_config_dict,
)
from horserace.rules.board.model import (
    ACE_PLAY,
    AT_GATE,
    EMPTY_LINES,
    PASS,
    PAY,
    ROLL,
    Answer,
    BoardState,
    BoardView,
    Buy,
    Deal,
    Keep,
    Offer,
    Pair,
    Pass,
    Pay,
    Phase,
    PlayAce,
    PlayJoker,
    PlayKing,
    Roll,
    SeatAction,
    parse_seat_action,
)

_ROLL_WEIGHTS = tuple(2 if roll.low != roll.high else 1 for roll in ALL_ROLLS)
_FOUR_WEIGHTS = tuple(dice.weight for dice in ALL_FOUR_DICE)


class BoardRules(Rules[BoardConfig, BoardState]):
    family = "board"

    # --- configuration -------------------------------------------------
    def make_config(self, options: Mapping[str, Any]) -> BoardConfig:
        return board_config(options)

    def config_to_dict(self, config: BoardConfig) -> dict[str, Any]:
        return board_config_dict(config)

    def players(self, config: BoardConfig) -> int:
        return config.players

    # --- the game tree ---------------------------------------------------
    def initial_state(self, config: BoardConfig) -> BoardState:
        n = config.players
        labels = [f"seat {seat + 1}" for seat in range(n)] + ["pot"]
        balances = [config.starting_chips] * n + [0]
        if config.jockey_pot:
            labels, balances = [*labels, "jockey pot"], [*balances, 0]
        state = BoardState(
            config=config,
            round=1,
            dealer=config.first_dealer,
            phase=Phase.DEAL,
            hands=(NO_CARDS,) * n,
            packets=(NO_CARDS,) * n,
            picked=(False,) * n,
            deck=dealing.deck_for(config),
            to_deal=0,
            deal_to=0,
            discards=NO_CARDS,
            lines=EMPTY_LINES,
            scratch_discards=(NO_CARDS,) * n,
            scratch_rolls=0,
            positions=AT_GATE,
            roller=(config.first_dealer + 1) % n,
            rolling=False,
            pending=(),
            joker_seat=-1,
            four_dice=(),
            pairer=-1,
            sums=(),
            winner=0,
            mover=-1,
            ledger=Ledger.open(labels, balances),
            race_rolls=0,
            out=(False,) * n,
            short=(False,) * n,
            folded=(False,) * n,
            wagered=(0,) * n,
            round_bets=(0,) * n,
        )
        state, _ = dealing.begin_round(state, [])
        return state

    def actor(self, state: BoardState) -> Actor:
        phase = state.phase
        if phase is Phase.OVER:
            return TERMINAL
        if phase is Phase.DEAL:
            return CHANCE
        if phase is Phase.DRAFT:
            return dealing.draft_picker(state)
        if phase is Phase.BETTING:
            return state.to_act[0]
        if phase is Phase.DRAW:
            return CHANCE if state.draw_left else state.drawers[0]
        if state.pending:
            return state.pending[0].debtor
        if state.traders:
            return trading.trader(state)
        if state.joker_seat >= 0:
            return state.joker_seat
        if state.power_seat >= 0:
            return state.power_seat
        if state.buyer >= 0:
            return state.buyer
        if state.four_dice:
            return state.pairer
        return CHANCE if state.rolling else state.roller

    def legal_actions(self, state: BoardState, seat: int) -> Sequence[Action]:
        if self.actor(state) != seat:
            return ()
        if state.phase is Phase.DRAFT:
            packet = state.packets[seat]
            return tuple(Keep(rank) for rank in ALL_RANKS if count_of(packet, rank))
        if state.phase is Phase.BETTING:
            return husted.betting_legal(state, seat)
        if state.phase is Phase.DRAW:
            return husted.draw_legal(state, seat)
        if state.pending:
            hand = state.hands[seat]
            actions: list[Action] = [PAY]
            if count_of(hand, ACE):
                actions.append(ACE_PLAY)
            if count_of(hand, KING):
                actions += [PlayKing(left=True), PlayKing(left=False)]
            return tuple(actions)
        if state.traders:
            return trading.legal(state, seat)
        if state.joker_seat >= 0:
            moves: list[Action] = [PASS]
            for horse in RANKS:
                if not state.line_of(horse):
                    moves.append(PlayJoker(horse, forward=True))
                    if state.position(horse) > 0:
                        moves.append(PlayJoker(horse, forward=False))
            return tuple(moves)
        if state.power_seat >= 0:
            return husted.power_legal(state, seat)
        if state.buyer >= 0:
            hand = state.hands[seat]
            buys = [
                Buy(take, give)
                for take in ALL_RANKS
                if count_of(state.market, take)
                for give in ALL_RANKS
                if count_of(hand, give) and give != take
            ]
            return (PASS, *buys)
        if state.four_dice:
            pairs = FourDice(state.four_dice).pairings()  # type: ignore[arg-type]
            ordered = {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}
            return tuple(Pair(a, b) for a, b in sorted(ordered))
        return (ROLL,)

    def chance_weights(self, state: BoardState) -> tuple[Sequence[Action], Sequence[int]]:
        if self.actor(state) is not CHANCE:
            return (), ()
        if state.phase in (Phase.DEAL, Phase.DRAW):
            ranks = [rank for rank in ALL_RANKS if count_of(state.deck, rank)]
            return [Deal(rank) for rank in ranks], [count_of(state.deck, r) for r in ranks]
        if state.phase is Phase.RACE and state.config.robertson:
            return ALL_FOUR_DICE, _FOUR_WEIGHTS
        return ALL_ROLLS, _ROLL_WEIGHTS

    def parse_action(self, state: BoardState, text: str) -> Action:
        word = text.strip()
        actor = self.actor(state)
        if actor is not CHANCE:
            special = husted.parse(word) if state.config.husted else None
            if special is not None:
                return special
            return parse_seat_action(word, actor if isinstance(actor, int) else -1)
        if state.phase in (Phase.DEAL, Phase.DRAW):
            allowed = (
                RANKS
                if dealing.deck_for(state.config) == full_deck(state.config.decks)
                else ALL_RANKS
            )
            return Deal.parse(word, allowed)
        if state.phase is Phase.RACE and state.config.robertson:
            return FourDice.parse(word)
        return DiceRoll.parse(word)

    def verify(self, state: BoardState, action: Action) -> None:
        actor = self.actor(state)
        if actor is TERMINAL:
            raise IllegalAction("the game is over")
        if actor is CHANCE:
            self._verify_chance(state, action)
            return
        if isinstance(action, Deal | DiceRoll | FourDice):
            raise IllegalAction(f"it is seat {actor + 1}'s move, not a chance outcome")
        legal = self.legal_actions(state, actor)
        if action not in legal:
            choices = ", ".join(a.text for a in legal)
            raise IllegalAction(
                f"{action.text!r} is not allowed now; seat {actor + 1} may: {choices}"
            )

    def _verify_chance(self, state: BoardState, action: Action) -> None:
        if isinstance(action, Deal):
            if state.phase not in (Phase.DEAL, Phase.DRAW):
                raise IllegalAction("no card is being dealt now; the dice are")
            if not count_of(state.deck, action.rank):
                raise IllegalAction(f"no {action.text[5:]} is left in the deck")
            return
        if state.phase is Phase.DEAL:
            raise IllegalAction("cards are being dealt now, not dice rolled")
        four = state.phase is Phase.RACE and state.config.robertson
        if isinstance(action, FourDice if four else DiceRoll):
            return
        if isinstance(action, SeatAction | husted.HustedAction):
            raise IllegalAction("the dice (or the deal) come next, not a player's action")
        raise IllegalAction(f"{action.text!r} is not a roll this game uses now")

    def apply(self, state: BoardState, action: Action) -> tuple[BoardState, tuple[Event, ...]]:
        self.verify(state, action)
        events: list[Event] = []
        if isinstance(action, Roll):
            return replace(state, rolling=True), ()
        if isinstance(action, Deal) and state.phase is Phase.DRAW:
            return husted.draw_card(state, action.rank, events), tuple(events)
        if isinstance(action, Deal):
            state, events = dealing.deal(state, action.rank)
            return state, tuple(events)
        if isinstance(action, husted.Check | husted.Wager | husted.Meet | husted.Fold):
            seat = state.to_act[0]
            return husted.bet(state, seat, action, events), tuple(events)
        if isinstance(action, husted.Discard):
            state = husted.discard(state, state.drawers[0], action, events)
            return state, tuple(events)
        if isinstance(action, Keep):
            state, events = dealing.keep(state, self.actor(state), action.rank)  # type: ignore[arg-type]
            return state, tuple(events)
        if isinstance(action, DiceRoll):
            roller = state.roller
            events.append(ev.DiceRolled(roller, (action.low, action.high), state.phase.value))
            state = replace(state, rolling=False)
            if state.phase is Phase.SCRATCH:
                state, more = racing.scratch_roll(state, action.total)
            else:
                state, more = racing.race_roll(state, action.total)
            events.extend(more)
        elif isinstance(action, FourDice):
            events.append(ev.FourDiceRolled(state.roller, action.dice))
            state = racing.four_dice(replace(state, rolling=False), action.dice)
        elif isinstance(action, Pair):
            events.append(ev.PairChosen(state.pairer, action.first, action.second))
            state = racing.pair(state, action.first, action.second)
        elif isinstance(action, Pay):
            state = penalties.pay_head(state, events)
        elif isinstance(action, PlayAce):
            state = penalties.play_ace(state, events)
        elif isinstance(action, PlayKing):
            state = penalties.play_king(state, action.left, events)
        elif isinstance(action, PlayJoker):
            state = racing.play_joker(state, action.horse, action.forward, events)
        elif isinstance(action, Offer):
            state = trading.make_offer(state, action, events)
        elif isinstance(action, Answer):
            state = trading.answer(state, action.accept, events)
        elif isinstance(action, Pass) and state.traders:
            state = trading.pass_turn(state)
        elif isinstance(action, husted.Power):
            state = husted.use_power(state, action, events)
        elif isinstance(action, Pass) and state.power_seat >= 0:
            state = replace(state, power_seat=-1)
        elif isinstance(action, Buy):
            state = racing.buy(state, action.take, action.give, events)
        elif isinstance(action, Pass) and state.buyer >= 0:
            state = replace(state, buyer=-1)
        elif isinstance(action, Pass):
            state = replace(state, joker_seat=-1)
        state, events = racing.proceed(state, events)
        return state, tuple(events)

    # --- what leaves the core -------------------------------------------------
    def view(self, state: BoardState, seat: int | None) -> BoardView:
        config = state.config
        n = config.players
        hands = tuple(
            hand if config.open_hands or owner == seat else None
            for owner, hand in enumerate(state.hands)
        )
        return BoardView(
            seat=seat,
            round=state.round,
            rounds=config.rounds,
            dealer=state.dealer,
            phase=state.phase,
            chips=state.ledger.balances[:n],
            pot=state.pot,
            jockey=state.jockey,
            hands=hands,
            hand_sizes=tuple(total(hand) for hand in state.hands),
            packet=state.packets[seat] if seat is not None else None,
            undealt=total(state.deck),
            discards=state.discards,
            lines=state.lines,
            positions=state.positions,
            board=config.board,
            roller=state.roller,
            race_rolls=state.race_rolls,
            decks=config.decks,
            pending=state.pending[0] if state.pending else None,
            offer=state.offer,
            market=state.market if state.phase is Phase.RACE else None,
            folded=state.folded,
            wagered=state.wagered,
            bet_level=state.bet_level,
            round_bets=state.round_bets,
            blocks=state.blocks,
            four_dice=state.four_dice,
            out=state.out,
            config=config,
        )

    def ledger(self, state: BoardState) -> Ledger:
        return state.ledger

    def result(self, state: BoardState) -> Result:
        if state.phase is not Phase.OVER:
            raise IllegalAction("the game is not over yet")
        n = state.config.players
        return rank_standings(state.ledger.balances[:n], unclaimed=state.pot + state.jockey)


__all__ = ["JOKER", "BoardRules"]
