"""Where drivers get a bot for any family: `make_bot(kind, seed, family)`. Each family lists and
builds its own bots (`horserace.families`); this is the drivers' door to them."""

from __future__ import annotations

from horserace.families import bot_kinds_of, make_bot, parse_bots

__all__ = ["bot_kinds_of", "make_bot", "parse_bots"]
