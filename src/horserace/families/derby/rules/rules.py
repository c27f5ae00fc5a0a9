"""Derby Challenge: silks and horses, odds dice, wagers, scratches, the race, payouts, races."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction, InvalidAction
from horserace.core.events import Event
from horserace.core.ledger import Ledger
from horserace.core.rules import Result, Rules, rank_standings
from horserace.core.types import CHANCE, TERMINAL, Actor
from horserace.families.derby.rules import events as ev
from horserace.families.derby.rules import race as rc
from horserace.families.derby.rules.model import (
    MULTIPLIERS,
    ODDS_SIDES,
    AccelDie,
    ChooseHorse,
    ChooseSilk,
    D20Roll,
    DerbyConfig,
    DerbyPhase,
    DerbyState,
    DerbyView,
    MudDie,
    OddsDie,
    Wager,
    derby_config,
)
from horserace.families.derby.rules.silks import SILK_NUMBERS

_D20_OUTCOMES = tuple(D20Roll(v) for v in range(1, rc.D20_SIDES + 1))
_D20_WEIGHTS = (1,) * rc.D20_SIDES
_ODDS_OUTCOMES = tuple(OddsDie(v) for v in range(1, ODDS_SIDES + 1))
_ODDS_WEIGHTS = (1,) * ODDS_SIDES


class DerbyRules(Rules[DerbyConfig, DerbyState]):
    family = "derby"

    # --- configuration -------------------------------------------------
    def make_config(self, options: Mapping[str, Any]) -> DerbyConfig:
        return derby_config(options)

    # --- the game tree ---------------------------------------------------
    def initial_state(self, config: DerbyConfig) -> DerbyState:
        n = config.players
        labels = [f"seat {seat + 1}" for seat in range(n)] + ["wagers", "bank"]
        ledger = Ledger.open(labels, [config.starting_money] * n + [0, config.bank_float])
        unpicked = (None,) * n
        return DerbyState(
            config=config,
            race_number=1,
            phase=DerbyPhase.SELECT,
            order=tuple(range(n)),
            turn_index=0,
            silks=unpicked,
            horses=unpicked,
            odds=unpicked,
            wagers=(0,) * n,
            scratched=(),
            scratches_left=0,
            race=None,
            ledger=ledger,
        )

    def actor(self, state: DerbyState) -> Actor:
        if state.phase is DerbyPhase.OVER:
            return TERMINAL
        if state.phase in (DerbyPhase.SELECT, DerbyPhase.WAGER):
            return state.seat_to_act
        return CHANCE

    def legal_actions(self, state: DerbyState, seat: int) -> Sequence[Action]:
        if self.actor(state) != seat:
            return ()
        if state.phase is DerbyPhase.SELECT:
            if state.silks[seat] is None:
                taken = set(state.silks)
                return tuple(ChooseSilk(s) for s in SILK_NUMBERS if s not in taken)
            owned = set(state.horses)
            return tuple(ChooseHorse(h) for h in rc.DERBY_HORSES if h not in owned)
        return tuple(Wager(amount) for amount in range(self.wager_limit(state, seat) + 1))

    @staticmethod
    def wager_limit(state: DerbyState, seat: int) -> int:
        """$0..3 by default; everything in a one-race game; never more than the seat holds."""
        cap = state.config.wager_cap
        money = state.money(seat)
        return money if cap is None else min(cap, money)

    def chance_weights(self, state: DerbyState) -> tuple[Sequence[Action], Sequence[int]]:
        if self.actor(state) is not CHANCE:
            return (), ()
        if state.phase is DerbyPhase.ODDS:
            return _ODDS_OUTCOMES, _ODDS_WEIGHTS
        if state.phase is DerbyPhase.SCRATCH:
            return _D20_OUTCOMES, _D20_WEIGHTS
        race = state.race
        assert race is not None
        track = state.config.track
        waiting = race.waiting_for
        if waiting == "mud":
            pairs = [(MudDie(True), track.mud_shoe), (MudDie(False), track.mud_blank)]
            kept = [(die, w) for die, w in pairs if w]
            return [die for die, _ in kept], [w for _, w in kept]
        if waiting == "accel":
            weights = track.accelerator_weights
            return [AccelDie(b) for b in weights], list(weights.values())
        return _D20_OUTCOMES, _D20_WEIGHTS

    def parse_action(self, state: DerbyState, text: str) -> Action:
        actor = self.actor(state)
        if actor is TERMINAL:
            raise InvalidAction("the game is over: no action applies")
        phase = state.phase
        word = text.strip().lower()
        if phase is DerbyPhase.SELECT:
            assert isinstance(actor, int)
            if word.startswith("horse") or state.silks[actor] is not None:
                return ChooseHorse.parse(text)
            return ChooseSilk.parse(text)
        if phase is DerbyPhase.WAGER:
            return Wager.parse(text)
        if phase is DerbyPhase.ODDS:
            return OddsDie.parse(text)
        if phase is DerbyPhase.SCRATCH:
            return D20Roll.parse(text)
        assert state.race is not None
        waiting = state.race.waiting_for
        if waiting == "mud":
            return MudDie.parse(text)
        if waiting == "accel":
            return AccelDie.parse(text)
        return D20Roll.parse(text)

    def verify(self, state: DerbyState, action: Action) -> None:
        actor = self.actor(state)
        if actor is TERMINAL:
            raise IllegalAction("the game is over")
        if actor is CHANCE:
            self._verify_chance(state, action)
            return
        seat = actor
        if isinstance(action, ChooseSilk | ChooseHorse | Wager):
            if action in self.legal_actions(state, seat):
                return
            raise IllegalAction(self._refusal(state, seat, action))
        if isinstance(action, D20Roll | OddsDie | MudDie | AccelDie):
            raise IllegalAction(f"it is seat {seat + 1}'s decision now, not a die roll")
        raise IllegalAction(f"{action.text!r} is not part of Derby Challenge")

    def _refusal(self, state: DerbyState, seat: int, action: Action) -> str:
        if state.phase is DerbyPhase.SELECT:
            if state.silks[seat] is None:
                if not isinstance(action, ChooseSilk):
                    return f"seat {seat + 1} picks a silk first, then a horse"
                return f"silk {action.silk} is already taken"
            if not isinstance(action, ChooseHorse):
                return f"seat {seat + 1} has a silk; now it picks a horse"
            return f"horse {action.horse} is already taken"
        if not isinstance(action, Wager):
            return f"seat {seat + 1} places a wager now"
        limit = self.wager_limit(state, seat)
        return f"seat {seat + 1} may wager $0 to ${limit}, not ${action.amount}"

    def _verify_chance(self, state: DerbyState, action: Action) -> None:
        outcomes, _ = self.chance_weights(state)
        if action in outcomes:
            return
        expected = type(outcomes[0])
        if isinstance(action, expected):
            raise IllegalAction(f"{action.text!r} cannot come up on this die")
        names = {D20Roll: "a d20", OddsDie: "an odds die", MudDie: "the mud die"}
        wanted = names.get(expected, "the accelerator die")
        raise IllegalAction(f"{wanted} is rolled now, not {action.text!r}")

    def apply(self, state: DerbyState, action: Action) -> tuple[DerbyState, tuple[Event, ...]]:
        self.verify(state, action)
        if isinstance(action, ChooseSilk):
            return self._choose_silk(state, action.silk)
        if isinstance(action, ChooseHorse):
            return self._choose_horse(state, action.horse)
        if isinstance(action, OddsDie):
            return self._odds(state, action.value)
        if isinstance(action, Wager):
            return self._wager(state, action.amount)
        if state.phase is DerbyPhase.SCRATCH:
            assert isinstance(action, D20Roll)
            return self._scratch(state, action.value)
        race = state.race
        assert race is not None
        track = state.config.track
        if isinstance(action, D20Roll):
            race, events = rc.roll_d20(race, track, action.value)
        elif isinstance(action, MudDie):
            race, events = rc.roll_mud(race, track, action.shoe)
        else:
            assert isinstance(action, AccelDie)
            race, events = rc.roll_accelerator(race, track, action.bonus)
        state = replace(state, race=race)
        if race.over:
            state, more = self._payout(state)
            events += more
        return state, tuple(events)

    # --- setting up a race --------------------------------------------------
    @staticmethod
    def _choose_silk(state: DerbyState, silk: int) -> tuple[DerbyState, tuple[Event, ...]]:
        seat = state.seat_to_act
        silks = list(state.silks)
        silks[seat] = silk
        return replace(state, silks=tuple(silks)), (ev.SilkChosen(seat, silk),)

    @staticmethod
    def _choose_horse(state: DerbyState, horse: int) -> tuple[DerbyState, tuple[Event, ...]]:
        seat = state.seat_to_act
        return _take_turn(state, "horses", horse, DerbyPhase.ODDS), (ev.HorseChosen(seat, horse),)

    @staticmethod
    def _odds(state: DerbyState, value: int) -> tuple[DerbyState, tuple[Event, ...]]:
        seat = state.seat_to_act
        event = ev.OddsRolled(seat, state.horse_of(seat), value)
        return _take_turn(state, "odds", value, DerbyPhase.WAGER), (event,)

    def _wager(self, state: DerbyState, amount: int) -> tuple[DerbyState, tuple[Event, ...]]:
        seat = state.seat_to_act
        wagers = list(state.wagers)
        wagers[seat] = amount
        ledger = state.ledger.transfer(seat, state.config.wagers_account, amount)
        state = replace(state, wagers=tuple(wagers), ledger=ledger, turn_index=state.turn_index + 1)
        events: list[Event] = [ev.WagerPlaced(seat, state.horse_of(seat), amount)]
        if state.turn_index == len(state.order):
            if state.config.scratches:
                scratches = state.config.scratches
                state = replace(state, phase=DerbyPhase.SCRATCH, scratches_left=scratches)
            else:
                state, more = self._start_race(state)
                events += more
        return state, tuple(events)

    def _scratch(self, state: DerbyState, value: int) -> tuple[DerbyState, tuple[Event, ...]]:
        """A d20 per scratch, rolled again until it names a running, unscratched horse."""
        if value not in state.field or value in state.scratched:
            return state, (ev.ScratchRolled(value, False),)
        events: list[Event] = [ev.ScratchRolled(value, True)]
        owner = state.owner(value)
        ledger, wagers = state.ledger, state.wagers
        if owner is not None:
            amount = wagers[owner]
            ledger = ledger.transfer(state.config.wagers_account, state.config.bank_account, amount)
            wagers = tuple(0 if s == owner else w for s, w in enumerate(wagers))
            events.append(ev.WagerForfeited(owner, value, amount))
        state = replace(
            state,
            scratched=(*state.scratched, value),
            scratches_left=state.scratches_left - 1,
            ledger=ledger,
            wagers=wagers,
        )
        if state.scratches_left == 0:
            state, more = self._start_race(state)
            events += more
        return state, tuple(events)

    @staticmethod
    def _start_race(state: DerbyState) -> tuple[DerbyState, tuple[Event, ...]]:
        runners = tuple(h for h in state.field if h not in state.scratched)
        owned = set(state.horses)
        house = tuple(h for h in runners if h not in owned)
        started = ev.RaceStarted(state.race_number, runners, house)
        return replace(state, phase=DerbyPhase.RACE, race=rc.start_race(runners)), (started,)

    # --- after the race -------------------------------------------------------
    def _payout(self, state: DerbyState) -> tuple[DerbyState, list[Event]]:
        """The top three keep their stake and win 3x, 2x, 1x wager x odds from the bank;
        every other wager goes to the bank."""
        race = state.race
        assert race is not None
        config = state.config
        table, bank = config.wagers_account, config.bank_account
        events: list[Event] = [ev.RaceFinished(state.race_number, race.podium, race.turn - 1)]
        places = {h: p for h, p in race.places().items() if p <= race.needed}
        ledger = state.ledger
        for seat, wager in enumerate(state.wagers):
            horse, odds = state.horse_of(seat), state.odds_of(seat)
            place = places.get(horse)
            if place is not None:
                winnings = MULTIPLIERS[place] * wager * odds
                ledger = ledger.transfer(table, seat, wager).transfer(bank, seat, winnings)
                events.append(ev.PayoutMade(seat, horse, place, wager, odds, winnings))
            elif wager:
                ledger = ledger.transfer(table, bank, wager)
                events.append(ev.WagerLost(seat, horse, wager))
        n = config.players
        state = replace(
            state,
            ledger=ledger,
            wagers=(0,) * n,
            podiums=(*state.podiums, race.podium),
        )
        if state.race_number == config.races:
            state = replace(state, phase=DerbyPhase.OVER)
            result = self.result(state)
            events.append(ev.GameOver(result.winners, ledger.balances[:n]))
            return state, events
        podium_seats = [s for h in race.podium if (s := state.owner(h)) is not None]
        order = (*podium_seats, *(s for s in range(n) if s not in podium_seats))
        unpicked = (None,) * n
        state = replace(
            state,
            race_number=state.race_number + 1,
            phase=DerbyPhase.SELECT,
            order=order,
            turn_index=0,
            silks=unpicked,
            horses=unpicked,
            odds=unpicked,
            scratched=(),
            scratches_left=0,
        )
        events.append(ev.RaceCalled(state.race_number, config.races, order))
        return state, events

    # --- what leaves the core -------------------------------------------------
    def view(self, state: DerbyState, seat: int | None) -> DerbyView:
        n = state.config.players
        to_act = state.seat_to_act if state.phase in (DerbyPhase.SELECT, DerbyPhase.WAGER) else None
        return DerbyView(
            seat=seat,
            config=state.config,
            race_number=state.race_number,
            phase=state.phase,
            order=state.order,
            to_act=to_act,
            silks=state.silks,
            horses=state.horses,
            odds=state.odds,
            wagers=state.wagers,
            money=state.ledger.balances[:n],
            bank=state.bank,
            scratched=state.scratched,
            scratches_left=state.scratches_left,
            race=state.race,
            podiums=state.podiums,
        )

    def standings(self, state: DerbyState) -> Result:
        n = state.config.players
        unclaimed = state.ledger.total - sum(state.ledger.balances[:n])
        return rank_standings(state.ledger.balances[:n], unclaimed=unclaimed)


def _take_turn(state: DerbyState, part: str, value: int, then: DerbyPhase) -> DerbyState:
    """The acting seat's entry of `part` (a per-seat tuple) set to `value`, and the turn passed
    on; after the last seat in order, the table moves to the phase `then`."""
    values = list(getattr(state, part))
    values[state.seat_to_act] = value
    changes: dict[str, Any] = {part: tuple(values), "turn_index": state.turn_index + 1}
    state = replace(state, **changes)
    if state.turn_index == len(state.order):
        state = replace(state, phase=then, turn_index=0)
    return state
