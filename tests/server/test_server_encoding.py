"""The one JSON encoder for views, and the seat tokens."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

import pytest

from horserace.core.chance import SeededChance
from horserace.drivers.server.jsonable import to_jsonable
from horserace.drivers.server.tokens import hash_token, new_table_id, new_token, token_matches
from horserace.families.board.rules.view import BoardView
from tests.helpers import new_game


class Colour(Enum):
    RED = "red"
    BLUE = 2


@dataclass(frozen=True)
class Inner:
    colour: Colour
    cells: frozenset[int]


@dataclass(frozen=True)
class Outer:
    name: str
    inner: Inner
    pairs: tuple[tuple[int, str], ...]
    maybe: Inner | None
    odds: Fraction
    table: dict[int, bool]

    @property
    def hidden(self) -> str:  # properties are not fields: they stay home
        return "secret"


def test_nested_dataclasses_enums_tuples_and_sets() -> None:
    value = Outer(
        name="x",
        inner=Inner(Colour.BLUE, frozenset({3, 1, 2})),
        pairs=((1, "a"), (2, "b")),
        maybe=None,
        odds=Fraction(2, 6),
        table={7: True},
    )
    assert to_jsonable(value) == {
        "name": "x",
        "inner": {"colour": 2, "cells": [1, 2, 3]},
        "pairs": [[1, "a"], [2, "b"]],
        "maybe": None,
        "odds": "1/3",
        "table": {"7": True},
    }
    assert to_jsonable(Colour.RED) == "red"
    assert to_jsonable(True) is True and to_jsonable(2.5) == 2.5


def test_unknown_objects_are_refused() -> None:
    with pytest.raises(TypeError):
        to_jsonable(object())
    with pytest.raises(TypeError):
        to_jsonable({(1, 2): 3})


def test_a_real_board_view_encodes_with_every_field() -> None:
    game = new_game({"players": 6, "open_hands": False}, seed=3)
    chance = SeededChance(3)
    for _ in range(20):
        game.apply(chance.choose(game.rules, game.state))
    view = game.rules.view(game.state, 2)
    assert isinstance(view, BoardView)
    encoded = to_jsonable(view)
    data: dict[str, Any] = json.loads(json.dumps(encoded))
    assert data == encoded
    assert data["phase"] == "deal" and data["board"]["name"] == "standard"
    assert [hand is None for hand in data["hands"]] == [True, True, False, True, True, True]
    assert data["config"]["scratch_values"] == [1, 2, 3, 4]


def test_tokens_are_long_random_and_checked_by_hash() -> None:
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50 and all(len(token) >= 43 for token in tokens)
    token = new_token()
    stored = hash_token(token)
    assert token not in stored and len(stored) == 64
    assert token_matches(token, stored)
    assert not token_matches(token[:-1] + ("A" if token[-1] != "A" else "B"), stored)
    assert not token_matches(None, stored) and not token_matches(token, None)
    assert new_table_id() != new_table_id()
