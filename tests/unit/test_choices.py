"""The choice model a person answers: keys and words, never a default for Enter alone, a number
field with its limits, steps that narrow and go back, and a Rejection that says why."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from horserace.terminal.choices import (
    Choice,
    NumberField,
    Option,
    Rejection,
    lettered,
    over_a_quarter,
    resolve,
)
from horserace.terminal.plain import PlainPresenter, choice_lines, prompt_text


@dataclass(frozen=True)
class Act:
    name: str

    @property
    def text(self) -> str:
        return self.name


def test_a_key_a_text_or_another_name_picks_the_option() -> None:
    keep3, keep10 = Act("keep 3"), Act("keep 10")
    choice = Choice(
        0, "which card", (Option("10", "keep 10", keep10), Option("3", "keep 3", keep3))
    )
    assert resolve(choice, "3") == keep3  # the card 3, never the third option
    assert resolve(choice, " KEEP 10 ") == keep10
    assert resolve(choice, "1") == Rejection("'1' is not a choice here", choice.allowed())
    named = Choice(0, "wager", (Option("2", "wager $2", Act("wager 2"), names=("$2",)),))
    assert resolve(named, "$2") == Act("wager 2")


def test_enter_alone_chooses_nothing_not_even_no_bet() -> None:
    yes, no = Act("accept"), Act("decline")
    trade = Choice(0, "answer the trade", (Option("y", "accept", yes), Option("n", "decline", no)))
    rejected = resolve(trade, "   ")
    assert isinstance(rejected, Rejection) and "Enter alone chooses nothing" in rejected.rule
    assert "y: accept" in rejected.allowed and "n: decline" in rejected.allowed
    betting = Choice(0, "your bet", (Option("done", "no more bets", no),))
    assert isinstance(resolve(betting, ""), Rejection) and resolve(betting, "done") == no
    assert prompt_text(betting) == "your bet >"


def test_keys_are_unique_and_each_option_acts_or_leads_on() -> None:
    with pytest.raises(ValueError, match="share a key"):
        Choice(0, "q", (Option("a", "one", Act("x")), Option("A", "two", Act("y"))))
    with pytest.raises(ValueError, match="action or a next step"):
        Option("a", "neither")


def test_a_stake_over_a_quarter_of_ones_money_is_asked_again_in_every_step() -> None:
    """`100` typed for 10 at 150 chips: asked again; n goes back, y takes it; a quarter is fine."""
    field = NumberField("bid", 1, 150, lambda n: Act(f"bid {n}"))
    doubt = over_a_quarter(150, lambda a: int(a.text.split()[1]) if "bid" in a.text else None)
    bid = Choice(0, "the hearts are for sale", (Option("p", "pass", Act("pass")),), field=field)
    start = Choice(0, "which horse", (Option("h", "hearts", then=lambda: bid),), doubt=doubt)
    step = resolve(start, "h")
    assert isinstance(step, Choice) and step.doubt is doubt
    assert resolve(step, "37") == Act("bid 37") and resolve(step, "p") == Act("pass")
    sure = resolve(step, "100")
    assert isinstance(sure, Choice)
    assert sure.question == "bid 100 stakes 100 of your 150 chips, over a quarter: sure?"
    assert [o.key for o in sure.options] == ["y", "n"] and sure.doubt is None
    assert resolve(sure, "n") is step and resolve(sure, "<") is step
    assert resolve(sure, "y") == Act("bid 100")
    assert isinstance(resolve(sure, ""), Rejection)


def test_the_number_field_names_its_limits_and_reads_raises_over_the_standing_bid() -> None:
    field = NumberField("bid", 6, 40, lambda n: Act(f"bid {n}"), base=5, steps=(1, 5, 10))
    choice = Choice(0, "the hearts are for sale", (Option("p", "pass", Act("pass")),), field=field)
    assert resolve(choice, "12") == Act("bid 12")
    assert resolve(choice, "bid 7") == Act("bid 7")
    assert resolve(choice, "+5") == Act("bid 10") and resolve(choice, "+10") == Act("bid 15")
    over = resolve(choice, "41")
    assert isinstance(over, Rejection)
    assert over.rule == "41 is over the limit: a bid is at most 40 chips"
    assert over.allowed == "allowed: bid 6 to 40 chips (+1 = 6, +5 = 10, +10 = 15)"
    under = resolve(choice, "3")
    assert isinstance(under, Rejection) and "least bid allowed now (6)" in under.rule


def test_steps_narrow_go_back_and_a_step_with_one_answer_is_that_answer() -> None:
    gift = Act("offer 2: 6 for nothing")
    partner = Choice(0, "to whom", (Option("2", "P2", gift), Option("3", "P3", Act("offer 3"))))
    first = Choice(0, "give", (Option("6", "give 6", then=lambda: partner),))
    second = resolve(first, "6")
    assert isinstance(second, Choice) and second.question == "to whom"
    assert resolve(second, "<") == first
    assert resolve(second, "2") == gift
    single = Choice(0, "only", (Option("p", "pass", Act("pass")),))
    leave = Choice(0, "bid", (Option("p", "leave", then=lambda: single),))
    assert resolve(leave, "p") == Act("pass")


def test_free_typed_answers_are_read_and_their_errors_said() -> None:
    def read(text: str) -> Act | Rejection | None:
        if text.startswith("bet "):
            return Act(text) if text == "bet 3 h" else Rejection("the limit is 10 a race", "")
        return None

    choice = Choice(0, "bet", (Option("done", "done", Act("done")),), read=read, hint="bet N S")
    assert resolve(choice, "bet 3 H") == Act("bet 3 h")
    refused = resolve(choice, "bet 99 H")
    assert isinstance(refused, Rejection) and refused.rule == "the limit is 10 a race"
    assert refused.allowed.startswith("allowed: done: done") and "bet N S" in refused.allowed


def test_lettered_keys_prefer_their_own_and_never_a_reserved_letter() -> None:
    actions = [(Act("keep J"), "keep J"), (Act("pass"), "pass"), (Act("other"), "other")]
    keys = [
        option.key
        for option in lettered(
            actions,
            preferred=lambda a: {"keep J": "J", "pass": "p"}.get(a.text),
            reserved=("a", "j"),
        )
    ]
    assert keys == ["J", "p", "b"]


def test_the_plain_presenter_shows_keys_and_words_and_asks_again_after_a_rejection() -> None:
    import io

    from rich.console import Console

    buffer = io.StringIO()
    answers = iter(["", "x", "n"])
    presenter = PlainPresenter(Console(file=buffer, width=100), read=lambda prompt: next(answers))
    yes, no = Act("accept"), Act("decline")
    trade = Choice(0, "P2 offers 6 for 7", (Option("y", "accept", yes), Option("n", "decline", no)))
    assert choice_lines(trade) == ["  y: accept", "  n: decline"]
    assert presenter.ask(trade) == no
    out = buffer.getvalue()
    assert "Enter alone chooses nothing here" in out and "'x' is not a choice here" in out


def test_a_question_mark_in_plain_lines_shows_the_options_again_and_how_to_answer() -> None:
    import io

    from rich.console import Console

    buffer = io.StringIO()
    answers = iter(["?", "y"])
    presenter = PlainPresenter(Console(file=buffer, width=200), read=lambda prompt: next(answers))
    yes, no = Act("accept"), Act("decline")
    trade = Choice(0, "P2 offers 6 for 7", (Option("y", "accept", yes), Option("n", "decline", no)))
    assert presenter.ask(trade) == yes
    out = buffer.getvalue()
    assert out.count("  y: accept") == 2 and "not a choice" not in out
    assert "type a key above" in out and "Ctrl-C stops the game" in out
