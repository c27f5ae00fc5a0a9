"""Records anyone can check: the dice come from HMAC-SHA256 keyed by the server's committed
seed and the players' seeds; a published record is a signed hash chain; `horserace verify`
accepts it and rejects one that was changed, cut short, spliced, re-signed by another key or
made at another table, and checks options, dice and standings even under a valid signature."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from horserace.cli.app import app
from horserace.server.fair import FairChance, fair_key, seed_hash, seed_matches
from horserace.server.records import check_published
from horserace.server.signing import ServerKey
from tests.server.support import (
    Message,
    Player,
    TestClient,
    create_table,
    join,
    player_and_watcher,
    serving,
)

runner = CliRunner()
SEED = 4_242_424_242


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


def test_a_published_record_verifies_with_the_servers_key(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db", seed=SEED) as client:
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


def test_changed_cut_spliced_foreign_and_re_signed_records_are_rejected(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db", seed=SEED) as client:
        table, _, record = _finished(client, ["random", "ev"])
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
    tmp_path: Path,
) -> None:
    """Even the server's own key cannot make a wrong record verify."""
    with serving(tmp_path / "t.db", seed=SEED) as client:
        _, _, record = _finished(client, ["random", "ev"])
    server = ServerKey.load_or_create(str(tmp_path / "t.db") + ".key")
    rows = _rows(record)
    assert check_published(_resigned(server, rows), server_key=server.public_hex).verified
    rolls = [i for i, row in enumerate(rows) if row.get("action", "").count("+") == 1]
    dice = [dict(row) for row in rows]
    dice[rolls[0]]["action"] = _other_roll(dice[rolls[0]]["action"])
    found = check_published(_resigned(server, dice))
    assert not found.verified and found.problems[0].startswith(f"step {rolls[0] - 1} "), found
    seeds = [dict(row) for row in rows]
    seeds[0]["player_seeds"] = {"0": "a seed nobody added"}
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


def test_players_seeds_key_the_dice_and_are_published(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db", seed=SEED) as client:
        table, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        joined = client.post(f"/api/tables/{table}/join", json={"name": "Ann", "seed": "lucky 7"})
        assert joined.status_code == 200
        refused = client.post(f"/api/tables/{table}/join", json={"name": "Bo", "seed": "é" * 3})
        assert refused.status_code == 422
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=joined.json()["token"])
            ann.play_to_the_end()
        record = client.get(f"/api/tables/{table}/record").text
    header = _rows(record)[0]
    assert header["player_seeds"] == {"0": "lucky 7"}
    assert check_published(record, table=table).verified


def test_an_old_unsigned_record_is_not_verified(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db", seed=SEED) as client:
        _, _, record = _finished(client, ["random", "ev"])
    rows = _rows(record)
    bare = [{k: v for k, v in row.items() if k not in ("chain", "signature")} for row in rows]
    bare[0] = {
        k: v for k, v in bare[0].items() if k in ("format", "version", "preset", "config", "seed")
    }
    bare[0]["chance"] = "seeded"
    result = _verify(tmp_path, _text(bare))
    assert result.exit_code == 1 and "not signed" in " ".join(result.output.split())
    broken = _verify(tmp_path, "not a record\n")
    assert broken.exit_code == 2 and "error:" in broken.output


def _seed_reply(player: Player, seed: str) -> Message:
    player.send_json({"type": "seed", "seed": seed})
    return player.until(lambda m: m["type"] in ("seeded", "error"))


def test_a_seated_player_adds_a_seed_over_the_socket_before_play(tmp_path: Path) -> None:
    """The `seed` message: only from a seat, only before play, answered with its hash, told
    to nobody else; the published record holds it, it keys the dice, and the record verifies."""
    records = []
    with serving(tmp_path / "t.db", seed=SEED) as client:
        for seed in ("socket seed", None):
            table, host, _ = create_table(client, "classic", ["open", "open"], {"rounds": 1})
            _, token = join(client, table, "Ann")
            with player_and_watcher(client, table, 0, token) as (ann, watcher):
                if seed is not None:
                    assert _seed_reply(watcher, "mine")["code"] == "not-seated"
                    assert _seed_reply(ann, "é")["code"] == "bad-message"
                    assert _seed_reply(ann, "first thought")["type"] == "seeded"
                    digest = hashlib.sha256(seed.encode()).hexdigest()
                    assert _seed_reply(ann, seed) == {
                        "type": "seeded",
                        "seat": 0,
                        "seed_hash": digest,
                    }
                started = client.post(
                    f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {host}"}
                )
                assert started.status_code == 200
                assert _seed_reply(ann, "too late")["code"] == "illegal"
                ann.play_to_the_end()
                watcher.until(lambda m: m.get("state", {}).get("status") == "over")
                assert not any("socket seed" in json.dumps(m) for m in watcher.received)
            records.append(client.get(f"/api/tables/{table}/record").text)
    seeded, plain = (_rows(record) for record in records)
    assert seeded[0]["player_seeds"] == {"0": "socket seed"} and plain[0]["player_seeds"] == {}
    assert check_published(records[0]).verified and check_published(records[1]).verified
    dice = [
        [row["action"] for row in rows if row.get("actor") == "chance"] for rows in (seeded, plain)
    ]
    assert dice[0][:20] != dice[1][:20]  # the same server seed: the player's seed moved them
