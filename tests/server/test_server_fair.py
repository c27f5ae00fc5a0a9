"""Fair dice you can check: the seed is committed to by its SHA-256 before play and revealed at
the end; `horserace verify` accepts the published record and rejects a tampered one."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from typer.testing import CliRunner

from horserace.cli.app import app
from horserace.server.fair import seed_hash, seed_matches
from tests.server.support import Player, create_table, serving

runner = CliRunner()
SEED = 4_242_424_242


def test_seed_hash_is_sha256_of_the_decimal_seed() -> None:
    assert seed_hash(0) == hashlib.sha256(b"0").hexdigest()
    assert seed_hash(SEED) == hashlib.sha256(b"4242424242").hexdigest()
    assert seed_matches(SEED, seed_hash(SEED).upper() + " ")
    assert not seed_matches(SEED + 1, seed_hash(SEED))


def _finished_bot_table(tmp_path: Path) -> tuple[str, str, dict[str, object]]:
    """(the published hash before play, the record, the lobby's final line)."""
    with serving(tmp_path / "t.db", seed=SEED) as client:
        table, _, summary = create_table(client, "classic", ["random", "ev"], {"rounds": 2})
        published = str(summary["seed_hash"])
        assert summary["seed"] is None
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Player(ws)
            watcher.hello()
            watcher.until(lambda m: m.get("state", {}).get("status") == "over")
        assert watcher.latest is not None and watcher.latest["state"]["seed"] == str(SEED)
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        final = client.get(f"/api/tables/{table}").json()
    return published, record.text, final


def test_the_revealed_seed_hashes_to_the_published_hash_and_verifies(tmp_path: Path) -> None:
    published, record, final = _finished_bot_table(tmp_path)
    assert final["status"] == "over" and final["seed"] == str(SEED)
    assert hashlib.sha256(str(final["seed"]).encode()).hexdigest() == published
    path = tmp_path / "record.jsonl"
    path.write_text(record)
    result = runner.invoke(app, ["verify", str(path), "--seed-hash", published])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output and "matches the published hash" in result.output
    wrong = runner.invoke(app, ["verify", str(path), "--seed-hash", seed_hash(SEED + 1)])
    assert wrong.exit_code == 1 and "does not hash" in wrong.output


def test_verify_rejects_a_changed_roll_and_a_changed_seed(tmp_path: Path) -> None:
    published, record, _ = _finished_bot_table(tmp_path)
    lines = [json.loads(line) for line in record.splitlines()]
    rolls = [i for i, row in enumerate(lines) if row.get("action", "").count("+") == 1]
    assert rolls
    target = lines[rolls[-1]]
    low, high = (int(x) for x in target["action"].split("+"))
    target["action"] = f"{low % 6 + 1}+{high}" if low % 6 + 1 <= high else f"{low}+{high % 6 + 1}"
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(row) + "\n" for row in lines))
    result = runner.invoke(app, ["verify", str(tampered), "--seed-hash", published])
    assert result.exit_code == 1 and "not verified" in result.output
    header = json.loads(record.splitlines()[0])
    header["seed"] = SEED + 1
    reseeded = tmp_path / "reseeded.jsonl"
    reseeded.write_text(json.dumps(header) + "\n" + "".join(record.splitlines(True)[1:]))
    result = runner.invoke(app, ["verify", str(reseeded)])
    assert result.exit_code == 1 and "the seed gives" in result.output
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not a record\n")
    assert runner.invoke(app, ["verify", str(broken)]).exit_code == 2


def test_verify_refuses_a_record_without_a_seed(tmp_path: Path) -> None:
    _, record, _ = _finished_bot_table(tmp_path)
    header = json.loads(record.splitlines()[0])
    header["chance"] = "typed"
    typed = tmp_path / "typed.jsonl"
    typed.write_text(json.dumps(header) + "\n" + "".join(record.splitlines(True)[1:]))
    result = runner.invoke(app, ["verify", str(typed)])
    assert result.exit_code == 1 and "not drawn from a seed" in result.output


def test_the_page_verify_link_checks_a_finished_table_and_refuses_a_running_one(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "v.db", seed=SEED) as client:
        waiting, _, _ = create_table(client, "classic", ["open", "ev"], {"rounds": 1})
        assert client.get(f"/api/tables/{waiting}/verify").status_code == 409
        table, _, summary = create_table(client, "classic", ["random", "ev"], {"rounds": 1})
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Player(ws)
            watcher.hello()
            watcher.until(lambda m: m.get("state", {}).get("status") == "over")
        answer = client.get(f"/api/tables/{table}/verify").json()
    assert answer["verified"] is True and answer["problems"] == []
    assert answer["seed_hash"] == summary["seed_hash"] and answer["draws"] > 40
