"""The main window: header line on top; query list | ranked table over preview | parameter
panel in the middle; metric strip and the chart area (the chart panels' place) at the bottom.

The window only lays panels out, opens data and shows errors; each panel talks to the session
alone, and `LiveLoop` keeps the results up to date.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QFontMetrics
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from workbench.core.checks import load_warnings, skipped_report
from workbench.core.data import DEFAULT_SPLIT, FormatError
from workbench.core.embeddings import unkept_cache_warnings
from workbench.core.engine import Cancelled
from workbench.core.params import ParamError
from workbench.core.session import TuningSession
from workbench.demo import sample_settings

from . import errors
from . import settings as st
from .actions import WindowActions
from .bind import subscribe_many
from .chart_area import ChartArea
from .configurations_menu import ConfigurationsMenu
from .disk_watch import DiskWatch
from .elided import ElidingLabel, esc
from .header import Header
from .help_menu import HelpMenu, show_tooltips
from .metric_strip import MetricStrip
from .off_thread import wait_for
from .param_panel import ParamPanel
from .prepare_status import PrepareStatus
from .preview import DocumentPreview
from .query_list import QueryList
from .ranked_table import RankedTable
from .reload_said import reload_changes
from .worker import LiveLoop

if TYPE_CHECKING:
    from workbench.core.tuned_on import TunedOn

    from .compare.window import CompareWindow


def status_line(message: str) -> str:
    """A message's first line for the status line; one that only leads into the next ("Could
    not save the session:") takes the next with it, which says why."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if not lines:
        return "error"
    if lines[0].endswith(":") and len(lines) > 1:
        return f"{lines[0]} {lines[1]}"
    return lines[0]


class _Said(QObject):
    """Carries a line from a worker thread to the window's thread (a queued signal). Owned by
    the listener alone, not by the window: a listener left behind by a window already gone
    emits to nobody instead of into a deleted object."""

    line = Signal(str)


class MainWindow(QMainWindow):
    def __init__(self, session: TuningSession | None = None, *, synchronous: bool = False,
                 restore: bool = True, charts: bool = True,
                 parent: QWidget | None = None) -> None:
        """`synchronous`: compute inline (tests, screenshots); `restore`: the remembered
        layout; `charts`: False leaves the chart panels out (benchmarks split their cost)."""
        super().__init__(parent)
        self.setWindowTitle("Scoring Workbench")
        self.setAcceptDrops(True)
        self.session = session or TuningSession()
        self.loop = LiveLoop(self.session, synchronous=synchronous, parent=self)
        s = self.session
        self.header = Header(s, self)
        self.queries = QueryList(s, self, throttle_ms=0 if synchronous else 120)
        self.ranked = RankedTable(s, self)
        self.preview = DocumentPreview(s, self, defer_ms=0 if synchronous else 120)
        self.params = ParamPanel(s, self.loop, self)
        self.metrics = MetricStrip(s, self, defer_ms=0 if synchronous else 150)
        # --- the chart panels' place (workbench.gui.charts, loaded lazily) ---
        self.charts = ChartArea(s, self, load=charts, throttle_ms=0 if synchronous else 150)

        self.centre_split = _splitter(Qt.Orientation.Vertical, "centre", self.ranked,
                                      self.preview, sizes=(420, 200))
        self.h_split = _splitter(Qt.Orientation.Horizontal, "columns", self.queries,
                                 self.centre_split, self.params, sizes=COLUMNS)
        # a narrower window takes from all three columns, the ranked table most: it took
        # everything from the centre (238 px at 1024: rank, Δ and id, no score)
        for i, stretch in enumerate((1, 3, 1)):
            self.h_split.setStretchFactor(i, stretch)
        # until someone drags a column's edge (then on, and in a layout restored, theirs),
        # the columns' widths follow the window's (`column_sizes`)
        self.columns_by_default = True
        self.h_split.splitterMoved.connect(self._columns_moved)
        self.h_split.installEventFilter(self)
        bottom = QWidget(self)
        bl = QVBoxLayout(bottom)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.setSpacing(2)
        bl.addWidget(self.metrics)
        bl.addWidget(self.charts, 1)
        self.v_split = _splitter(Qt.Orientation.Vertical, "rows", self.h_split, bottom,
                                 sizes=(640, 300))
        self.v_split.setStretchFactor(0, 1)
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(4, 0, 4, 4)
        layout.setSpacing(2)
        layout.addWidget(self.header)
        layout.addWidget(self.v_split, 1)
        self.setCentralWidget(central)

        self.timing = QLabel("", self)
        self.timing.setFixedWidth(self.timing.fontMetrics().horizontalAdvance(
            "combine + rank + metrics: 0000 ms (00,000,000 pairs)") + 8)
        # fixed both ways: a new text must not re-lay out the status bar on every tick
        self.timing.setFixedHeight(self.timing.fontMetrics().height() + 4)
        self.timing.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.timing.setToolTip("how long the last change took to score every candidate "
                               "(query–document pair), rank each query's and measure the "
                               "metrics: the live path a slider drives")
        self.statusBar().addPermanentWidget(self.timing)
        # the dataset's files changed on disk since they were read: said until reloaded (the
        # window had gone on from its copy in memory with no word)
        self.disk = DiskWatch(s)
        self.disk_note = QLabel("", self)
        self.disk_note.setStyleSheet("color:#9a6700")
        self.disk_note.hide()
        self.statusBar().insertPermanentWidget(0, self.disk_note)
        # what File ▸ Reload changed, kept in the status bar until the next change of model
        # or values (a temporary message covers it meanwhile): elided with "…", the whole in
        # its tooltip. A 10 s message cut at the bar's edge had lost its judgments and its
        # baseline at 1,280 px (review r49, dr4 3)
        self.reload_note = ElidingLabel(self, at_clauses=True)
        self.reload_note.setSizePolicy(QSizePolicy.Policy.Ignored,
                                       QSizePolicy.Policy.Preferred)
        self.reload_note.hide()
        # whether the note is up: not its visibility, which QStatusBar takes away while any
        # temporary message shows (the reload's result, landing then, was said as a 10 s
        # message cut at the bar's edge, and the note lost its baseline part: dr6 2)
        self._reload_live = False
        for event in (s.params_changed, s.model_changed):
            event.connect(self._drop_reload_note)
        # a baseline pinned, cleared or renamed, or a query typed into the set (which emits
        # baseline_changed too) since: the note's baseline and query count are old (dr6 4).
        # The reload's own baseline, recomputed while `_rebase_for` is set, is its to say
        s.baseline_changed.connect(self._on_baseline_for_note)
        s.dataset_changed.connect(self._on_data_read)
        self.error_box: QMessageBox | None = None
        # (the path opened, the path read): a sample folder's workbench.toml may name a file
        self.opened: tuple[str, str] | None = None
        # File ▸ Reload dataset, or a dataset opened again as it was left: the baseline
        # pinned before (its name, whether it is another model's) until the first result on
        # the data says whether it came back, and what the status bar said of the reload or
        # opening (the note goes after it)
        self._rebase_for: tuple[str, bool] | None = None
        self._reload_said = self._rebase_lost = self._rebase_kept = self._reload_rest = ""
        self.open_cancelled = False
        # what an opening said, said again when the preparation it started ends (`say_opened`)
        self._after_prepare = ("", 0)
        self.menu_actions = WindowActions(self, self)
        self._compare: CompareWindow | None = None
        self.config_menu = ConfigurationsMenu(self, s, self.show_compare,
                                              lambda: self.compare_window().configs)
        self.help_menu = HelpMenu(self)
        for act in self.menuBar().actions():
            if isinstance(menu := act.menu(), QMenu):
                show_tooltips(menu)
        errors.install(self)  # an exception escaping any slot ends in show_error
        self.loop.applied.connect(self._on_applied)
        # another model's or dataset's timing is not this one's (bm25's stayed while dense
        # prepared)
        subscribe_many(self.timing, [(s.model_changed, self._clear_timing),
                                     (s.dataset_changed, self._clear_timing)])
        self.loop.error.connect(self.show_error)
        # the preparation's message, percentage, bar and Cancel in sight (the Prepare box's
        # are at the end of the parameter panel's scroll area)
        self.prepare_status = PrepareStatus(self.loop, self.statusBar())
        self.loop.prepare_finished.connect(self._on_prepare_finished)
        self.loop.prepare_started.connect(self._forget_after_prepare)
        # an embedding cache that could not be written (a full disk): every start embedded
        # everything again and the window never said why; a damaged file of it, whose texts
        # embed again for minutes with no word. A preparation runs on a worker, so the line
        # reaches the status bar through a queued signal
        self.unkept_note = QLabel("", self)
        self.unkept_note.setStyleSheet("color:#9a6700")
        self.unkept_note.hide()
        self.statusBar().insertPermanentWidget(0, self.unkept_note)
        # after the permanent ones put at index 0: that index counts the reload note too
        self.statusBar().addWidget(self.reload_note, 1)
        self._unkept = ExitStack()
        self._listen_unkept()
        self.loop.prepare_started.connect(self._listen_unkept)
        self.resize(st.first_size(self, 1500, 950))  # a remembered layout's size replaces it
        if restore:
            self.restore_layout()

    # -- opening data -------------------------------------------------------------------------

    def open_path(self, path: str | Path, model: str | None = None,
                  params: Mapping[str, object] | None = None, *,
                  queries: str | None = None, qrels: str | None = None,
                  split: str | None = None, remember: bool = True,
                  tuned_on: TunedOn | None = None) -> bool:
        """Open a dataset (folder or file), its queries (or a repository's tasks) and
        judgments from `queries` and `qrels` when given, a BEIR or OpenVault folder's at
        `split`; on bad input show the error and keep the previous dataset. A sample folder's
        workbench.toml names its model unless `model` is given. `remember`: it becomes the
        last dataset and joins the Recent list. `tuned_on`: the record of the queries
        `params` were tuned on (a `tune --out` file's `[tuned]` table): the figures on them
        are training scores, and a Tune run from these values never holds them out.
        `open_cancelled` says whether the last call ended in Cancel."""
        self.open_cancelled = False
        self._rebase_for = None  # another dataset: a reload's baseline is not in question
        self._reload_said = self._rebase_lost = self._rebase_kept = self._reload_rest = ""
        self._drop_reload_note()
        # kept as absolute paths: a session or the next launch may start in another folder
        path = Path(path).expanduser().absolute()
        queries, qrels = (str(Path(f).expanduser().resolve()) if f else None
                          for f in (queries, qrels))
        try:
            with self.loop.hold():
                from workbench.core.formats import dataset_splits, load_dataset

                # a workbench.toml that is not ours is ignored; its keys not ours, said
                skipped: list[FormatError] = []
                sample = sample_settings(path, skipped) if path.is_dir() else {}
                # a sample folder's workbench.toml may name the file to read (`data = ...`)
                target = path / str(sample["data"]) if sample.get("data") else path
                picked = ""  # the split chosen for the person, said in the status line
                if split is None:  # test, else (a folder judged in train and dev) the first
                    splits = dataset_splits(target) if queries is None and qrels is None \
                        else []
                    split = (splits[0] if splits and DEFAULT_SPLIT not in splits
                             else DEFAULT_SPLIT)
                    if splits and DEFAULT_SPLIT not in splits:
                        picked = (f"split {split}, the one judged here" if len(splits) == 1
                                  else f"split {split} of {', '.join(splits)} (File ▸ Split "
                                  "opens another)")
                # off the window's thread: a large corpus took 20 s to read, the window frozen
                chosen_split = split
                dataset = wait_for(
                    self, f"Reading {target.name} …",
                    lambda: load_dataset(target, queries=queries, qrels=qrels,
                                         split=chosen_split, skipped=skipped),
                    synchronous=self.loop.synchronous)  # raises before any change
                s = self.session
                left = (s.dataset.name if s.dataset is not None and s.model is not None
                        and s.model.schema.changed(s.params) else "")
                # opened before in this window: back as it was left (values, undo steps,
                # baseline); else at the defaults, the sample's workbench.toml or the values
                # given — the last dataset's values are no start for this one (they were
                # kept, and the figures differed from `workbench eval` with no word)
                resume = model is None and not params and s.visited(str(target))
                self.menu_actions.note_leaving()  # values changed there still count on Quit
                s.leave_dataset()
                if not resume:
                    chosen, chosen_params = model, dict(params or {})
                    if chosen is None and sample.get("model"):
                        chosen = str(sample["model"])
                        chosen_params = {**dict(sample.get("params", {})), **chosen_params}
                    if chosen is None:  # the model in use, at its defaults
                        chosen = s.model.id if s.model is not None else "bm25"
                    else:
                        left = ""
                    s.set_model(chosen, chosen_params)
                s.set_dataset(dataset, str(target), queries=queries, qrels=qrels, split=split,
                              resume=resume)
                record_why = ""
                if tuned_on is not None and not resume and s.model is not None:
                    # as the record holds for these values (another model's, edited since)
                    record, record_why = tuned_on.applies_to(s.model.id, s.params)
                    s.set_params({}, record=False, tuned_on=record)
                restoring = s.baseline_to_restore() if resume else None
                if restoring is not None:  # `_check_rebase` says whether it came back
                    self._rebase_for = (restoring, False)
                example = sample.get("example_query")
                if example and example in dataset.queries.index:
                    self.session.select_query(dataset.queries.index[str(example)])
        except Cancelled:
            self.open_cancelled = True
            self.statusBar().showMessage(f"opening {path} cancelled: nothing changed", 8000)
            return False
        except (FormatError, ParamError, KeyError, OSError, ValueError) as exc:
            self.show_error(f"Could not open {path}: {_reason(exc, path)}")
            return False
        # what the original's listing keeps or passes over and nothing to fix (a note in
        # .trash, a file ending .MD): said in the status line, not in a box at every open
        skipped, listed = _listing_notes(skipped)
        message = ""
        if skipped:  # decision lines the original skips silently, notes with flaws: said
            message = f"Opened {path}." + "".join(
                f"\n\n{heading}:\n" + "\n".join(lines)
                for heading, lines in skipped_report(skipped, 8))
        notes = load_warnings(dataset)  # loaded, but not scoring as one may think
        if self.session.model is not None:  # the model's, on these values (the Prepare box
            # keeps them, under the panel's fold: said here when the data is opened)
            notes += self.session.model.data_warnings(dataset, self.session.params)
        if record_why:
            notes.append(f"the parameters' tuning record: {record_why}")
        if notes:
            message = (message or f"Opened {path}.") + "\n\nWarnings:\n" + "\n".join(notes)
        if message:
            self.show_error(message)
        self.opened = (str(path), str(target))
        if remember:
            self.menu_actions.add_recent(str(path))
            st.remember("last_dataset", str(path))
            st.remember_files(str(path), queries, qrels, split)
            if self.session.model is not None:
                st.remember("last_model", self.session.model.id)
        from workbench.core.formats.openvault_memories import load_note

        note = load_note(self.session.dataset.corpus) if self.session.dataset else ""
        given = [f"{what} from {Path(f).name}" for what, f in (("queries", queries),
                                                                 ("judgments", qrels)) if f]
        lost = self.session.resume_lost if resume else ""
        back = (": as you left it in this window (values and undo steps"
                + (f"; {lost}" if lost else "") + ")" if resume else
                f"; {self.session.model.id} at its defaults ({left}'s values come back when "
                f"{left} is opened again)" if left and self.session.model is not None else "")
        if picked:
            given.insert(0, picked)
        self._reload_said = (f"opened {path}" + "".join(f", {g}" for g in given)
                             + (f" ({note})" if note else "") + back
                             + "".join(f"; {line}" for line in listed))
        self.say_opened(self._reload_line(),
                        15000 if note or listed or self._rebase_lost or lost else 5000)
        return True

    def say_opened(self, line: str, ms: int) -> None:
        """What was opened, in the status line now and again once the preparation it started
        ends: its progress lines took the place, and "prepared" was all that stayed (an opened
        session never said which file, dataset or model)."""
        self.statusBar().showMessage(line, ms)
        self._after_prepare = (line, max(ms, 10000)) if self.loop.preparing else ("", 0)

    def _forget_after_prepare(self, *_: object) -> None:
        # another preparation (a change made since): the opening's line is not its to say
        self._after_prepare = ("", 0)

    def reopen(self, path: str) -> bool:
        """Open `path` as it was last opened: with the query and judgment files given then
        (the Recent menu, and the last dataset at launch)."""
        queries, qrels, split = st.recalled_files(path)
        return self.open_path(path, queries=queries, qrels=qrels, split=split)

    def open_with(self, *, queries: str | None = None, qrels: str | None = None,
                  split: str | None = None) -> bool:
        """The open dataset read again with these queries (or tasks), judgments or split (the
        others kept as they are), its model and values kept; on bad input nothing changes."""
        s = self.session
        if s.dataset is None or s.source is None:
            return False
        # the folder opened, unless a saved session has put another dataset in since
        path = self.opened[0] if self.opened and self.opened[1] == s.source else s.source
        return self.open_path(path, s.model.id if s.model else None, dict(s.params),
                              queries=queries if queries is not None else s.queries_file,
                              qrels=qrels if qrels is not None else s.qrels_file,
                              split=split if split is not None else s.split,
                              tuned_on=s.tuned_on)  # tuned values stay tuned on their queries

    def reload_dataset(self) -> bool:
        """File ▸ Reload dataset: the open dataset's files read again (edited on disk), with
        the query and judgment files and split it was read with. The model, its values and
        undo steps, the configurations, the query shown and the baseline (computed again on
        the new data) stay; re-opening it had dropped the baseline and the undo steps, and a
        sample folder's workbench.toml had reset the values. On bad input the data read
        before stays in use."""
        s = self.session
        if s.dataset is None or s.source is None:
            return False
        source, before = s.source, s.dataset
        skipped: list[FormatError] = []
        b = s.baseline
        self._rebase_for = None if b is None else \
            (b.name, s.model is None or b.model_id != s.model.id)
        self._reload_said = self._rebase_lost = self._rebase_kept = self._reload_rest = ""
        self._drop_reload_note()
        try:
            with self.loop.hold():
                from workbench.core.formats import load_dataset

                queries, qrels, split = s.queries_file, s.qrels_file, s.split
                dataset = wait_for(
                    self, f"Reading {Path(source).name} again …",
                    lambda: load_dataset(source, queries=queries, qrels=qrels, split=split,
                                         skipped=skipped),
                    synchronous=self.loop.synchronous)
                s.set_dataset(dataset, source, queries=queries, qrels=qrels, split=split,
                              reloaded=True)
        except Cancelled:
            self._rebase_for = None
            self.statusBar().showMessage("reloading cancelled: the data read before stays",
                                         8000)
            return False
        except (FormatError, KeyError, OSError, ValueError) as exc:
            self._rebase_for = None
            self.show_error(f"Could not reload {source}: {_reason(exc, Path(source))}\n\n"
                            "The data read before stays in use.")
            return False
        self.disk.restamp()
        self.disk_note.hide()
        now = s.dataset
        assert now is not None
        judged, rest = reload_changes(before, now)
        self._reload_said = f"reloaded {Path(source).name} from disk" + (
            f": {judged}" if judged else "")
        skipped, listed = _listing_notes(skipped)
        self._reload_rest = rest + (f"; {len(skipped)} malformed line(s) skipped"
                                    if skipped else "") + "".join(f"; {t}" for t in listed)
        # computed inline (synchronous), the baseline's fate is known already
        self._say_reload()
        return True

    def _say_reload(self) -> None:
        line = self._reload_line()
        self.reload_note.set_texts(esc(line), line)
        self.statusBar().clearMessage()  # a message in hand would cover the note
        self.reload_note.show()
        self._reload_live = True

    def _on_baseline_for_note(self, *_: object) -> None:
        if self._rebase_for is None:
            self._drop_reload_note()

    def _drop_reload_note(self, *_: object) -> None:
        self._reload_live = False
        self.reload_note.hide()

    def _check_rebase(self) -> None:
        """The first result after a reload: a baseline that did not come back (it needs a
        preparation of its own, or is another model's) is said to be cleared — the
        comparison had gone from the strip and the compare view with no word."""
        if self._rebase_for is None:
            return
        (name, other_model), self._rebase_for = self._rebase_for, None
        if self.session.baseline is not None:
            self._rebase_kept = f"baseline “{name}” recomputed on the new data"
        else:
            why = ("another model's" if other_model else
                   "its prepare-stage values differ from the live ones")
            self._rebase_lost = f"baseline “{name}” cleared ({why}): pin it again to compare"
        if not self._reload_said:
            return
        if self._reload_live:  # the reload said first, its result after
            self._say_reload()
        else:  # a dataset opened again as it was left
            self.statusBar().showMessage(self._reload_line(),
                                         20000 if self._rebase_lost else 10000)

    def _reload_line(self) -> str:
        # most important first, the rest elided where the bar is short: a cleared baseline,
        # what changed in the judgments (every metric moves), the baseline recomputed, then
        # the documents and queries
        return "; ".join(t for t in (self._rebase_lost, self._reload_said, self._rebase_kept,
                                     self._reload_rest) if t)

    def _on_data_read(self, *_: object) -> None:
        self.disk.follow()
        if self.disk_note.isVisible() and not self.disk.check():
            self.disk_note.hide()

    def check_disk(self) -> list[str]:
        """Say in the status bar which of the dataset's files changed on disk since they were
        read (called when the window regains focus: a size and mtime per file, no polling)."""
        names = self.disk.check()
        if names:
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more"
                                             if len(names) > 3 else "")
            self.disk_note.setText(f"changed on disk since loading: {shown} "
                                   "(File ▸ Reload dataset from disk reads the files again)")
            self.disk_note.setToolTip("\n".join(names))
        self.disk_note.setVisible(bool(names))
        return names

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.check_disk()

    def show_error(self, message: str, details: str = "") -> None:
        """A message in the status line and a non-blocking message box (`details`, such as
        a traceback, under its Show Details button)."""
        self.statusBar().showMessage(status_line(message), 15000)
        if self.error_box is not None:
            self.error_box.close()
        box = QMessageBox(QMessageBox.Icon.Warning, "Scoring Workbench", message,
                          QMessageBox.StandardButton.Ok, self)
        if details:
            box.setDetailedText(details)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()
        self.error_box = box

    # -- the compare view ---------------------------------------------------------------

    def compare_window(self) -> CompareWindow:
        """The compare view (made when first asked for; it compares only while shown)."""
        if self._compare is None:
            from .compare.window import CompareWindow

            self._compare = CompareWindow(self.session, self,
                                          synchronous=self.loop.synchronous)
            self._compare.configs.message.connect(
                lambda text: self.statusBar().showMessage(text, 5000))
        return self._compare

    def show_compare(self) -> None:
        w = self.compare_window()
        w.show()
        w.raise_()
        w.activateWindow()

    def ask_export_report(self) -> None:
        self.compare_window().ask_export()

    # -- loop feedback ------------------------------------------------------------------------

    def _on_applied(self, seconds: float) -> None:
        self._check_rebase()
        res = self.session.result
        n = 0 if res is None else res.scores.n_pairs
        self.timing.setText(f"combine + rank + metrics: {seconds * 1000:.0f} ms "
                            f"({n:,} pairs)")

    def _clear_timing(self, *_: object) -> None:
        self.timing.setText("")

    def _listen_unkept(self, *_: object) -> None:
        """Listen afresh: the core says a folder once per listener, and a preparation that
        still cannot write there must say it again (the note of the last one goes)."""
        self._unkept.close()
        self.unkept_note.hide()
        said = _Said()
        said.line.connect(self._on_unkept)
        self._unkept.enter_context(unkept_cache_warnings(lambda line: said.line.emit(line)))

    def _on_unkept(self, line: str) -> None:
        # a second line of the same preparation (a damaged file, then a full disk) beside
        # the first, not in its place
        shown = "" if self.unkept_note.isHidden() else self.unkept_note.toolTip()
        text = "\n".join(t for t in (shown, line[:1].upper() + line[1:]) if t)
        # the reason ("No space left on device") and what it costs in sight before the cache
        # folder's path, which the tooltip names
        parts = text.split("\n")
        fm = self.unkept_note.fontMetrics()
        if len(parts) == 1:
            self.unkept_note.setText(shorten_path_in(text, fm, UNKEPT_PX))
        else:  # each in its share of the room, its start (what happened) kept
            self.unkept_note.setText(" · ".join(
                shorten_path_in(p, fm, UNKEPT_PX // len(parts), Qt.TextElideMode.ElideRight)
                for p in parts))
        self.unkept_note.setToolTip(text)
        self.unkept_note.show()

    def _on_prepare_finished(self, outcome: str) -> None:
        (opened, ms), self._after_prepare = self._after_prepare, ("", 0)
        if outcome == "" and opened:
            self.statusBar().showMessage(f"{opened}; prepared", ms)
        elif outcome == "":
            self.statusBar().showMessage("prepared", 3000)
        elif outcome == "cancelled":
            self.statusBar().showMessage("prepare cancelled", 5000)
        else:
            self.show_error(f"Prepare failed:\n{outcome}")

    # -- drag and drop ------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()
            self.open_dropped(urls[0].toLocalFile(), len(urls))

    def open_dropped(self, path: str, count: int = 1) -> None:
        """What a dropped file is: a session file this window saved opens as the session, a
        params TOML file is imported as a configuration, anything else opens as a dataset
        (a session was read as OpenVault memories, a params file as a BEIR folder)."""
        kind = dropped_kind(path)
        if kind == "session":
            if self.menu_actions.may_replace():  # dropped as opened: asked the same
                self.menu_actions.load_session_file(path)
        elif kind == "params":
            if self.session.model is None:
                self.show_error(f"{Path(path).name} is a params file: open a dataset first, "
                                "then drop it to import it as a configuration")
            else:
                self.compare_window().configs.import_toml(path)
        else:
            self.open_path(path)
        if count > 1:  # said, not silently dropped
            self.statusBar().showMessage(f"{count} items dropped: opened {Path(path).name} "
                                         "only, one at a time", 8000)

    # -- layout remembered --------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        # a new width, or a column's new least width (another model's parameters)
        if watched is self.h_split and self.columns_by_default and event.type() in (
                QEvent.Type.Resize, QEvent.Type.LayoutRequest):
            self._default_columns()
        return super().eventFilter(watched, event)

    def _default_columns(self) -> None:
        sizes = self.default_column_sizes()
        if sizes and sizes != self.h_split.sizes():
            self.h_split.setSizes(sizes)

    def default_column_sizes(self) -> list[int]:
        """The columns' default widths at the window's width now ([] before it has one)."""
        total = self.h_split.width() - 2 * self.h_split.handleWidth()
        if total <= 0:
            return []
        return column_sizes(total, self.queries.comfortable_width(),
                            self.params.minimumWidth())

    def _columns_moved(self, *_: object) -> None:
        self.columns_by_default = False

    def splitters(self) -> list[QSplitter]:
        return [self.h_split, self.centre_split, self.v_split]

    def save_layout(self) -> None:
        # closed on the Tune tab: the layout kept is the one before it took room (a relaunch
        # opened on another tab with the ranked table 2 rows tall)
        self.menu_actions.give_back_tune_room()
        s = st.settings()
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        for sp in self.splitters():
            s.setValue(f"splitter/{sp.objectName()}", sp.saveState())
        # columns nobody moved follow the next window's width too
        moved = not self.columns_by_default or self.h_split.sizes() != self.default_column_sizes()
        s.setValue("splitter/columns_moved", "yes" if moved else "no")
        s.setValue("k", self.session.k)
        s.sync()

    def restore_layout(self) -> None:
        s = st.settings()
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = s.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        for sp in self.splitters():
            saved = s.value(f"splitter/{sp.objectName()}")
            if isinstance(saved, QByteArray) and sp.restoreState(saved) and sp is self.h_split:
                # a layout saved before this setting existed (every close saved one) is
                # taken as the default's: a moved column, lost once, against the 1,024-px
                # columns never reaching anyone who ran an older version
                self.columns_by_default = s.value("splitter/columns_moved") != "yes"
        k = s.value("k")
        if isinstance(k, int | str) and str(k).isdigit() and int(k) > 0:
            self.session.set_k(int(k))

    def closeEvent(self, event: QCloseEvent) -> None:  # Qt override
        # the window's close button (a close the window system sends) asks as File ▸ Quit
        # does; a close from code does not: Quit has asked already, and tests, `workbench
        # screenshot` and Ctrl-C in the terminal close the window on purpose
        if event.spontaneous() and not self.menu_actions.may_close():
            event.ignore()
            return
        self.save_layout()
        self.loop.shutdown()
        self._unkept.close()  # after the workers: one still writing may yet say it
        self.charts.shutdown()
        if self._compare is not None:
            self._compare.close()
        if self.error_box is not None:
            self.error_box.close()
        super().closeEvent(event)


UNKEPT_PX = 900  # the most of the status bar the note of a cache not written takes
COLUMNS = (370, 780, 400)  # px: query list, ranked table and preview, parameters
CENTRE_LEAST = 0.45  # of the width: what the ranked table keeps when the query list takes room


def column_sizes(total: int, list_comfortable: int, params_least: int) -> list[int]:
    """The three columns' default widths in `total` px: COLUMNS in proportion, the
    parameters at least `params_least` (what their controls need, taken from the other two
    in proportion); then the query list up to `list_comfortable` (its four columns in
    sight, the query's text ten characters) from what the ranked table has above
    CENTRE_LEAST of the width. At 1,024 px beside bm25's parameters the list had 228 px and
    scrolled sideways, its Δ column out of sight; at 1,280 px and wider the proportions
    hold."""
    share = [total * c / sum(COLUMNS) for c in COLUMNS]
    params = max(share[2], float(params_least))
    squeeze = (params - share[2]) / (share[0] + share[1])
    queries, centre = share[0] * (1 - squeeze), share[1] * (1 - squeeze)
    give = max(0.0, min(list_comfortable - queries, centre - CENTRE_LEAST * total))
    queries = round(queries + give)
    params_px = round(params)
    return [queries, total - queries - params_px, params_px]


def shorten_path_in(text: str, fm: QFontMetrics, room: int,
                    elide: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle) -> str:
    """`text` in `room` px: where it is longer, its paths ("/…") go first, longest first (a
    cache store's folder alone is ~60 characters; the words around it say what happened and
    why), then its middle (or where `elide` says)."""
    paths = sorted((word for word in text.split() if "/" in word), key=len, reverse=True)
    for path in paths:
        if fm.horizontalAdvance(text) <= room:
            return text
        text = text.replace(path + " ", "", 1)
    if fm.horizontalAdvance(text) <= room:
        return text
    return fm.elidedText(text, elide, room)


def _splitter(orientation: Qt.Orientation, name: str, *widgets: QWidget,
              sizes: tuple[int, ...]) -> QSplitter:
    sp = QSplitter(orientation)
    sp.setObjectName(name)
    sp.setChildrenCollapsible(False)
    for w in widgets:
        sp.addWidget(w)
    sp.setSizes(list(sizes))
    return sp


def _listing_notes(skipped: list[FormatError]) -> tuple[list[FormatError], list[str]]:
    """`skipped` split by kind: the problems to show in a box (unreadable notes, malformed
    lines) and, as one line for each kind, what the vault's listing does as obsidian-mcp's
    does, nothing for the person to fix (a deleted note in .trash searched, a file ending
    .MD not searched): a box for these came at every open of such a vault."""
    from workbench.core.formats.vault import InTrash, NotNoteEnding

    listing = (InTrash, NotNoteEnding)
    said = [e for e in skipped if isinstance(e, listing)]
    rest = [e for e in skipped if not isinstance(e, listing)]
    return rest, [heading for heading, _ in skipped_report(said, 0)]


def _reason(exc: Exception, path: Path) -> str:
    """Why `path` did not open, without saying its path twice: a FormatError about `path`
    itself gives its message (and the field, where there is one beyond the path); about a
    file in it, that file, line and field."""
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    if not isinstance(exc, FormatError):
        return str(exc)
    same = Path(exc.path).expanduser().resolve() == path.expanduser().resolve()
    where = "" if same and exc.line is None else \
        (f"{exc.path}:{exc.line}" if exc.line is not None else exc.path) + ": "
    field = f"field '{exc.field}': " if exc.field and exc.field != "path" else ""
    return f"{where}{field}{exc.message}"


def dropped_kind(path: str) -> str:
    """"session" for a workbench session file, "params" for a params TOML file, else
    "dataset" (read by the formats)."""
    import json

    p = Path(path)
    if not p.is_file():
        return "dataset"
    if p.suffix.lower() == ".toml" and p.name != "workbench.toml":
        return "params"
    if p.suffix.lower() == ".json" and p.stat().st_size < 50_000_000:
        try:
            data = json.loads(p.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            return "dataset"
        if isinstance(data, dict) and "version" in data and "dataset" in data \
                and "model" in data:
            return "session"
    return "dataset"
