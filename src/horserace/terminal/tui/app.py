"""The full-screen table: the board, the log and the choice panel, with the play loop in a
thread of its own. The thread reaches the screen through `AppBridge` (every call made with
`call_from_thread`), and blocks there while a person answers or reads a result."""

from __future__ import annotations

import asyncio
import contextlib
import math
import queue
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.containers import Container, VerticalScroll
from textual.events import Resize
from textual.filter import LineFilter
from textual.widgets import Footer, Static

from horserace.core.actions import Action
from horserace.core.chance import UNDO_WORD
from horserace.core.shown_odds import ShownOdds
from horserace.terminal.choices import Choice
from horserace.terminal.screen import Display, Fitted
from horserace.terminal.tui.choice_panel import ChoicePanel
from horserace.terminal.tui.layout import FULL, lay_out
from horserace.terminal.tui.overlays import HelpScreen, LeaveScreen, ResultScreen
from horserace.terminal.tui.pacer import Pacer, Stopped
from horserace.terminal.tui.panels import GameLog
from horserace.terminal.tui.theme import Contrast, theme_name

WIDE = 120  # columns from which the log sits beside the board, whatever the height
BOARD_FIRST = 80  # columns the board takes beside the log before the log grows past its fewest
LOG_COLUMNS = (40, 60)  # the fewest and the most columns of the log beside the board
FRAME = 1 / 30  # seconds between two boards drawn while the bots play at full speed
REMEASURE = 0.5  # seconds a layout holds for the boards drawn after it (a question lays out anew)
HEIGHTS_KEPT = 16  # boards' heights known at once (a board full and compact, at a few widths)
FINISHED, QUIT = "finished", "quit"
ANSWER_KEYS = ("help_key", "faster", "slower", "skip", "pause")  # actions of keys an answer types
PAUSE_NOTICE = 365 * 24 * 3600.0  # seconds the pause notice stays: until the game goes on


def log_columns(width: int) -> int:
    """The log's columns beside the board: the board has its first BOARD_FIRST columns, the log
    what is left within LOG_COLUMNS, the board the rest (a wide Derby spreads its lanes)."""
    fewest, most = LOG_COLUMNS
    return max(fewest, min(most, width - BOARD_FIRST))


def forms_of(board: RenderableType) -> list[RenderableType]:
    """The board's forms, full first: a `Fitted` board's two or three, else the one board as
    both full and compact."""
    if not isinstance(board, Fitted):
        return [board, board]
    return [board.full, board.compact, *([board.tight] if board.tight is not None else [])]


class TableArea(Container):
    """The board and the log: laid out again whenever the choice panel below opens or closes."""

    def on_resize(self, event: Resize) -> None:
        app = self.app
        if isinstance(app, TableApp):
            app.call_after_refresh(app.fit)


@dataclass(frozen=True)
class TableHelp:
    """What the help shows besides the keys: the rules and the odds as the table stands."""

    rules: str = ""
    odds: Callable[[], ShownOdds | None] = lambda: None


class TableApp(App[str]):
    """One table on the full screen; `work` plays the game on the play loop's thread and returns
    FINISHED (a quit raises `Stopped` in it, and the app returns QUIT)."""

    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #main { height: 1fr; layout: vertical; }
    #board { height: auto; scrollbar-size-vertical: 1; }
    #board-view { width: auto; min-width: 100%; }
    #log {
        height: 1fr; min-height: 2; scrollbar-size-vertical: 1;
        border-top: solid $primary-darken-2;
    }
    #main.-wide { layout: horizontal; }
    #main.-wide #board { width: 1fr; height: 100%; }
    #main.-wide #log { height: 100%; border-top: none; border-left: solid $primary-darken-2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "help_key", "help"),
        Binding("question_mark,f1", "help", "help", show=False, priority=True),
        Binding("plus,equals_sign", "faster", "faster"),
        Binding("minus", "slower", "slower"),
        Binding("n", "skip", "next decision"),
        Binding("space", "pause", "pause"),
        Binding("q", "ask_to_leave", "quit"),
        Binding("ctrl+c", "quit_table", "quit", show=False, priority=True),
        Binding("escape", "drop_question", show=False),
        Binding("ctrl+z", "undo", "undo last entry", priority=True),
        Binding("pageup", "log_page(-1)", "scroll the log", show=False),
        Binding("pagedown", "log_page(1)", "scroll the log", show=False),
    ]

    def __init__(
        self,
        title: str,
        work: Callable[[Display], str],
        help: TableHelp,
        theme: str = "auto",
        *,
        books: bool = False,
    ) -> None:
        super().__init__()
        self.books = books  # keeping the books of a real table: Ctrl-Z withdraws an entry
        self.title = title
        self.work = work
        self.help = help
        self.theme = theme_name(theme)
        self.pacer = Pacer()
        self.answers: queue.Queue[str | Action | None] = queue.Queue()
        self.error: BaseException | None = None
        self._result: ResultScreen | None = None
        self._contrast = Contrast()
        self._here: Callable[[str], Text | None] | None = None
        self._then: RenderableType | None = None  # the board shown once the question is answered
        self._board: RenderableType = Text("")  # as the play loop drew it (full and compact)
        self._shown: RenderableType = self._board  # the drawing of it on the screen
        self._form = FULL  # the board's form the last layout chose (`layout.lay_out`)
        self._measured = -math.inf  # when the last layout was made
        self._heights: dict[tuple[int, int], tuple[RenderableType, int]] = {}  # see `board_lines`

    def compose(self) -> ComposeResult:
        with TableArea(id="main"):
            with VerticalScroll(id="board"):
                yield Static(id="board-view")
            yield GameLog()
        yield ChoicePanel()
        yield Footer()

    def on_mount(self) -> None:
        """The play loop on a daemon thread of its own, not a Textual worker: the app waits for
        its workers' threads as it ends, and a quit must not wait for work under way on the
        play loop's thread (a kernel's first compile takes seconds); the daemon ends with the
        process, and the game it played stands as it was when the person quit."""
        threading.Thread(target=self._play, name="horserace-table", daemon=True).start()
        self._leave_on_signals()

    def _leave_on_signals(self) -> None:
        """A closed terminal (SIGHUP) or a plain `kill` (SIGTERM) leaves the table as `q` does:
        the terminal is given back as it was (the main screen, no mouse reports, the cursor
        shown) and the command keeps the record and says how to resume. Only the main thread
        can take signals (a test's app runs elsewhere)."""
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is not None:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.add_signal_handler(number, self.action_quit_table)

    def on_unmount(self) -> None:
        """However the app ends, the play loop must not wait on a screen that is gone."""
        self._stop_play()

    def _play(self) -> None:
        try:
            outcome = self.work(AppBridge(self))
        except Stopped:
            return  # the person quit: the app is ending already
        except BaseException as error:  # raised again on the main thread by `play_on_screen`
            if self.pacer.stopped:  # the screen went away under a call to it
                return
            self.error, outcome = error, QUIT
        if not self.pacer.stopped:
            self.call_from_thread(self.exit, outcome)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """The boards' colours are fixed (a silk is navy whatever the background): each is
        moved away from the background where the two would blur."""
        self._contrast.background = Color.parse(self.current_theme.background or "black")
        return [*super().get_line_filters(), self._contrast]

    # --- layout ----------------------------------------------------------------------------------
    def on_resize(self, event: Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int | None = None, height: int | None = None) -> None:
        """Beside each other on a wide screen, else the board above the log; the lines shared
        out so that the whole board and the question show (`layout.lay_out`)."""
        width = self.size.width if width is None else width
        height = self.size.height if height is None else height
        wide = width >= WIDE
        self.query_one("#main").set_class(wide, "-wide")
        beside = log_columns(width) if wide else 0
        columns = width - beside - 1  # less the board's scrollbar
        panel = self.query_one(ChoicePanel)
        fitted = lay_out(
            height - 1,  # the footer's line
            [partial(self.board_lines, form, columns) for form in forms_of(self._board)],
            lambda options: panel.lines_needed(options, width),
            beside=wide,
        )
        self._measured = time.monotonic()
        self._form = fitted.form
        panel.list_at_most(fitted.options)
        log = self.query_one(GameLog)
        if fitted.log and not log.display:  # shown again: at its last line, as before
            log.call_after_refresh(log.scroll_end, animate=False)
        log.display = fitted.log
        log.styles.width = beside or None
        self.query_one("#board").styles.max_height = None if wide else fitted.board
        self._draw()

    def _draw(self) -> None:
        """The board drawn full or compact, as the last layout decided."""
        forms = forms_of(self._board)
        shown = forms[min(self._form, len(forms) - 1)]
        if shown is not self._shown:
            self._shown = shown
            self.query_one("#board-view", Static).update(shown)

    def board_lines(self, renderable: RenderableType, width: int) -> int:
        """The lines `renderable` takes at `width` columns: drawn once, then known (a board is
        laid out again as a question opens and closes over it, and at every resize)."""
        key = (id(renderable), width)
        known = self._heights.get(key)
        if known is not None and known[0] is renderable:
            return known[1]
        console = self.console
        lines = len(
            console.render_lines(renderable, console.options.update_width(width), pad=False)
        )
        if len(self._heights) >= HEIGHTS_KEPT:
            self._heights.clear()
        self._heights[key] = (renderable, lines)
        return lines

    # --- what the play loop asks for (always through call_from_thread) ---------------------------
    def show_board(self, renderable: RenderableType) -> None:
        """Laid out anew, unless the last layout is fresh: the bots' frames keep it a while
        (measuring a board costs as much as drawing it)."""
        self._board = renderable
        if time.monotonic() - self._measured < REMEASURE:
            self._draw()
        else:
            self.fit()

    def add_log(self, lines: list[RenderableType]) -> None:
        self.query_one(GameLog).add(lines)

    def clear_log(self) -> None:
        self.query_one(GameLog).forget()

    def open_question(self, question: str, default: str | None) -> None:
        self.query_one(ChoicePanel).open(question, default)
        self.fit()

    def present_choice(self, choice: Choice, then: RenderableType | None = None) -> None:
        self._then = then
        self.query_one(ChoicePanel).present(choice)
        self.fit()

    def on_choice_panel_chosen(self, message: ChoicePanel.Chosen) -> None:
        """The question goes; the board the play loop gave for this moment comes with it."""
        self.query_one(ChoicePanel).close()
        then, self._then = self._then, None
        if then is not None:
            self._board = then
        self.fit()
        self.answers.put(message.action)

    def tell(self, line: Text) -> None:
        self.query_one(GameLog).add([line])
        self.query_one(ChoicePanel).refuse(line)

    def show_result(self, title: str, body: RenderableType) -> None:
        """Over the board; not while the person types an answer the screen asked for itself
        (the result is in the log, and the keys must not go to it)."""
        if self._here is not None:
            return
        result = self._result = ResultScreen(title, body, self.pacer.release)
        self.call_after_refresh(self._push_result, result)

    def _push_result(self, result: ResultScreen) -> None:
        """Once the board as it stands is painted: pushed at once, a result's first frame
        (its words, before its frame) came out over the board as last painted, which at a
        shared keyboard still showed the hand of the person who had just answered, under
        the words passing the keyboard to the next."""
        if self._result is result:  # not closed meanwhile
            self.push_screen(result)

    def close_result(self) -> AwaitComplete | None:
        """Take the result off the screen; the play loop's thread waits until it is gone, so
        that nothing it draws next (a person's hand after the keyboard was passed) shows
        under it."""
        result, self._result = self._result, None
        if result is None or not result.is_current:
            return None
        return result.dismiss()

    def ask_here(self, question: str, answer: Callable[[str], Text | None]) -> None:
        """A question the screen answers itself, not the play loop (a replay's "go to race"):
        `answer` says why a text is refused, or None once it is taken. Esc drops it."""
        self._here = answer
        self.query_one(ChoicePanel).open(question, None)
        self.fit()

    def action_drop_question(self) -> None:
        if self._here is not None:
            self._here = None
            self.query_one(ChoicePanel).close()
            self.fit()

    def on_choice_panel_answered(self, message: ChoicePanel.Answered) -> None:
        panel = self.query_one(ChoicePanel)
        if self._here is not None:
            refusal = self._here(message.text)
            if refusal is not None:
                panel.refuse(refusal)
                return
            self._here = None
            panel.close()
            self.fit()
            return
        panel.close()
        self.fit()
        self.answers.put(message.text)

    # --- keys ------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Undo only where outcomes are typed in; the keys that are letters or signs (h, n, +,
        -, space) only while no question is open, wherever the focus is: any of them may be an
        answer (`n` declines a trade), so none acts on the table then (? and F1 open the help)."""
        if action == "undo":
            return self.books
        if action in ANSWER_KEYS:
            return not any(panel.has_class("-asking") for panel in self.query(ChoicePanel))
        return True

    def action_undo(self) -> None:
        """Withdraw the last outcome typed in: the open question answers `undo` (the play loop
        withdraws it as a new line of the record), as if the word were typed."""
        panel = self.query_one(ChoicePanel)
        if self._here is None and panel.choice is None and panel.has_class("-asking"):
            panel.close()
            self.fit()
            self.answers.put(UNDO_WORD)

    def action_log_page(self, way: int) -> None:
        """PageUp and PageDown scroll the log a page back or on, wherever the focus is (but a
        list of options, which pages itself): it keeps the whole game."""
        log = self.query_one(GameLog)
        if way < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_help_key(self) -> None:
        self.action_help()

    def action_help(self) -> None:
        """The help over the table, which waits meanwhile (unless it was paused already)."""
        if isinstance(self.screen, HelpScreen):
            return
        held = not self.pacer.paused
        if held:
            self.pacer.toggle_pause()

        def closed(_: None) -> None:
            if held and self.pacer.paused:
                self.pacer.toggle_pause()

        self.push_screen(HelpScreen(self.help.rules, self.help.odds()), closed)

    def action_faster(self) -> None:
        self.pacer.change(factor=self.pacer.factor / 2)
        self.notify(f"pace x{1 / self.pacer.factor:g}", timeout=1)

    def action_slower(self) -> None:
        self.pacer.change(factor=self.pacer.factor * 2)
        self.notify(f"pace x{1 / self.pacer.factor:g}", timeout=1)

    def action_skip(self) -> None:
        self.pacer.change(skip=True)

    def action_pause(self) -> None:
        """Pause or go on; the pause is said until the game goes on again."""
        paused = self.pacer.toggle_pause()
        self.clear_notifications()
        if paused:
            self.notify("paused: space goes on", timeout=PAUSE_NOTICE)
        else:
            self.notify("going on", timeout=1)

    def action_ask_to_leave(self) -> None:
        """q asks first (Ctrl-C leaves at once)."""
        if isinstance(self.screen, LeaveScreen):
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.action_quit_table()

        self.push_screen(LeaveScreen(), answered)

    def action_quit_table(self) -> None:
        """Leave at once, whatever the play loop's thread is doing (it stops at its next wait)."""
        self._stop_play()
        self.exit(QUIT)

    def _stop_play(self) -> None:
        self.pacer.stop()
        self.answers.put(None)


class AppBridge:
    """The `Display` the play loop's thread uses: boards drawn at most FRAME apart while the
    bots play on without pauses (the last one always shown), everything else at once."""

    def __init__(self, app: TableApp) -> None:
        self.app = app
        self.pacer = app.pacer
        self._drawn = 0.0
        self._pending: RenderableType | None = None
        self._lock = threading.Lock()  # the play loop's thread and the odds' thread draw

    def _call(self, callback: Callable[..., object], *args: object) -> None:
        self.pacer.check()
        self.app.call_from_thread(callback, *args)

    def board(self, renderable: RenderableType) -> None:
        with self._lock:
            if time.monotonic() - self._drawn < FRAME:
                self._pending = renderable
                return
            self._draw(renderable)

    def redraw(self, renderable: RenderableType) -> None:
        with self._lock:
            self._draw(renderable)

    def _draw(self, renderable: RenderableType) -> None:
        self._pending = None
        self._drawn = time.monotonic()
        self._call(self.app.show_board, renderable)

    def flush(self) -> None:
        with self._lock:
            if self._pending is not None:
                self._draw(self._pending)

    def log(self, lines: Sequence[RenderableType]) -> None:
        self._call(self.app.add_log, list(lines))

    def pause(self, seconds: float) -> None:
        self.flush()
        self.pacer.wait(seconds)

    def ask(self, question: str, default: str | None) -> str:
        return str(self._wait_for(self.app.open_question, question, default))

    def choose(self, choice: Choice, then: RenderableType | None = None) -> Action:
        action = self._wait_for(self.app.present_choice, choice, then)
        assert isinstance(action, Action)
        return action

    def _wait_for(self, ask: Callable[..., None], *args: object) -> str | Action:
        """Put a question on the screen and wait for its answer (the bots' pace resumes after)."""
        self.flush()
        self.pacer.change(skip=False)
        while not self.app.answers.empty():  # nothing answered before the question counts
            self.app.answers.get_nowait()
        self._call(ask, *args)
        answer = self.app.answers.get()
        if answer is None:
            raise Stopped
        return answer

    def tell(self, text: Text) -> None:
        self._call(self.app.tell, text)

    def clear(self) -> None:
        self._call(self.app.clear_log)

    def hold(self, title: str, body: RenderableType, *, until_enter: bool, seconds: float) -> None:
        self.flush()
        self._call(self.app.show_result, title, body)
        if until_enter:
            self.pacer.wait(math.inf, skippable=False)
        else:
            self.pacer.wait(seconds)
        self._call(self.app.close_result)
