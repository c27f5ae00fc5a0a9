"""Where a person answers on the full screen: a `Choice` (17 options or 300) shown with each
option's key and words under its heading, a filter that narrows a long list as one types, the
number field with its +1/+5/+10 keys, and why an answer was refused. Hidden and disabled between
questions, so keys typed while the bots play answer nothing."""

from __future__ import annotations

import math
import time

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.message import Message
from textual.strip import Strip
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option as ListEntry

from horserace.core.actions import Action
from horserace.terminal.choices import Choice, Option, Rejection, resolve


class AnswerField(Input):
    """The answer line; `?` is never part of an answer, so it opens the help even here, and the
    down arrow moves into the list of options. Keys typed before the question was on the screen
    (`shown_at`: a second Enter meant for a result, a `q` a moment after the last answer) are
    dropped: nobody answers a question before seeing it."""

    shown_at = math.inf  # when the open question was first drawn (inf: not yet)
    opening = False  # a question was opened and this field has not been drawn since

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character != "?" and super().check_consume_key(key, character)

    def render_line(self, y: int) -> Strip:
        """The first line drawn after a question opened is in the frame that shows it: keys
        count from then. (Stamped once the screen had gone idle after that frame, a key typed
        at once on a busy machine came before the stamp and was dropped: 'joker' read 'oker'.)"""
        if self.opening:
            self.opening, self.shown_at = False, time.monotonic()
        return super().render_line(y)

    def on_key(self, event: Key) -> None:
        if event.time < self.shown_at:
            event.prevent_default()  # nor typed in, nor Enter
            event.stop()
            return
        if event.key == "down":
            options = self.screen.query_one("#options", OptionList)
            if options.display and options.option_count:
                event.stop()
                options.focus()
                if options.highlighted is None:
                    options.action_first()


def matches(option: Option, typed: str) -> bool:
    """Whether a typed text narrows the list to `option`: its key starts so, or its words or
    heading hold every typed word."""
    words = typed.lower().split()
    if not words:
        return True
    if option.key.lower().startswith(typed.strip().lower()):
        return True
    text = f"{option.words} {option.group}".lower()
    return all(word in text for word in words)


class ChoicePanel(Vertical):
    """Shows a `Choice` (or a bare question) and posts what the person chose."""

    DEFAULT_CSS = """
    ChoicePanel { height: auto; display: none; border-top: solid $accent; padding: 0 1; }
    ChoicePanel.-asking { display: block; }
    ChoicePanel #question { text-style: bold; }
    ChoicePanel #options { height: auto; max-height: 8; border: none; padding: 0; }
    ChoicePanel #steps { height: auto; }
    ChoicePanel #field { width: auto; }
    ChoicePanel #steps Button { min-width: 6; height: 1; border: none; margin-right: 1; }
    ChoicePanel #feedback { color: $error; height: auto; display: none; }
    ChoicePanel #answer, ChoicePanel #answer:focus { border: none; height: 1; padding: 0 1; }
    """

    class Answered(Message):
        """A bare question's text (a companion's dice, a replay's race)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Chosen(Message):
        """The legal action a `Choice` came to."""

        def __init__(self, action: Action) -> None:
            super().__init__()
            self.action = action

    def __init__(self) -> None:
        super().__init__(id="choice")
        self.choice: Choice | None = None
        self.default: str | None = None
        self.refusal: Text | None = None  # why the last answer was refused, shown as it is re-asked
        self._question = Text("")
        self._feedback = Text("")
        self._shown: list[Option] = []  # the options listed now, by their index in the list

    def compose(self) -> ComposeResult:
        yield Static(id="question")
        yield OptionList(id="options")
        yield Horizontal(Static(id="field"), id="steps")
        yield Static(id="feedback")
        yield AnswerField(id="answer", disabled=True, placeholder="type a key, then Enter")

    # --- what the app asks ---------------------------------------------------------------------
    def present(self, choice: Choice) -> None:
        """Ask `choice`: its options listed, the field and its step keys, an empty answer."""
        self.choice = choice
        self.default = None  # Enter alone answers no choice: a key is typed
        self._list(choice.options)
        self._show_field(choice)
        hint = f"  ({choice.hint})" if choice.hint else ""
        placeholder = "a key or words to narrow, Enter · ? help"
        self._open(choice.question + hint, None, placeholder)

    def open(self, question: str, default: str | None) -> None:
        """Ask a bare question (no options): its answer is the text typed."""
        self.choice = None
        self.default = default
        self._list(())
        self.query_one("#steps").display = False
        self._open(question, default, "type your answer, then Enter · ? help")

    def close(self) -> None:
        self.choice = None
        field = self.query_one(AnswerField)
        field.value = ""
        field.disabled = True
        field.shown_at, field.opening = math.inf, False
        self.remove_class("-asking")

    def refuse(self, reason: Text) -> None:
        """Shown now if a question is open, else when the next one opens."""
        if self.has_class("-asking"):
            self._say(reason)
        else:
            self.refusal = reason

    @property
    def listed(self) -> tuple[Option, ...]:
        """The options listed now (the typed words narrow them)."""
        return tuple(self._shown)

    def lines_needed(self, options: int, width: int) -> int:
        """The panel's height at `width` columns with at most `options` options listed."""
        if not self.has_class("-asking"):
            return 0
        console = self.app.console
        wrap = console.options.update_width(max(10, width - 2))

        def rows(text: Text) -> int:
            return len(console.render_lines(text, wrap, pad=False)) if text.plain else 0

        listed = self.query_one("#options", OptionList)
        count = listed.option_count if listed.display else 0
        steps = 1 if self.query_one("#steps").display else 0
        return 1 + rows(self._question) + min(count, options) + steps + rows(self._feedback) + 1

    def list_at_most(self, options: int) -> None:
        """List at most `options` options at once (the rest scroll, and typing narrows them)."""
        self.query_one("#options", OptionList).styles.max_height = options

    # --- inside ----------------------------------------------------------------------------------
    def _open(self, question: str, default: str | None, placeholder: str) -> None:
        shown = question + (f"  [Enter = {default}]" if default is not None else "")
        self._question = Text(shown)
        self.query_one("#question", Static).update(self._question)
        self._say(self.refusal or Text(""))
        self.refusal = None
        field = self.query_one(AnswerField)
        field.value = ""  # nothing typed before the question counts
        field.placeholder = placeholder
        field.disabled = False
        field.shown_at, field.opening = math.inf, True  # keys count once it is drawn
        self.add_class("-asking")
        field.focus()

    @property
    def ready(self) -> bool:
        """Whether a question is open and drawn (keys typed now answer it)."""
        return self.has_class("-asking") and self.query_one(AnswerField).shown_at < math.inf

    def _say(self, reason: Text) -> None:
        self._feedback = reason
        feedback = self.query_one("#feedback", Static)
        feedback.update(reason)
        feedback.display = bool(reason.plain)

    def _list(self, options: tuple[Option, ...] | list[Option]) -> None:
        listed = self.query_one("#options", OptionList)
        listed.clear_options()
        self._shown = []
        group = None
        entries: list[ListEntry] = []
        for option in options:
            if option.group and option.group != group:
                entries.append(ListEntry(Text(option.group, style="bold underline"), disabled=True))
            group = option.group
            line = Text.assemble((f"{option.key:>3}", "bold"), "  ", option.words)
            entries.append(ListEntry(line, id=f"o{len(self._shown)}"))
            self._shown.append(option)
        listed.add_options(entries)
        listed.display = bool(entries)

    def _show_field(self, choice: Choice) -> None:
        steps = self.query_one("#steps", Horizontal)
        field = choice.field
        steps.display = field is not None
        if field is None:
            return
        self.query_one("#field", Static).update(Text(field.describe() + "  "))
        keys = [key for key, _ in field.step_keys()]
        buttons = list(steps.query(Button))
        if [str(button.label) for button in buttons] != keys:  # the same keys stay as they are
            for button in buttons:
                button.remove()
            steps.mount_all(Button(key, compact=True) for key in keys)

    def _answer(self, text: str) -> None:
        choice = self.choice
        if choice is None:
            if not text and self.default is None:
                self.refuse(Text("type an answer (? for help)", style="red"))
                return
            self.post_message(self.Answered(text or (self.default or "")))
            return
        found = resolve(choice, text)
        if isinstance(found, Rejection):
            self.query_one(AnswerField).value = ""  # the refusal quotes what was typed
            self.refuse(Text("\n".join(found.lines()), style="red"))
        elif isinstance(found, Choice):
            self.present(found)
        else:
            self.post_message(self.Chosen(found))

    @on(Input.Submitted, "#answer")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._answer(event.value.strip())

    @on(Input.Changed, "#answer")
    def _narrow(self, event: Input.Changed) -> None:
        if self.choice is not None and len(self.choice.options) > 1:
            self._list([o for o in self.choice.options if matches(o, event.value)])

    @on(OptionList.OptionSelected, "#options")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = int((event.option_id or "o-1")[1:])
        if 0 <= index < len(self._shown):
            self._answer(self._shown[index].key)

    @on(Button.Pressed, "#steps Button")
    def _stepped(self, event: Button.Pressed) -> None:
        event.stop()
        self._answer(str(event.button.label))
