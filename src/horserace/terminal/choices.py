"""What a person is asked, whatever draws the question: a choice of options, each with the key a
person types and the words that say what it does, perhaps a number field (a bid) and steps that
narrow a long list (a trade: the cards to give, the cards to ask for, then the partner).

A presenter (printed lines, or the full screen's choice panel) shows a `Choice` and reads the
answer; `resolve` turns what was typed into the legal action, the next step, or a `Rejection`
that says which rule the text breaks and what is allowed. Keys are never list positions: a `3`
typed at a draft is the card 3, not the third option."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from string import ascii_lowercase
from typing import Protocol

from horserace.core.actions import Action
from horserace.core.errors import HorseraceError

BACK_KEYS = ("<", "back")
LISTED_IN_FULL = 8  # options named in a rejection before "or another key above"


@dataclass(frozen=True)
class Rejection:
    """Why a typed answer names no legal action: the rule it breaks and what is allowed instead,
    one line each."""

    rule: str
    allowed: str

    def lines(self) -> list[str]:
        return [line for line in (self.rule, self.allowed) if line]


@dataclass(frozen=True)
class Option:
    """One answer: `key` is what a person types or presses (unique within its choice, any case);
    `words` say what it does. It either is an `action`, or leads to the next step (`then`, asked
    when chosen). `group` is a heading for long lists; `names` are other texts that name it (the
    action's own text always does)."""

    key: str
    words: str
    action: Action | None = None
    group: str = ""
    then: Callable[[], Choice] | None = None
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if (self.action is None) == (self.then is None):
            raise ValueError(f"option {self.key!r} needs an action or a next step, not both")

    def named_by(self, word: str) -> bool:
        texts = [self.key, *self.names]
        if self.action is not None:
            texts.append(self.action.text)
        return any(word == " ".join(text.lower().split()) for text in texts)


@dataclass(frozen=True)
class NumberField:
    """A number typed in (a bid, a wager): `minimum` to `maximum`, or `+N` for one of `steps`
    over `base` (the standing bid). `make` turns the number into the action."""

    label: str
    minimum: int
    maximum: int
    make: Callable[[int], Action]
    base: int = 0
    steps: tuple[int, ...] = ()  # a bid's raises: (1, 5, 10)
    unit: str = "chips"

    def step_keys(self) -> list[tuple[str, int]]:
        """('+5', 15) for each step that stays within the limits."""
        return [
            (f"+{step}", self.base + step)
            for step in self.steps
            if self.minimum <= self.base + step <= self.maximum
        ]

    def describe(self) -> str:
        if self.minimum == self.maximum:
            return f"{self.label} {self.minimum} {self.unit}"
        text = f"{self.label} {self.minimum} to {self.maximum} {self.unit}"
        keys = ", ".join(f"{key} = {value}" for key, value in self.step_keys())
        return f"{text} ({keys})" if keys else text

    def read(self, word: str) -> Action | Rejection | None:
        """The action for a typed number, a Rejection naming the limits, or None (not a number)."""
        given = word.removeprefix(self.label).strip()
        if given.startswith("+") and given[1:].isascii() and given[1:].isdigit():
            value = self.base + int(given[1:])
        elif given.isascii() and given.isdigit():
            value = int(given)
        else:
            return None
        if value < self.minimum:
            return Rejection(
                f"{value} is under the least {self.label} allowed now ({self.minimum})",
                f"allowed: {self.describe()}",
            )
        if value > self.maximum:
            return Rejection(
                f"{value} is over the limit: a {self.label} is at most {self.maximum} {self.unit}",
                f"allowed: {self.describe()}",
            )
        return self.make(value)


Reader = Callable[[str], "Action | Choice | Rejection | None"]


Doubt = Callable[[Action], "str | None"]


@dataclass(frozen=True)
class Choice:
    """One question to the person at `seat`. Enter alone answers nothing: every answer, "no
    bet" and "done" too, is a key typed. `hint` says how to type what the options do not list;
    `read` reads such free-typed answers (a bet, a whole trade) into an action, a next step, a
    Rejection, or None when it does not know the text. `back` is the step before this one.
    `doubt` says why an answer that moves money looks like a slip (a bid over a quarter of
    one's chips: `100` typed for 10), or None; such an answer is asked again as a yes or no
    (`confirming`), here and in every step after this one. `always_ask` puts the question even
    when it has one answer: what may be answered hangs on cards others do not see (a debt an
    Ace could cancel), so an answer taken at once would tell them."""

    seat: int
    question: str
    options: tuple[Option, ...] = ()
    field: NumberField | None = None
    hint: str = ""
    read: Reader | None = None
    back: Choice | None = None
    always_ask: bool = False
    doubt: Doubt | None = None

    def __post_init__(self) -> None:
        keys = [option.key.lower() for option in self.options]
        if len(set(keys)) != len(keys):
            raise ValueError(f"two options share a key in {self.question!r}: {keys}")

    def option(self, key: str) -> Option | None:
        word = key.strip().lower()
        return next((o for o in self.options if o.key.lower() == word), None)

    def groups(self) -> list[tuple[str, list[Option]]]:
        """The options under their headings, in order of first appearance."""
        grouped: dict[str, list[Option]] = {}
        for option in self.options:
            grouped.setdefault(option.group, []).append(option)
        return list(grouped.items())

    def allowed(self) -> str:
        """One line naming what may be typed here."""
        parts = [f"{o.key}: {o.words}" for o in self.options[:LISTED_IN_FULL]]
        if len(self.options) > LISTED_IN_FULL:
            parts.append("or another key listed above")
        if self.field is not None:
            parts.append(self.field.describe())
        if self.hint:
            parts.append(self.hint)
        if self.back is not None:
            parts.append("< to go back")
        return "allowed: " + "; ".join(parts)

    def only_action(self) -> Action | None:
        """The action when exactly one answer is possible (no field, no free text, no step)."""
        if self.field is not None or self.read is not None or len(self.options) != 1:
            return None
        return self.options[0].action


def over_a_quarter(money: int, cost: Callable[[Action], int | None], unit: str = "chips") -> Doubt:
    """Doubts an answer that puts more than a quarter of the seat's `money` on one bet or bid
    (`cost` of an action: the chips it stakes, None for one that stakes none)."""

    def doubt(action: Action) -> str | None:
        amount = cost(action)
        if amount is None or 4 * amount <= money:
            return None
        return f"{action.text} stakes {amount} of your {money} {unit}, over a quarter"

    return doubt


WELL_OVER = 1.5  # paying more than this many times what a bet is worth by the odds is doubted
SURE_RULE = (
    "a bid or bet over a quarter of your money, or paying more than 1.5 times what it is worth"
    " by the odds (its average return), asks 'sure?' first"
)


def over_its_worth(
    cost: Callable[[Action], int | None],
    worth: Callable[[Action], float | None],
    unit: str = "chips",
    guessed: str = "",
) -> Doubt:
    """Doubts an answer that pays more than WELL_OVER times what it is worth by the odds:
    `worth` is what the bet or bid returns on average (None where the odds say nothing);
    `guessed` says what in it is not the odds' but a guess (said after the figure)."""

    def doubt(action: Action) -> str | None:
        amount = cost(action)
        if not amount:
            return None
        value = worth(action)
        if value is None or amount <= WELL_OVER * value:
            return None
        said = f"{action.text} costs {amount} {unit} and returns {value:.1f} on average by the odds"
        return f"{said}, {guessed}" if guessed else said

    return doubt


def any_of(*doubts: Doubt) -> Doubt:
    """The first of `doubts` that doubts an answer (a quarter of one's money, then the price)."""

    def doubt(action: Action) -> str | None:
        return next((said for said in (d(action) for d in doubts) if said is not None), None)

    return doubt


def resolve(choice: Choice, text: str) -> Action | Choice | Rejection:
    """What `text` answers to `choice`: a legal action, the next step of a multi-step choice
    (or the step before, for `<`), or a Rejection saying why not."""
    found = _found(choice, text)
    if isinstance(found, Rejection | Choice) or choice.doubt is None:
        return found
    doubt = choice.doubt(found)
    return found if doubt is None else confirming(choice, found, doubt)


def confirming(choice: Choice, action: Action, doubt: str) -> Choice:
    """`action` asked again as a yes or no, `doubt` saying why: no goes back to `choice`."""
    return Choice(
        choice.seat,
        f"{doubt}: sure?",
        (
            Option("y", f"yes: {action.text}", action),
            Option("n", "no: answer again", then=lambda: choice),
        ),
        back=choice,
    )


def _found(choice: Choice, text: str) -> Action | Choice | Rejection:
    word = " ".join(text.strip().lower().split())
    if not word:
        return Rejection("Enter alone chooses nothing here: type your answer", choice.allowed())
    if word in BACK_KEYS and choice.back is not None:
        return choice.back
    for option in choice.options:
        if option.named_by(word):
            return _taken(choice, option)
    if choice.field is not None:
        read = choice.field.read(word)
        if read is not None:
            return read
    if choice.read is not None:
        try:
            found = choice.read(word)
        except HorseraceError as error:
            return Rejection(str(error), choice.allowed())
        if isinstance(found, Choice):
            return _next_step(choice, found)
        if isinstance(found, Rejection) and not found.allowed:
            return Rejection(found.rule, choice.allowed())
        if found is not None:
            return found
    return Rejection(f"{text.strip()!r} is not a choice here", choice.allowed())


def _taken(choice: Choice, option: Option) -> Action | Choice:
    if option.action is not None:
        return option.action
    assert option.then is not None
    return _next_step(choice, option.then())


def _next_step(choice: Choice, step: Choice) -> Action | Choice:
    """The step after `choice`, which goes back to it (and doubts what it doubts); a step with
    one answer is that answer. A step that is the one before (a "no" to a doubt) is as it was."""
    if step is choice.back:
        return step
    only = step.only_action()
    if only is not None:
        return only
    return replace(step, back=step.back or choice, doubt=step.doubt or choice.doubt)


def lettered(
    entries: Iterable[tuple[Action, str]],
    *,
    preferred: Callable[[Action], str | None] = lambda action: None,
    reserved: Sequence[str] = (),
    group: str = "",
) -> list[Option]:
    """Options keyed by a preferred key (a card's name, the first letter of a word) where it is
    free, else by the next free letter (a, b, ... z, then aa, ab, ...) that is not `reserved`
    (such as the letters that name cards)."""
    used: set[str] = set()
    wanted = [(action, words, preferred(action)) for action, words in entries]
    keys: list[str | None] = []
    for _action, _words, key in wanted:
        free = key is not None and key.lower() not in used
        keys.append(key if free else None)
        if free and key is not None:
            used.add(key.lower())
    options = []
    spare = _letters(used | {key.lower() for key in reserved})
    for (action, words, _), key in zip(wanted, keys, strict=True):
        options.append(Option(key or next(spare), words, action, group=group))
    return options


def _letters(used: set[str]) -> Iterator[str]:
    for first in ("", *ascii_lowercase):
        for second in ascii_lowercase:
            key = first + second
            if key not in used:
                used.add(key)
                yield key


class Presenter(Protocol):
    """Shows choices and what happened: printed lines (`--plain`) or the full screen."""

    def ask(self, choice: Choice) -> Action:
        """Show `choice` and return the legal action chosen (steps and rejections handled)."""

    def tell(self, lines: Sequence[str]) -> None:
        """Add lines to what the person reads (the log), such as a move taken for them."""
