"""The parts of the full-screen table below or beside the board: the log that keeps the whole
game, and the panel where a person answers."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Resize
from textual.message import Message
from textual.widgets import Input, RichLog, Static


class GameLog(RichLog):
    """Every line the table says, in order, from the first deal to the standings (never cut);
    what is not a line of text (a table of silks to choose from) is kept as drawn."""

    def __init__(self) -> None:
        super().__init__(id="log", wrap=True, markup=False, highlight=False, max_lines=None)
        self.can_focus = False
        self.said: list[str] = []  # the plain words, for tests and screen readers
        self.kept: list[RenderableType] = []  # everything written, to wrap again on a resize
        self._width = 0

    def add(self, lines: list[RenderableType]) -> None:
        for line in lines:
            if isinstance(line, Text):
                self.said.append(line.plain)
            self.kept.append(line)
            self.write(line)

    def forget(self) -> None:
        """Start the log again (a replay going back)."""
        self.clear()
        self.said.clear()
        self.kept.clear()

    def on_resize(self, event: Resize) -> None:
        """Lines are wrapped as they are written: a new width writes them all again."""
        known = self._width
        self._width = event.size.width
        if known and known != event.size.width:
            self.clear()
            for line in self.kept:
                self.write(line)
            self.scroll_end(animate=False)


class AnswerField(Input):
    """The answer line; `?` is never part of an answer, so it opens the help even here."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character != "?" and super().check_consume_key(key, character)


class ChoicePanel(Vertical):
    """The question, why the last answer was refused, and the answer field. Hidden and disabled
    between questions, so keys typed while the bots play answer nothing."""

    DEFAULT_CSS = """
    ChoicePanel { height: auto; display: none; border-top: solid $accent; padding: 0 1; }
    ChoicePanel.-asking { display: block; }
    ChoicePanel #question { text-style: bold; }
    ChoicePanel #feedback { color: $error; height: auto; }
    ChoicePanel #answer, ChoicePanel #answer:focus { border: none; height: 1; padding: 0 1; }
    """

    class Answered(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self) -> None:
        super().__init__(id="choice")
        self.default: str | None = None
        self.refusal: Text | None = None  # why the last answer was refused, shown as it is re-asked

    def compose(self) -> ComposeResult:
        yield Static(id="question")
        yield Static(id="feedback")
        yield AnswerField(id="answer", disabled=True, placeholder="type your answer, then Enter")

    def open(self, question: str, default: str | None) -> None:
        """Ask: the field starts empty (nothing typed before the question counts)."""
        self.default = default
        shown = question + (f"  [Enter: {default}]" if default is not None else "")
        self.query_one("#question", Static).update(Text(shown))
        self.query_one("#feedback", Static).update(self.refusal or "")
        self.refusal = None
        field = self.query_one(Input)
        field.value = ""
        field.disabled = False
        self.add_class("-asking")
        field.focus()

    def close(self) -> None:
        field = self.query_one(Input)
        field.value = ""
        field.disabled = True
        self.remove_class("-asking")

    def refuse(self, reason: Text) -> None:
        """Shown now if a question is open, else when the next one opens."""
        if self.has_class("-asking"):
            self.query_one("#feedback", Static).update(reason)
        else:
            self.refusal = reason

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text and self.default is None:
            self.refuse(Text("type an answer (? for help)", style="red"))
            return
        self.post_message(self.Answered(text or (self.default or "")))
