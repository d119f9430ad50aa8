"""Where studies live: optuna's own storages, and the in-memory working copy of one.

An SQLite file is the default (embedded; `--storage study.db`); a `postgresql://` URL lets
many `workbench tune` processes, on one machine or many, share a study through the database; a
file ending .log is optuna's journal storage (embedded too, append-only, many local processes,
and far cheaper per trial than SQLite when a study tunes many parameters).

One process alone on a study works on an in-memory copy (`Handle.mirror`): optuna's RDB storage
costs about 30 ms of SQL per trial of a few parameters (hundreds with 35), more than the trial
itself, while an in-memory study costs under 1 ms. Every finished trial is written through to
the stored study at once (`add_trial`, one write), so an interrupted run loses nothing and a
new run continues from the stored trials, with the same numbers. Shared studies (`--workers`,
PostgreSQL) are used directly.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import FrozenTrial, TrialState

from workbench.core.params import ParamError, ParamValue
from workbench.core.tuning.objectives import direction
from workbench.core.tuning.space import SearchSpace

_READY = "workbench_grid_ready"
_CONFIG = "workbench_config"
_WAIT_FOR_GRID_S = 120.0
_OPEN_ATTEMPTS = 5
FINISHED = (TrialState.COMPLETE, TrialState.FAIL, TrialState.PRUNED)


@dataclass
class Handle:
    """The study a trial loop works on (`work`) and the stored one (`stored`); they are the
    same object unless `mirror`."""

    work: optuna.Study
    stored: optuna.Study
    mirror: bool

    def record(self, trial: FrozenTrial) -> None:
        """Write a finished trial of the working copy through to storage."""
        if self.mirror:
            self.stored.add_trial(trial)


JOURNAL_SUFFIXES = (".log", ".journal", ".jsonl")


def storage_url(spec: str | None, default: Path) -> str:
    """A path or an SQLAlchemy URL → a URL; `postgresql://` is given the psycopg 3 driver; a
    file ending .log/.journal is optuna's journal file (`journal:///path`), any other file an
    SQLite database."""
    if not spec:
        try:
            default.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a cache folder that is a file, or read-only
            raise ParamError(f"cannot keep studies in {default.parent} ({exc.strerror}): give "
                             "--storage FILE, or set WORKBENCH_CACHE_DIR") from None
        return f"sqlite:///{default.resolve()}"
    if spec.startswith(("postgresql://", "postgres://")):
        hint = _at_hint(spec)
        if hint:  # read as a host ("ss@127.0.0.1"): part of the password in the error
            raise ParamError(f"--storage {shown_url(spec)}: {hint}")
        return "postgresql+psycopg://" + spec.split("://", 1)[1]
    if "://" in spec:
        return spec
    try:
        path = Path(spec).expanduser()
    except RuntimeError:  # ~user with no such user: said, not "Could not determine home …"
        raise ParamError(f"--storage {spec}: no such user's home folder") from None
    if path.is_dir():
        raise ParamError(f"--storage {spec}: is a folder; give a file such as study.db")
    if not path.parent.is_dir():
        raise ParamError(f"--storage {spec}: folder {path.parent} does not exist")
    if path.suffix.lower() in JOURNAL_SUFFIXES:
        return f"journal:///{path.resolve()}"
    return f"sqlite:///{path.resolve()}"


def storage_file(url: str) -> Path | None:
    """The file an SQLite or journal URL names (an SQLite path relative to the current folder,
    as SQLAlchemy reads it, without its ?query); None for a server or an in-memory SQLite."""
    if url.startswith("journal:///"):
        return Path("/" + url[len("journal:///"):].lstrip("/"))
    if url.startswith("sqlite"):
        from sqlalchemy.engine import make_url

        try:
            database = make_url(url).database
        except Exception:  # a URL SQLAlchemy cannot read: open_storage says so
            return None
        if not database or database == ":memory:" or database.startswith("file:"):
            return None
        return Path(database).resolve()
    return None


CONNECT_TIMEOUT_S = 15  # a database server that does not answer: given up after this long
HEARTBEAT_S = 20  # a running trial records that it is alive this often (`ALIVE`) …
GRACE_S = 120  # … and, on a server, is failed as a killed process's when silent this long

_CLOCK_SQL = {  # the database server's clock, seconds since the epoch
    "postgresql": "SELECT EXTRACT(EPOCH FROM clock_timestamp())",
    "mysql": "SELECT UNIX_TIMESTAMP(NOW(6))",
    "mariadb": "SELECT UNIX_TIMESTAMP(NOW(6))",
}


def server_clock(storage: Any) -> float | None:
    """Seconds since the epoch by the clock of the database server a storage is on, or None
    for a file (SQLite, journal: one machine's clock) or a server whose clock it cannot read.
    A trial's `ALIVE`, stamped and read by this clock, needs no agreement between the
    clocks of the machines sharing a study."""
    backend = getattr(storage, "_backend", storage)  # optuna's cache around an RDBStorage
    engine = getattr(backend, "engine", None)
    sql = _CLOCK_SQL.get(getattr(getattr(engine, "dialect", None), "name", ""))
    if engine is None or sql is None:
        return None
    from sqlalchemy import text

    try:
        with engine.connect() as conn:
            return float(conn.execute(text(sql)).scalar_one())
    except Exception:  # a lost connection: the caller falls back or tries again
        return None


def release(storage: Any) -> None:
    """Close a database storage's pooled connections: a run in the window keeps its studies
    (its outcome) while the window stays open, and each run held its connections to the
    server till then. Reading the studies again opens new ones."""
    backend = getattr(storage, "_backend", storage)
    engine = getattr(backend, "engine", None)
    if engine is not None:
        with contextlib.suppress(Exception):
            engine.dispose()


def on_server(storage: Any) -> bool:
    """Whether the storage is a database server's (not a file's)."""
    backend = getattr(storage, "_backend", storage)
    engine = getattr(backend, "engine", None)
    name = getattr(getattr(engine, "dialect", None), "name", "")
    return bool(name) and name != "sqlite"


def clock(storage: Any) -> float | None:
    """Now by the clock the storage's trials are stamped with: the database server's
    (`server_clock`; None while it cannot be read — never this machine's instead, which
    may disagree with it), else this machine's."""
    if on_server(storage):
        return server_clock(storage)
    return time.time()


def open_storage(url: str) -> optuna.storages.BaseStorage:
    if url.startswith("journal:///"):
        # optuna's append-only journal: ~5 ms to store a trial of 35 parameters where its
        # SQLite storage takes ~200 ms (bench --tune), safe for several local processes
        from optuna.storages.journal import JournalFileBackend

        path = "/" + url[len("journal://"):].lstrip("/")
        check_journal(Path(path))  # before optuna appends to it
        try:
            return optuna.storages.JournalStorage(JournalFileBackend(path))
        except OSError as exc:
            raise ParamError(f"cannot open study storage {path}: {exc.strerror}") from None
        except (KeyError, AssertionError, TypeError, ValueError, AttributeError,
                IndexError) as exc:  # optuna's replay met a record it cannot apply
            what = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            raise ParamError(f"study storage {path}: optuna cannot replay this journal "
                             f"({what.rstrip(': ')}) — a damaged file, or one another optuna "
                             "version wrote; the file is left as it is: move it aside, or "
                             "give another --storage") from None
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        # several local workers wait for SQLite's lock instead of failing at once
        kwargs = {"connect_args": {"timeout": SQLITE_WAIT_S}}
        _refuse_foreign(url)
    elif url.startswith(("postgresql://", "postgresql+psycopg://", "postgresql+psycopg2://")) \
            and "connect_timeout" not in url:  # libpq's option (pg8000 names it otherwise)
        # a server that takes the connection and never answers: said after this long (tune
        # hung with no word until killed)
        kwargs = {"connect_args": {"connect_timeout": CONNECT_TIMEOUT_S}}
    for attempt in range(_OPEN_ATTEMPTS):
        try:
            storage = optuna.storages.RDBStorage(url, engine_kwargs=kwargs)
            break
        except Exception as exc:  # a bad URL or an unreachable server: one line
            # workers starting together race to create the tables: the loser tries again
            if attempt + 1 == _OPEN_ATTEMPTS or not _lost_a_race(exc):
                _refuse_damaged(url)
                refuse_read_only(url)
                cause = exc.__cause__ or exc
                raise ParamError(f"cannot open study storage {shown_url(url)}: "
                                 f"{str(cause).splitlines()[0]}") from None
            time.sleep(0.5 * (attempt + 1))
    if url.startswith("sqlite"):
        _fast_sqlite(storage)
        if _say_wait[0] is not None:
            watch_waits(storage, url[len("sqlite:///"):], _say_wait[0])
    _index_param_names(storage)
    return storage


SQLITE_WAIT_S = 60  # how long a write waits for another program's lock on an SQLite file
WAIT_NOTICE_S = 5.0  # a storage call this long is waiting for it: said
_say_wait: list[Callable[[str], None] | None] = [None]


def say_waits(say: Callable[[str], None] | None) -> None:
    """Have every SQLite storage opened from now on tell `say` when one of its calls has
    waited `WAIT_NOTICE_S` (another program holds the file's lock: tune went silent for the
    minute SQLite waits, then failed). The command line prints it; None stops it."""
    _say_wait[0] = say


def watch_waits(storage: Any, path: str, say: Callable[[str], None],
                after_s: float = WAIT_NOTICE_S) -> None:
    """`say` a line once a call on `storage` (a connection taken from the pool and not yet
    given back: optuna holds one for each call) has run `after_s`; once a wait, not again
    until the call ends. A call's own work on a small file takes milliseconds: a long one
    waits for a lock. One watching thread serves every storage watched."""
    from sqlalchemy import event

    def taken(_conn: Any, record: Any, _proxy: Any) -> None:
        with _waits.guard:
            _waits.busy[id(record)] = (time.monotonic(), after_s, path, say)

    def given_back(_conn: Any, record: Any) -> None:
        with _waits.guard:
            _waits.busy.pop(id(record), None)
            _waits.said.discard(id(record))

    event.listen(storage.engine, "checkout", taken)
    event.listen(storage.engine, "checkin", given_back)
    _waits.start()


class _Waits:
    """The storage calls under way, for `watch_waits`' one thread."""

    def __init__(self) -> None:
        import threading

        self.guard = threading.Lock()
        self.busy: dict[int, tuple[float, float, str, Callable[[str], None]]] = {}
        self.said: set[int] = set()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        import threading

        with self.guard:
            if self.thread is None:
                self.thread = threading.Thread(target=self.watch, name="storage-waits",
                                               daemon=True)
                self.thread.start()

    def watch(self) -> None:
        while True:
            time.sleep(0.1)
            now = time.monotonic()
            with self.guard:
                late = [(k, path, say) for k, (t, after, path, say) in self.busy.items()
                        if now - t >= after and k not in self.said]
                self.said.update(k for k, _, _ in late)
            for _, path, say in late:
                say(f"waiting for the study storage {path}: another program holds its lock "
                    f"(SQLite waits up to {SQLITE_WAIT_S} s, then tune stops, the trials "
                    "stored kept)")


_waits = _Waits()


def check_journal(path: Path, *, settle_s: float = 0.5) -> None:
    """A journal file optuna can replay: every line one JSON record with an `op_code`. A
    line cut off (a run killed mid-write, a full disk) or another file made optuna fail with
    a traceback after it had appended to the file, gluing the new record onto the broken
    line; it is refused here, naming the line, and left as it is. A last line without its
    newline may be a record another worker is writing this moment: looked at again after
    `settle_s` before it counts as cut off."""
    if not path.is_file():
        return
    try:
        _check_journal_lines(path)
    except ParamError:
        if path.read_bytes().endswith(b"\n"):
            raise
        time.sleep(settle_s)  # a record being appended ends with its newline by then
        _check_journal_lines(path)


def _check_journal_lines(path: Path) -> None:
    try:
        with path.open("rb") as f:
            whole = 0  # bytes of the lines read so far that are whole records
            for n, raw in enumerate(f, 1):
                if not raw.endswith(b"\n"):  # the last line, without its newline
                    _refuse_cut_tail(path, n, whole, raw)
                if not raw.strip():
                    whole += len(raw)
                    continue
                why = ""
                try:
                    record = json.loads(raw)
                    if not isinstance(record, dict) or "op_code" not in record:
                        why = "a JSON line without op_code"
                except (ValueError, RecursionError):
                    why = "cut off or damaged" if raw.startswith(b"{") else "not JSON"
                if why:
                    raise ParamError(f"{path}:{n}: not an optuna journal record ({why}); "
                                     "the file is left as it is: move it aside, or give "
                                     "another --storage")
                whole += len(raw)
    except OSError as exc:
        raise ParamError(f"cannot open study storage {path}: {exc.strerror}") from None


def _refuse_cut_tail(path: Path, n: int, whole: int, raw: bytes) -> None:
    """A last line without its newline, still so after the settle wait (check_journal): cut
    off by a full disk or a killed writer (part of a record, or the zeros a crash leaves), or
    a whole record whose newline never came — optuna would append the next record onto it.
    The exact command that mends it is said; the file is left as it is."""
    import shlex

    if not raw.strip(b"\0 \t\r"):
        raw = b""
    try:
        record = json.loads(raw) if raw else None
    except ValueError:
        record = None
    quoted = shlex.quote(str(path))
    if isinstance(record, dict) and "op_code" in record:
        raise ParamError(f"{path}:{n}: the last record has no newline after it (a writer "
                         "stopped before it), and the next would be glued onto it. The file "
                         f"is left as it is: `printf '\\n' >> {quoted}` completes it, or move "
                         "the file aside, or give another --storage")
    raise ParamError(f"{path}:{n}: the last line is cut off (a full disk, or a process killed "
                     f"while writing); the {n - 1} records before it are whole. The file is "
                     f"left as it is: `truncate -s {whole} {quoted}` removes the cut line and "
                     "keeps them, or move the file aside, or give another --storage")


def _refuse_foreign(url: str) -> None:
    """An SQLite file that holds tables, none of them optuna's: another program's database
    (a --storage typo). Optuna would add its tables to it; it is refused and left as it is."""
    import sqlite3

    path = storage_file(url)
    if path is None or not path.is_file() or path.stat().st_size == 0:
        return
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True,
                                                timeout=60)) as db:
            tables = {r[0] for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error:
        return  # not an SQLite file, or damaged: the open says what it is
    if tables and "studies" not in tables:
        shown = ", ".join(sorted(tables)[:5]) + (" …" if len(tables) > 5 else "")
        raise ParamError(f"study storage {path}: an SQLite database of something else "
                         f"(tables: {shown}), not a study storage; the file is left as it "
                         "is: give another --storage")


def refuse_read_only(url: str) -> None:
    """An SQLite file SQLite could not open in a folder that cannot be written (read-only
    storage, or no write permission): said so, with what to do (rb 7 had "unable to open
    database file"). SQLite writes its lock and journal files beside the study even to read
    it, so a complete study on read-only storage cannot be read in place."""
    path = storage_file(url)
    if path is None:
        return
    folder = path.parent
    read_only = False
    with contextlib.suppress(OSError):
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    if not read_only and os.access(folder, os.W_OK):
        return
    why = "is on read-only storage" if read_only else "is not writable"
    if not path.exists():  # a new study: nothing to copy, nothing read (dr1 6)
        raise ParamError(f"cannot make study storage {path}: its folder {folder} {why}; give "
                         "--storage a file in a writable folder")
    raise ParamError(f"cannot open study storage {path}: its folder {folder} {why}, and SQLite "
                     "writes its lock and journal files beside the study, even to read it; copy "
                     f"{path.name} to a writable folder and give the copy as --storage")


def _refuse_damaged(url: str) -> None:
    """An SQLite file SQLite itself finds damaged (a zeroed page, another file) is named with
    SQLite's reason and what to do; optuna's own words were "invalid data in the commit, e.g.
    exceeding max length". A file that is only locked or unreadable is not called damaged."""
    if not url.startswith("sqlite"):
        return
    import sqlite3

    path = storage_file(url)
    if path is None or not path.is_file():
        return
    why = ""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True,
                                                timeout=1)) as db:
            rows = db.execute("PRAGMA quick_check").fetchall()
        if rows != [("ok",)]:
            why = str(rows[0][0]) if rows else "no answer to its own check"
    except sqlite3.DatabaseError as exc:
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
            why = str(exc)
    if why:
        raise ParamError(f"study storage {path} is damaged (SQLite: {why}); the file is left "
                         "as it is: move it aside (its studies cannot be read), or give "
                         "another --storage")


_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26


def _index_param_names(storage: optuna.storages.RDBStorage) -> None:
    """An index optuna's schema lacks: storing a trial looks up, for each parameter, an earlier
    row with the same name (to check its distribution), which without an index scans every
    stored parameter — a trial over 35 parameters cost a second after a few hundred trials."""
    from sqlalchemy import text

    # a worker creating it at the same moment: fine
    with contextlib.suppress(Exception), storage.engine.begin() as connection:
        connection.execute(text("CREATE INDEX IF NOT EXISTS wb_trial_params_name "
                                "ON trial_params (param_name)"))


def _fast_sqlite(storage: optuna.storages.RDBStorage) -> None:
    """Write-ahead logging with `synchronous=NORMAL`: a trial's dozen small commits no longer
    wait for the disk each (a commit survives a crash of the process, not of the machine —
    a lost trial is re-run). Readers and one writer then work side by side."""
    from sqlalchemy import event

    def pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    event.listen(storage.engine, "connect", pragmas)
    storage.engine.dispose()  # connections opened before the hook are not reused


def _lost_a_race(exc: Exception) -> bool:
    text = str(exc).lower()
    return any(s in text for s in ("duplicate key", "already exists", "database is locked",
                                   "unique constraint"))


def shown_url(url: str) -> str:
    """A storage URL for messages (postgresql://, not the driver this adds; SQLAlchemy's
    rendering, its query settings in its order), its password hidden wherever SQLAlchemy
    reads one — in the user part, whatever it holds (a /, a ?), or as ?password=:
    "postgresql://wb:***@host/db" ("postgresql+psycopg:…@host/db" had lost the user name
    and the slashes); only the scheme where the URL holds a second @."""
    if "://" not in url or url.startswith(("sqlite", "journal")):
        return url
    scheme = url.split("://", 1)[0].removesuffix("+psycopg")
    if url.count("@") > 1:  # an unencoded @ in the password: where it ends is anyone's guess
        return f"{scheme}://…"
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:  # not a URL SQLAlchemy reads: nothing of it shown past the scheme
        return f"{scheme}://…"
    if parsed.host and "@" in parsed.host:  # an unencoded @: the password's rest in "host"
        parsed = parsed.set(password=parsed.password or "-",
                            host=parsed.host.rpartition("@")[2])
    text = parsed.render_as_string(hide_password=True)
    text = re.sub(r"(?i)((?:ssl)?password=)[^&]*", r"\1***", text)
    scheme, rest = text.split("://", 1)
    return f"{scheme.removesuffix('+psycopg')}://{rest}"


def _at_hint(url: str) -> str:
    """A hint where the URL's user part holds a second @ (a password with @ in it read as
    a host: "failed to resolve host 'ss@127.0.0.1'")."""
    # any second @ (SQLAlchemy ends the host at a / or ?, so "p@ss/word@host" read as host
    # "ss": the password's tail then went into the error)
    if url.split("://", 1)[-1].count("@") < 2:
        return ""
    return ("the URL holds more than one @: write every @ but the one before the host as %40 "
            "(in the user name, password, database name or a query value; a : in the password "
            "as %3A, a / as %2F)")



def open_study(storage: optuna.storages.BaseStorage, name: str, objectives: Sequence[str],
               sampler: optuna.samplers.BaseSampler, config: Mapping[str, Any],
               space: SearchSpace, grid: bool, *, fresh: bool = False,
               shared: bool = False, start: Mapping[str, ParamValue] | None = None,
               owner: bool = False) -> Handle:
    """Create the study, or load it when it exists with the same settings; unless `shared`,
    work on an in-memory copy of it. A new study's first trial is `start` (the values the
    run starts from, where the space holds them): among settings that tie on the training
    queries the earliest trial is reported, so a tie keeps the starting values. `owner`: the
    run holds the study alone (lock.py), so no other process can be creating it."""
    first = _within(space, start)
    stored = _open_stored(storage, name, objectives, sampler, config, space,
                          grid and shared, fresh=fresh,
                          start=first if shared and not grid else None, owner=owner)
    if shared:
        return Handle(stored, stored, mirror=False)
    work = optuna.create_study(sampler=sampler, study_name=name,
                               directions=[direction(o) for o in objectives])
    done = stored.get_trials(deepcopy=False, states=FINISHED)
    work.add_trials(done)
    if not done and not grid and first is not None:
        work.enqueue_trial(first)
    if grid:  # a point whose trial failed (its process killed) is queued again
        seen = [t.params for t in done if t.state in (TrialState.COMPLETE, TrialState.PRUNED)]
        for point in grid_points(space):
            if not any(_same(point, p) for p in seen):
                work.enqueue_trial(point)
    return Handle(work, stored, mirror=True)


def _within(space: SearchSpace, start: Mapping[str, ParamValue] | None
            ) -> dict[str, ParamValue] | None:
    """`start` restricted to the space's dimensions, None when a value lies outside them."""
    if start is None:
        return None
    point: dict[str, ParamValue] = {}
    for d in space.dimensions:
        v = start.get(d.name)
        if v is None:
            return None
        if d.kind in ("choice", "bool"):
            if v not in d.choices:
                return None
        elif not (isinstance(v, int | float) and d.low <= float(v) <= d.high):
            return None
        point[d.name] = v
    return point


def _same(point: Mapping[str, ParamValue], params: Mapping[str, Any]) -> bool:
    return all(k in params and params[k] == v for k, v in point.items())


def _open_stored(storage: optuna.storages.BaseStorage, name: str, objectives: Sequence[str],
                 sampler: optuna.samplers.BaseSampler, config: Mapping[str, Any],
                 space: SearchSpace, grid: bool, *, fresh: bool = False,
                 start: Mapping[str, ParamValue] | None = None,
                 owner: bool = False) -> optuna.Study:
    """The stored study; a shared grid's points are enqueued by the process creating it. A
    study whose creator was stopped before it wrote the settings (or a grid's points), and
    that holds no finished trial, is made again at once by an `owner`: it waited for them
    two minutes, then was refused, while the interrupted run had said to run it again."""
    directions = [direction(o) for o in objectives]
    text = json.dumps(config, sort_keys=True, default=str)
    if fresh:
        with contextlib.suppress(KeyError):
            optuna.delete_study(study_name=name, storage=storage)
    try:
        study = optuna.create_study(storage=storage, study_name=name, sampler=sampler,
                                    directions=directions)
        created = True
    except optuna.exceptions.DuplicatedStudyError:
        study = optuna.load_study(study_name=name, storage=storage, sampler=sampler)
        created = False
    if created:
        study.set_user_attr(_CONFIG, text)
        if grid:
            for point in grid_points(space):
                study.enqueue_trial(point)
            study.set_user_attr(_READY, True)
        elif start is not None:
            study.enqueue_trial(dict(start))
        return study
    unfinished = (study.user_attrs.get(_CONFIG) is None
                  or (grid and study.user_attrs.get(_READY) is None))
    if owner and unfinished and not study.get_trials(deepcopy=False, states=FINISHED):
        optuna.delete_study(study_name=name, storage=storage)
        return _open_stored(storage, name, objectives, sampler, config, space, grid,
                            start=start, owner=False)
    stored = _wait_for(study, _CONFIG)
    if stored != text:
        raise ParamError(other_settings(name, stored, text))
    if grid:
        _wait_for(study, _READY)
    return study


def check_settings(storage: optuna.storages.BaseStorage,
                   studies: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
    """Refuse, before any trial, a run one of whose studies exists with other settings:
    a changed --folds named new fold studies, ran them to the end, and was refused only at
    the study on all queries, its work left in the storage. ParamError as `_open_stored`
    gives it."""
    for name, config in studies:
        try:
            study = optuna.load_study(study_name=name, storage=storage)
        except KeyError:
            continue
        stored = study.user_attrs.get(_CONFIG)
        text = json.dumps(config, sort_keys=True, default=str)
        if stored is not None and stored != text:
            raise ParamError(other_settings(name, stored, text))


# a study's settings (runner.config) as a person names them
_SETTING_NAMES = {
    "model": "model", "version": "the model's scoring version", "dataset": "data",
    "judgments": "judgments", "base": "starting values (-p, --params)",
    "space": "search space (--tune, --range)", "objectives": "objective (--metric)",
    "constraints": "constraints (--constraint)", "sampler": "sampler (--sampler)",
    "seed": "seed (--seed)", "validation": "validation (--folds, --time-split, splits)",
    "fold": "fold"}


def other_settings(name: str, stored: str, text: str) -> str:
    """The refusal of a study stored with other settings, naming those that differ (it
    had listed six that might, none of them the one that did: a seed)."""
    try:
        was, now = json.loads(stored), json.loads(text)
        keys = [k for k in dict.fromkeys([*now, *was]) if was.get(k) != now.get(k)]
    except (ValueError, AttributeError):
        keys = []
    differ = ", ".join(_SETTING_NAMES.get(k, k) for k in keys) or "its settings"
    return (f"study {name!r} exists in this storage with other settings ({differ} "
            f"differ{'s' if len(keys) == 1 else ''}); name another with --study, or start "
            "it again with --fresh")


def _wait_for(study: optuna.Study, key: str) -> Any:
    """A user attribute the creating process is still writing (another worker's study)."""
    deadline = time.monotonic() + _WAIT_FOR_GRID_S
    while True:
        value = study.user_attrs.get(key)
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise ParamError(f"study {study.study_name!r} was never finished being created "
                             f"(no {key}); start it again with --fresh")
        time.sleep(0.2)


def grid_points(space: SearchSpace) -> list[dict[str, ParamValue]]:
    """Every point of the space's grid, the last dimension varying fastest."""
    grid = space.grid()
    points: list[dict[str, ParamValue]] = [{}]
    for n, values in grid.items():
        points = [{**p, n: v} for p in points for v in values]
    return points
