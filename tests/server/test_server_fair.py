"""Records anyone can check: the dice come from HMAC-SHA256 keyed by the server's committed
seed and the players' seeds (committed and revealed: test_server_commit_reveal.py); a
published record is a signed hash chain; `horserace verify` accepts it and rejects one that
was changed, cut short, spliced, re-signed by another key or made at another table, and
checks options, dice and standings even under a valid signature."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.drivers.cli.app import app
from horserace.drivers.server.fair import FairChance, fair_key, seed_hash, seed_matches
from horserace.drivers.server.records import check_published
from horserace.drivers.server.signing import ServerKey
from tests.server.support import (
    Player,
    TestClient,
    create_table,
    serving,
)

runner = CliRunner()
SEED = 4_242_424_242


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    """One server for the module (every table's seed SEED) and its database's path."""
    database = tmp_path_factory.mktemp("fair") / "t.db"
    with serving(database, seed=SEED) as client:
        yield client, database


@pytest.fixture(scope="module")
def finished(served: tuple[TestClient, Path]) -> tuple[str, str, str]:
    """A game of one round, played once for the tests that change or strip its record."""
    return _finished(served[0], ["random", "ev"])


def test_seed_hash_is_sha256_of_the_decimal_seed() -> None:
    assert seed_hash(0) == hashlib.sha256(b"0").hexdigest()
    assert seed_hash(SEED) == hashlib.sha256(b"4242424242").hexdigest()
    assert seed_matches(SEED, seed_hash(SEED).upper() + " ")
    assert not seed_matches(SEED + 1, seed_hash(SEED))


def test_the_fair_generator_is_exact_repeatable_and_keyed_by_every_seed() -> None:
    key = fair_key(SEED, {0: "ann's luck", 2: "bob"})
    assert key != fair_key(SEED, {0: "ann's luck", 2: "bob!"})
    assert key != fair_key(SEED + 1, {0: "ann's luck", 2: "bob"})
    first = FairChance(key)
    draws = [first.below(6) for _ in range(60_000)]
    again = FairChance(key)
    assert [again.below(6) for _ in range(60_000)] == draws
    counts = Counter(draws)
    # each face 10,000 times on average; 5 standard deviations is about 456
    assert all(abs(counts[face] - 10_000) < 456 for face in range(6)), counts
    chi_square = sum((counts[face] - 10_000) ** 2 / 10_000 for face in range(6))
    assert chi_square < 20.5  # the 0.1% point of chi-square with 5 degrees of freedom


def _finished(client: TestClient, seats: list[str], rounds: int = 1) -> tuple[str, str, str]:
    """(table id, the seed hash shown before play, the published record)."""
    table, _, summary = create_table(client, "classic", seats, {"rounds": rounds})
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        watcher = Player(ws)
        watcher.hello()
        watcher.until(lambda m: m.get("state", {}).get("status") == "over")
    record = client.get(f"/api/tables/{table}/record")
    assert record.status_code == 200
    return table, str(summary["seed_hash"]), record.text


def _verify(tmp_path: Path, text: str, *options: str) -> Any:
    path = tmp_path / "check.jsonl"
    path.write_text(text)
    return runner.invoke(app, ["verify", str(path), *options])


def _rows(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def _text(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)


def _other_roll(action: str) -> str:
    """Another possible roll of two dice, written as the record writes them (low+high)."""
    low, high = (int(x) for x in action.split("+"))
    return f"{low % 6 + 1}+{high}" if low % 6 + 1 <= high else f"{low}+{high % 6 + 1}"


def _resigned(key: ServerKey, rows: list[dict[str, Any]]) -> str:
    bare = [{k: v for k, v in row.items() if k not in ("chain", "signature")} for row in rows]
    return _text(key.sign(bare))


def test_a_published_record_verifies_with_the_servers_key(
    tmp_path: Path, served: tuple[TestClient, Path]
) -> None:
    client = served[0]
    table, published, record = _finished(client, ["random", "ev"], rounds=2)
    key = client.get("/api/server-key").json()["server_key"]
    page = client.get(f"/api/tables/{table}/verify").json()
    assert page["verified"] and page["server_key"] == key and page["draws"] > 40
    header = _rows(record)[0]
    assert header["table"] == table and header["seed_hash"] == published
    assert header["chance"] == "fair" and header["server_key"] == key
    result = _verify(tmp_path, record, "--key", key, "--table", table, "--seed-hash", published)
    assert result.exit_code == 0, result.output
    assert "verified" in result.output and table in result.output
    assert "--key" in _verify(tmp_path, record).output  # no key given: compare it yourself
    wrong = _verify(tmp_path, record, "--seed-hash", seed_hash(SEED + 1))
    assert wrong.exit_code == 1 and "published SHA-256" in wrong.output


def test_a_record_checks_by_the_recipe_docs_server_md_gives(finished: tuple[str, str, str]) -> None:
    """Anyone can check a record without horserace: each line's `chain` is the SHA-256 of
    the previous line's chain, a newline and the line's canonical JSON (the first line's
    previous chain the SHA-256 of "horserace signed record"); the last line signs
    `horserace-record:CHAIN_END:LINES` with the key the header names."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    rows = _rows(finished[2])
    chain = hashlib.sha256(b"horserace signed record").hexdigest()
    for row in rows:
        body = {k: v for k, v in row.items() if k not in ("chain", "signature")}
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
        chain = hashlib.sha256(f"{chain}\n{canonical}".encode()).hexdigest()
        assert row["chain"] == chain
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(rows[0]["server_key"]))
    message = f"horserace-record:{chain}:{len(rows)}".encode()
    key.verify(bytes.fromhex(rows[-1]["signature"]), message)  # raises if it does not hold


def test_changed_cut_spliced_foreign_and_re_signed_records_are_rejected(
    tmp_path: Path, served: tuple[TestClient, Path], finished: tuple[str, str, str]
) -> None:
    client = served[0]
    table, _, record = finished
    other, _, other_record = _finished(client, ["ev", "random"])
    key = client.get("/api/server-key").json()["server_key"]
    rows, others = _rows(record), _rows(other_record)

    def refused(text: str, reason: str, *options: str) -> None:
        result = _verify(tmp_path, text, "--key", key, *options)
        assert result.exit_code == 1, result.output
        assert reason in " ".join(result.output.split()), result.output

    rolls = [i for i, row in enumerate(rows) if row.get("action", "").count("+") == 1]
    changed = [dict(row) for row in rows]
    changed[rolls[3]]["action"] = _other_roll(changed[rolls[3]]["action"])
    refused(_text(changed), f"line {rolls[3] + 1}: the hash chain breaks")
    refused(_text(rows[:-1]), "cut short")
    refused(_text(rows[:5]), "cut short")
    refused(_text(rows[:3] + rows[4:]), "line 4: the hash chain breaks")
    refused(_text(rows[:10] + others[10:]), "line 11: the hash chain breaks")
    refused(other_record, f"of table {other}, not {table}", "--table", table)
    impostor = ServerKey.generate()
    refused(_resigned(impostor, changed), "the signature does not match")  # claims our key
    own = [dict(row) for row in changed]
    own[0]["server_key"] = impostor.public_hex
    refused(_resigned(impostor, own), "another server's key")


def test_a_valid_signature_does_not_excuse_wrong_dice_options_or_standings(
    served: tuple[TestClient, Path], finished: tuple[str, str, str]
) -> None:
    """Even the server's own key cannot make a wrong record verify."""
    record = finished[2]
    server = ServerKey.load_or_create(str(served[1]) + ".key")
    rows = _rows(record)
    assert check_published(_resigned(server, rows), server_key=server.public_hex).verified
    rolls = [i for i, row in enumerate(rows) if row.get("action", "").count("+") == 1]
    dice = [dict(row) for row in rows]
    dice[rolls[0]]["action"] = _other_roll(dice[rolls[0]]["action"])
    found = check_published(_resigned(server, dice))
    assert not found.verified and found.problems[0].startswith(f"step {rolls[0] - 1} "), found
    seeds = [dict(row) for row in rows]
    seeds[0]["player_seeds"] = {"0": "a seed nobody added"}
    seeds[0]["commitments"] = {"0": hashlib.sha256(b"a seed nobody added").hexdigest()}
    found = check_published(_resigned(server, seeds))
    assert not found.verified and "the dice give" in found.problems[0], found.problems
    standings = [dict(row) for row in rows]
    standings[-1]["result"] = {**standings[-1]["result"], "winners": [9]}
    found = check_published(_resigned(server, standings))
    assert not found.verified and "result differs" in found.problems[0], found.problems
    options = [dict(row) for row in rows]
    options[0]["config"] = {**options[0]["config"], "rounds": 7}
    assert not check_published(_resigned(server, options)).verified
    loose = [dict(row) for row in rows]
    loose[0]["config"] = {k: v for k, v in loose[0]["config"].items() if k != "rounds"}
    found = check_published(_resigned(server, loose))
    assert not found.verified and "options" in found.problems[0], found.problems


def test_an_old_unsigned_record_is_not_verified(
    tmp_path: Path, finished: tuple[str, str, str]
) -> None:
    rows = _rows(finished[2])
    bare = [{k: v for k, v in row.items() if k not in ("chain", "signature")} for row in rows]
    bare[0] = {
        k: v for k, v in bare[0].items() if k in ("format", "version", "preset", "config", "seed")
    }
    bare[0]["chance"] = "seeded"
    result = _verify(tmp_path, _text(bare))
    assert result.exit_code == 1 and "not signed" in " ".join(result.output.split())
    broken = _verify(tmp_path, "not a record\n")
    assert broken.exit_code == 2 and "error:" in broken.output


def test_verify_says_a_game_played_at_the_terminal_was_published_by_no_server(
    tmp_path: Path,
) -> None:
    """`play --record` keeps an unsigned record: verify checks its dice and says it is not one
    a server published (it called every unsigned record an older server's)."""
    record = tmp_path / "game.jsonl"
    game = ["play", "classic", "--players", "2", "--rounds", "1", "--seed", "3", "--plain"]
    played = runner.invoke(
        app, [*game, "--record", str(record)], env={"XDG_STATE_HOME": str(tmp_path)}
    )
    assert played.exit_code == 0, played.output
    checked = runner.invoke(app, ["verify", str(record)])
    words = " ".join(checked.output.split())
    assert checked.exit_code == 1 and "not one a server published" in words, words
    assert "nothing shows that it is whole" in words  # its dice are right, its origin unknown


def test_a_lobby_line_holds_the_fields_docs_server_md_names(
    served: tuple[TestClient, Path], finished: tuple[str, str, str]
) -> None:
    """GET /api/tables gives each table's lobby line with the fields the page lists, and no
    other (its options are `config`: the page said `options`, and left out eight more)."""
    lines = served[0].get("/api/tables", params={"status": "finished"}).json()
    line = next(found for found in lines if found["id"] == finished[0])
    page = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text()
    listed = page.split("Each: ", 1)[1].split(" |", 1)[0]
    named = [word.strip("`") for word in re.findall(r"`[a-z_]+`", listed)]
    assert sorted(named) == sorted(line), (sorted(named), sorted(line))  # each, and no other
    assert line["seed"] is not None and line["config"]["players"] == 2
