"""A person with nothing to play but "pay" or "pass" is answered for by the table, after a
person's pause, exactly as if they had pressed it: nobody else can tell."""

from __future__ import annotations

from pathlib import Path

from tests.server.support import create_table, join, player_and_watcher, serving


def test_the_table_passes_for_a_person_holding_no_joker_and_others_cannot_tell(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "t.db", bot_delay=0.01) as client:
        table, _, _ = create_table(
            client, "advanced", ["open", "random", "random", "random"], {"rounds": 1}
        )
        seat, token = join(client, table, "Ann")
        assert seat == 0
        with player_and_watcher(client, table, 0, token) as (ann, watcher):
            asked: list[list[str]] = []
            version = -1

            def ann_or_end(message: dict[str, object]) -> bool:
                if message["type"] not in ("welcome", "update") or message["version"] <= version:  # type: ignore[operator]
                    return False
                return message["state"]["actor"] in (0, "terminal")  # type: ignore[index]

            while len(asked) < 400:
                state = (
                    ann.latest if ann.latest and ann_or_end(ann.latest) else ann.until(ann_or_end)
                )
                version = state["version"]
                if state["state"]["actor"] == "terminal":
                    break
                legal = state["state"]["legal"]
                asked.append(legal)
                if legal not in (["pass"], ["pay"]):  # Ann leaves those to the table
                    ann.send_act("roll" if "roll" in legal else legal[0], version)
            watcher.until(
                lambda m: m["type"] in ("welcome", "update") and m["state"]["actor"] == "terminal"
            )
            record = client.get(f"/api/tables/{table}/record")
    lines = record.text.splitlines()
    passes = [line for line in lines if '"actor": "0"' in line and '"action": "pass"' in line]
    assert passes, record.text[:600]  # the table passed for her: she never sent a pass
    updates = [m for m in watcher.received if m["type"] == "update"]
    assert updates and len({tuple(sorted(m)) for m in updates}) == 1  # one shape for all
