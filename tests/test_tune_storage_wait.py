"""A study storage another program has locked (review b, finding 8): SQLite waits up to a
minute for the lock, and tune had said nothing meanwhile; a call that waits is said after a
few seconds."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from workbench.core.tuning.storage import open_storage, release, watch_waits

WAIT_S = 60.0  # a bound on waiting, not a timing assertion


def test_a_call_waiting_for_another_programs_lock_is_said(tmp_path: Path) -> None:
    db = tmp_path / "locked.db"
    storage = open_storage(f"sqlite:///{db}")
    said: list[str] = []
    heard = threading.Event()
    watch_waits(storage, str(db), lambda line: (said.append(line), heard.set()), after_s=0.2)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the file's lock
    done = threading.Event()
    errors: list[BaseException] = []

    def write() -> None:
        try:
            storage.create_new_study([optuna_direction()], "s")
        except BaseException as exc:  # reported by the test below
            errors.append(exc)
        finally:
            done.set()

    threading.Thread(target=write, daemon=True).start()
    try:
        assert heard.wait(WAIT_S), "no word while the write waited for the lock"
    finally:
        other.execute("ROLLBACK")  # the lock given back: the write goes through
        other.close()
    assert done.wait(WAIT_S) and not errors, errors
    assert said == [f"waiting for the study storage {db}: another program holds its lock "
                    "(SQLite waits up to 60 s, then tune stops, the trials stored kept)"]
    release(storage)


def optuna_direction():  # type: ignore[no-untyped-def]
    from optuna.study import StudyDirection

    return StudyDirection.MAXIMIZE
