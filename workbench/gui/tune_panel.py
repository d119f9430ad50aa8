"""The Tune panel: tick parameters, pick metric, budget and validation, Start; the run goes on
a worker (`TuneRunner`) with progress and Cancel (the trials done stay stored, and Start
continues them); the objective per trial is drawn as it arrives. At the end: the tuned values,
the held-out verdict, parameter importances, a slice and a two-parameter chart, and "Apply
best", which moves the sliders in one undoable step (pinning the current settings as the
baseline first, when ticked).

The form is built when the panel is first shown (the optimiser's imports cost half a second
that a session never tuning should not pay) and again when the model or dataset changes.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from workbench.core.params import ParamError
from workbench.core.session import TuningSession
from workbench.core.tuned_on import TunedOn, carry_verdict, of_result, start_unchanged

from .bind import subscribe_many
from .metric_names import combo_metric, metric_label
from .tune_form import (
    APPLY_TIP,
    ERROR,
    TuneForm,
    cannot_tune,
    headline_metric,
    metric_choices,
    no_judgments_help,
    training_splits,
)
from .tune_params import MUTED
from .tune_plan import counted_queries, trials
from .tune_results import TuneView, _value, advised_against
from .tune_runner import TuneRunner

OFFERED = "the sliders no longer hold the tuned values"  # then: the button that offers them


class TunePanel(QWidget):
    trial_done = Signal(object)  # TrialReport, shown
    finished = Signal(object)  # TuneOutcome, shown
    stopped = Signal(str)  # "" cancelled, else the error
    open_judgments = Signal()  # the folded panel's "Open judgments…" (File ▸ Open judgments…)

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.runner = TuneRunner(self)
        # what this window's last run left in each of its studies (its job, the counts in run
        # order; None: a study it did not reach), for the line under Start while the settings
        # make the same studies: the storage itself is not opened before Start (dr4 1-5:
        # reading it had written a file's schema and WAL, and hung on a silent server)
        self._left: tuple[Any, list[int | None]] | None = None
        self._seen: dict[str, int] = {}  # the run going on: each study's trials, by name
        self._corpus_same: tuple[Any, Any, bool] | None = None  # `_moved_on`'s last answer
        self._replan_when_shown = False
        self.job: Any = None  # the run going on or last finished
        self.outcome: Any = None
        self.trials_seen = 0
        self._cancel_reason = ""  # why the panel cancelled the run itself ("" for Cancel)
        self.tuned_name = ""  # the configuration the last run's best values were saved as
        self._undone = ""  # that configuration, where Edit ▸ Undo removed it (Redo: back)
        # the configuration a rerun dated to itself, as it made it (Edit ▸ Undo: said undone)
        self._redated: tuple[Any, str, str] | None = None
        self.tuned_on: TunedOn | None = None  # … and the queries they were tuned on
        self._stale = True
        self._blocked = ""  # why Start cannot run on this data ("" when it can)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        # where no run can start (no judgments), the form and its charts are folded away and
        # this one line says why: a whole form and four empty charts had taken the window's
        # room for a run that could not start
        self.folded = QWidget(self)
        fold = QHBoxLayout(self.folded)
        fold.setContentsMargins(8, 8, 8, 8)
        self.folded_note = QLabel(self.folded)
        self.folded_note.setStyleSheet(ERROR)
        self.folded_note.setWordWrap(True)
        self.open_judgments_button = QPushButton("Open judgments…", self.folded)
        self.open_judgments_button.clicked.connect(self.open_judgments)
        # under the reason, what the data allows without judgments and what judgments are:
        # the folded tab had left ~270 px blank beside a red line
        self.folded_help = QLabel(self.folded)
        self.folded_help.setWordWrap(True)
        self.folded_help.setTextFormat(Qt.TextFormat.RichText)
        self.folded_help.setStyleSheet("color:#57606a")
        said = QVBoxLayout()
        said.addWidget(self.folded_note)
        said.addWidget(self.folded_help)
        said.addStretch(1)
        fold.addLayout(said, 1)
        fold.addWidget(self.open_judgments_button, 0, Qt.AlignmentFlag.AlignTop)
        outer.addWidget(self.folded)
        outer.addStretch(1)  # the line at the top while folded (the scroll area is hidden)
        self.folded.hide()
        # the tab scrolls sideways (a window narrower than 1,024 px) and, only where it is
        # lower than the form's part kept in sight (a bottom pane dragged down to 250 px),
        # downwards: else the form keeps Start and the run's settings in sight and scrolls its
        # parameters, the charts scroll in a view of their own (dr1 11: the tab had scrolled
        # too, two bars side by side, and scrolling it to the charts took Start out of sight)
        scroll = QScrollArea(self)
        self.form_area = scroll
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        outer.addWidget(scroll, 100)
        content = QWidget()
        # no sideways scroll in a 1,024-px window
        content.setMinimumWidth(980)
        scroll.setWidget(content)
        row = QHBoxLayout(content)
        row.setContentsMargins(4, 4, 4, 4)
        row.addWidget(self._build_form(content))
        self.view_area = QScrollArea(content)
        self.view_area.setWidgetResizable(True)
        self.view_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.view_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view = TuneView()
        self.view_area.setWidget(self.view)
        row.addWidget(self.view_area, 1)
        # its height: what the charts keep in sight
        self.view_area.viewport().installEventFilter(self)
        self.runner.trial.connect(self._on_trial)
        self.runner.progress.connect(self._on_progress)
        self.runner.finished.connect(self._on_finished)
        self.runner.cancelled.connect(lambda: self._on_stopped(""))
        self.runner.failed.connect(self._on_stopped)
        subscribe_many(self, [(session.model_changed, self._on_session_changed),
                              (session.dataset_changed, self._on_session_changed),
                              (session.k_changed, self._on_k_changed),
                              (session.params_changed, self._on_params_changed),
                              (session.configurations.changed, self._on_configurations)])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.view_area.viewport() and event.type() == QEvent.Type.Resize:
            self.view.keep_in_sight(self.view_area.viewport().height())
        return super().eventFilter(watched, event)

    def _build_form(self, parent: QWidget) -> QWidget:
        form = TuneForm(parent)
        self.form = form
        self.checklist, self.settings = form.checklist, form.settings
        self.start_button, self.cancel_button = form.start_button, form.cancel_button
        self.apply_button, self.progress, self.status = (form.apply_button, form.progress,
                                                         form.status)
        self.settings.storage.textEdited.connect(self._on_storage)
        self.settings.plan_changed.connect(self._replan)
        self.checklist.changed.connect(self._replan)
        self.start_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.apply_button.clicked.connect(self.apply_best)
        self._set_running(False)
        return form

    # -- the form follows the session ---------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.runner.running

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        super().showEvent(event)
        if self._stale:
            self.rebuild()
        elif self._replan_when_shown:
            self._replan()

    def _on_session_changed(self, *_: object) -> None:
        self._stale = True
        moved = self._moved_on()
        if self.runner.running and moved:  # its values would be offered to another one
            self._cancel_reason = moved
            self.runner.cancel()
        if self.isVisible():
            self.rebuild()

    def _moved_on(self) -> str:
        """Why the run's values no longer belong to what is open ("" while they do)."""
        job, s = self.job, self.session
        if job is None:
            return ""
        if s.dataset is None or not self._same_corpus(job.dataset, s.dataset):
            # the corpus: a typed query makes a new dataset of the same documents
            return f"another dataset was opened (the run tuned on {job.dataset.name})"
        if s.model is None or job.model.id != s.model.id:  # by id: each switch makes anew
            return f"another model was chosen (the run tuned {job.model.id}'s parameters)"
        return ""

    def _same_corpus(self, a: Any, b: Any) -> bool:
        """Whether two datasets hold the same documents: the same corpus, or one read again
        (dr4: re-opening tea-beir had said "Another dataset was opened (the run tuned on
        tea-beir)"); the hash kept for the pair, a slider's every step asks."""
        if a.corpus is b.corpus:
            return True
        kept = self._corpus_same
        if kept is None or kept[0] is not a.corpus or kept[1] is not b.corpus:
            kept = (a.corpus, b.corpus, a.corpus_fingerprint() == b.corpus_fingerprint())
            self._corpus_same = kept
        return kept[2]

    def _on_k_changed(self, *_: object) -> None:
        """The metrics offered follow the window's k (nDCG@5 at k 5); the ticks stay."""
        from workbench.core.tuning.study import SAMPLERS

        self.settings.set_choices(metric_choices(self.session), SAMPLERS,
                                  headline_metric(self.session))

    def rebuild(self) -> None:
        """The parameter list and metrics for the session's model and dataset."""
        self._stale = False
        model = self.session.model
        self.settings.storage.setText(self.session.study_storage)
        if model is None:
            self._fold(cannot_tune(self.session))
            self.checklist.build([], [])
            self.form.set_unshipped("", {})
            return
        from workbench.core.tuning.space import (  # the optimiser, on first use
            idle_names,
            model_names,
        )
        from workbench.core.tuning.study import SAMPLERS

        params = [p for p in model.schema if p.kind != "text"]
        params.sort(key=lambda p: p.stage != "live")  # live first, prepare-stage after
        s = self.session
        inert = (model.inert_params(s.prepared, s.params)
                 if s.prepared is not None and not s.needs_prepare else {})
        names = [n for n in model_names(model) if n not in inert]
        idle = idle_names(model.schema, names, s.params)  # rrf k without rrf …
        inert = {**inert, **idle}
        unshipped = unshipped_reasons(model.id, [p.name for p in params])
        self.checklist.build(params, [n for n in names if n not in idle], inert, unshipped)
        self.form.set_unshipped(target_name(model.id), unshipped)
        self.settings.set_choices(metric_choices(self.session), SAMPLERS,
                                  headline_metric(self.session))
        self.settings.set_splits(training_splits(self.session), self.session.split)
        from workbench.core.tuning.data import dataset_nouns, is_task_set

        self.settings.set_task_set(s.dataset is not None and is_task_set(s.dataset),
                                   dataset_nouns(s.dataset)[1] if s.dataset is not None
                                   else "queries")
        from workbench.core.tuning.validation import has_time

        self.settings.set_timed(s.dataset is not None and has_time(s.dataset))
        self._blocked = cannot_tune(self.session)
        self._fold(self._blocked)
        self._set_running(self.runner.running)
        if self._blocked:
            self._say(self._blocked, error=True)
            self.view.clear(self._blocked)
        elif self.status.text().startswith("nothing to tune against"):
            self._say("")
        if not self._blocked and self.outcome is None \
                and "nothing to tune against" in self.view.results.summary.text():
            # another dataset's reason had stayed in the Result pane ("decisions has no
            # relevance judgments" over the vault's 25 judged queries)
            self.view.clear("")
        moved = self._moved_on() if self.outcome is not None and not self._blocked else ""
        if moved:  # the result shown is the run's: said, its Apply off until it is back
            self.apply_button.setEnabled(False)
            self._say(f"{moved[0].upper()}{moved[1:]}: the result below is that run's, and its "
                      "values apply only there")
        elif self.status.text().endswith("its values apply only there"):
            self._say("")
        self._replan()

    def _fold(self, why: str) -> None:
        """The form and charts folded away, `why` said in their place ("" unfolds)."""
        self.folded_note.setText(why)
        self.open_judgments_button.setVisible("judgments" in why)
        help_text = no_judgments_help(self.session) if "judgments" in why else ""
        self.folded_help.setText(help_text)
        self.folded_help.setVisible(bool(help_text))
        self.folded.setVisible(bool(why))
        self.form_area.setVisible(not why)

    @property
    def needs_room(self) -> bool:
        """Whether the panel shows its form (the window makes room for it) or only the line
        saying why no run can start (it does not)."""
        return not cannot_tune(self.session)

    def _on_storage(self, text: str) -> None:
        self.session.study_storage = text.strip()

    # -- what Start will do -------------------------------------------------------------------

    def _replan(self, *_: object) -> None:
        """The line under Start said again for the settings now: with what this window's last
        run left stored where they make the same studies (its settings, the ticks and ranges,
        the sliders' values, the storage; not the budget), else what the budget comes to.
        Not while hidden (said when shown) nor while a run goes on (the line is the run's:
        a slider moved had made it "up to" over a run adding less, dr4 7)."""
        if not self.isVisible() or self._stale:
            self._replan_when_shown = True
            return
        if self.runner.running:
            return  # said again when it ends
        self._replan_when_shown = False
        s = self.settings
        counted = (counted_queries(self.session, combo_metric(s.objective))
                   if self.session.dataset is not None else None)
        # the grid's points: a run of the grid sampler runs them all, whatever the budget
        # (dr1 3: "Start runs 18 trials" over a grid of 3,843 points a study)
        grid = self._grid_points() if s.sampler.currentText() == "grid" else None
        s.set_plan(self._left_now(), grid, counted)
        self._offer_start(False)

    def _left_now(self) -> list[int | None] | None:
        """What the last run left in each study, where Start would run the same ones."""
        if self._left is None or self._blocked or self.session.model is None:
            return None
        from workbench.core.tuning import job_from_session

        try:
            job = job_from_session(self.session, self.checklist.names(),
                                   ranges=self.checklist.ranges(), **self.settings.choices())
        except ParamError:  # Start says why
            return None
        ran, counts = self._left
        return counts if same_studies(ran, job) else None

    def _grid_points(self) -> int | None:
        """The points of the grid over the ticked parameters and their ranges (None where
        they make no search: nothing ticked, a low above its high)."""
        model = self.session.model
        if model is None:
            return None
        from workbench.core.tuning.space import build_space

        try:
            return build_space(model.schema, self.checklist.names(),
                               self.checklist.ranges()).grid_size()
        except ParamError:
            return None

    # -- running ------------------------------------------------------------------------------

    def start(self) -> None:
        if self.runner.running:
            return
        if self._stale:
            self.rebuild()
        if self._blocked:
            self._say(self._blocked, error=True)
            return
        if self.settings.cannot_start:
            self._say(self.settings.cannot_start, error=True)
            return
        from workbench.core.tuning import job_from_session

        try:
            names = self.checklist.names()
            if not names:
                raise ParamError("tick at least one parameter to tune")
            job = job_from_session(self.session, names, ranges=self.checklist.ranges(),
                                   **self.settings.choices())
        except ParamError as exc:
            self._say(str(exc), error=True)
            return
        self.job, self.outcome, self.trials_seen = job, None, 0
        self._seen = {}
        self._cancel_reason = ""
        self.view.clear("running …")
        self._set_running(True)
        self._say(f"tuning {len(names)} parameters on {metric_label(job.objective)} …")
        self.runner.start(job)

    def cancel(self) -> None:
        if self.runner.running:
            self.runner.cancel()
            self._say("cancelling after this trial …")

    def _set_running(self, running: bool) -> None:
        self._offer_start(running)
        self.settings.set_running(running)
        self.cancel_button.setEnabled(running)
        self.checklist.setEnabled(not running)
        self.settings.setEnabled(not running)
        self.apply_button.setEnabled(not running and bool(self.outcome and self.outcome.best)
                                     and not (self.outcome and
                                              self.outcome.result.final.kept_start)
                                     and not self._applied() and not self._moved_on())
        # where the verdict advises keeping the start, the button says it goes against that
        against = (advised_against(self.outcome.result, self.job.objective)
                   if self.outcome is not None and self.job is not None else "")
        self.apply_button.setText("Apply anyway" if against else "Apply best")
        self.apply_button.setToolTip(f"{against}; this moves the sliders to them all the same "
                                     "(Edit ▸ Undo restores them)" if against else APPLY_TIP)

    def _offer_start(self, running: bool) -> None:
        """Start, unless a run goes on or the data or the settings cannot make one (said in
        the folded line or the one under Start)."""
        self.start_button.setEnabled(not running and not self._blocked
                                     and not self.settings.cannot_start)

    def _say(self, text: str, *, error: bool = False) -> None:
        self.status.setStyleSheet(ERROR if error else MUTED)
        # the command line's flag is the form's Storage field here ("give another --storage")
        self.status.setText(text.replace("give --storage FILE", "give a study storage file")
                            .replace("--storage", "study storage"))
        # no blank line under the progress bar before a run: in a chart tab's height (rn 3)
        # its 19 px had made the tab scroll
        self.status.setVisible(bool(text))

    def _on_trial(self, report: Any) -> None:
        from workbench.core.tuning.objectives import direction

        up = direction(self.job.objective) == "maximize"
        self.view.add_trial(report, up)
        self.trials_seen += 1
        self._seen[report.study] = report.done  # stored trials included
        total = f"/{report.total}" if report.total else ""
        # the highest so far, as the command line says it: not the trial the run keeps
        self._say(f"{self.view.curve.study}: trial {report.done}{total} · "
                  f"{'highest' if up else 'lowest'} on training "
                  f"{self.view.curve.train_best[-1]:.4f}")
        self.trial_done.emit(report)

    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(fraction * 1000))
        if "scoring" in message:  # after the trials: what the rest of the bar is
            self._say(message)

    def _on_finished(self, outcome: Any) -> None:
        moved = self._moved_on()
        if moved:  # it ended before the cancel reached it: nothing to offer here
            self.outcome = None
            self._set_running(False)
            self.progress.setValue(0)
            self._say(f"the run ended, but {moved}: its trials are stored, nothing is saved "
                      "or applied here")
            self.view.results.clear("Not this dataset's run.")
            self._left = None
            self._replan()
            self.stopped.emit("")
            return
        self.outcome = outcome
        self._set_running(False)
        self.progress.setValue(1000)
        kept = outcome.result.final.kept_start
        record, carried = self._record(outcome)
        # where the start's own run advised against it, the pane says the record's advice,
        # not "keep the starting values" (dr3 4, 8): one advice, as the status line's
        flagged = ("" if record is None else record.advice if carried == "neither"
                   else record.verdict if carried == "kept" else "")
        self.view.show_outcome(outcome, self.job, flagged)
        studies = [*outcome.result.folds, *([outcome.result.final] if outcome.result.final
                                            not in outcome.result.folds else [])]
        done = sum(f.trials for f in studies)
        new = sum(f.new for f in studies) if all(f.new >= 0 for f in studies) else done
        # a budget the stored studies already met runs nothing: said (it had read "done: 600
        # trials" in 3 s for a budget of 20, with no word that none was new)
        fresh = ("" if new == done else
                 "none new: the stored studies already held that many; a larger budget goes "
                 "on from them, another storage starts anew" if new == 0
                 else f"{new:,} new, {done - new:,} stored before")
        # what made the count (rv2 2: "done: 72 trials" for a budget of 12 said no why)
        counts = {f.trials for f in studies}
        made = ("" if len(studies) == 1 else
                f"{counts.pop():,} × {len(studies)} studies" if len(counts) == 1
                else f"in {len(studies)} studies")
        if len(studies) > 1 and outcome.result.final not in outcome.result.folds:
            from workbench.core.tuning.data import dataset_nouns

            made += (f": {len(outcome.result.folds)} folds, then all "
                     f"{dataset_nouns(outcome.dataset)[1]}")
        said = "; ".join(p for p in (made, fresh) if p)
        from workbench.core.tuning.storage import shown_url, storage_file

        # a file by its path, a server by its URL without the password (split at the last @
        # it had shown "studies?password=secret")
        file = storage_file(outcome.storage)
        where = str(file) if file is not None else shown_url(outcome.storage)
        self._say(f"done: {trials(done)}{f' ({said})' if said else ''}, stored in "
                  f"{Path(where).name if file is not None else where}"
                  + ("" if outcome.best else "; no trial succeeded")
                  + ("; the starting values kept: nothing to apply" if kept else ""))
        self.status.setToolTip(where)
        self.tuned_name = self._undone = ""
        self.tuned_on = None
        self._redated = None
        if record is not None and self.job is not None:  # for compare, report and export
            configs = self.session.configurations
            # a run that kept the start is saved too, with its record (held-out figures, run
            # keys), as `tune --out` writes one: Save current had written none (dr8 3)
            metric = metric_label(self.job.objective)
            values = {**self.job.params, **outcome.best}
            self.tuned_on = record
            # saved as asked, with the run's advice against it, as `tune --out` writes it
            against = (f", but not recommended — {self.tuned_on.verdict}"
                       if self.tuned_on.verdict else "")
            same = self._saved_alike(values, record)
            if same is not None and new == 0:  # no trial ran: the record stays as it is
                # (r51 dr3 8: re-dated, it had claimed trials run now that ran before, and
                # lost the date they did run)
                self.tuned_name = same.name
                self.tuned_on = same.tuned_on
                first = run_time(same.tuned_on.run)
                self._say(self.status.text() + f"; already saved as the configuration "
                          f"{same.name}, from the run of {first or 'an earlier session'}; "
                          f"nothing new to save{against}")
            elif same is not None:  # a rerun that added nothing: no second copy (dr3 9)
                # … but its record dated to this run, which ran new trials (its trials and
                # seed as this run had them, r51 3), as one undo step (r51 dr3 1: swapped
                # outside the history, Undo had named a save it could no longer take back)
                self.tuned_name = same.name
                self.tuned_on = replace(same.tuned_on, run=record.run)
                when = run_time(record.run)
                dated = f"now dated to this run{f' ({when})' if when else ''}"
                self._redated = (self.session.replace_run_configuration(same, self.tuned_on),
                                 dated, run_time(same.tuned_on.run))
                self._say(self.status.text() + f"; {self._redated_said(0)}{against}")
            else:
                self.tuned_name = configs.unique_name(f"kept start ({metric})" if kept
                                                      else f"tuned on {metric}")
                # one undo step: Edit ▸ Undo deletes it (dr3 9)
                self.session.save_run_configuration(self.tuned_name, self.job.model.id,
                                                    values, self.tuned_on)
                self._say(self.status.text() + f"; saved as the configuration "
                          f"{self.tuned_name}{against}")
            if not kept and self._applied():  # Apply greyed with no word: in use already
                self._say(self.status.text() + "; its values are those in use: nothing to "
                          "apply")
        # the storage holds as many as the run's studies count
        self._left = (self.job, [f.trials for f in studies])
        self._replan()
        self.finished.emit(outcome)

    def _on_stopped(self, message: str) -> None:
        self._left = (self.job, self._reached()) if self.job is not None else None
        self._set_running(False)
        self.progress.setValue(0)
        if message:
            self._say(f"tuning failed: {message.splitlines()[0]}", error=True)
            self.view.results.clear("The run failed.")
        else:
            why = f" because {self._cancel_reason}" if self._cancel_reason else ""
            self._say(f"cancelled after {trials(self.trials_seen)} this run{why}; they are "
                      "stored, and Start continues the same study")
            self.view.cancelled()
        self._replan()  # what the run stored before it stopped
        self.stopped.emit(message)

    def _record(self, outcome: Any) -> tuple[TunedOn | None, str]:
        """The record a run saves with its values, and what it carries of the start's verdict
        (`carry_verdict`), by the rule `tune --out` follows (T4); None where nothing is saved.
        "Kept unchanged" only where no setting was moved to meet a constraint
        (`start_unchanged`), as `tune --out` has it (rv53 c)."""
        if not outcome.best or self.job is None:
            return None, ""
        values = {**self.job.params, **outcome.best}
        # with the queries the starting values were tuned on (an applied tuned
        # configuration), as `tune --out` records them: values grown from those were
        # tuned on them too, whether or not this run loaded them (another split)
        note = of_result(outcome.result, outcome.dataset, self.job.model.id, values,
                         start=self.job.tuned_on, whose=self._start_whose())
        note, carried = carry_verdict(note, self._start_record(), self._start_name(),
                                      start_unchanged(outcome.result))
        return replace(note, run=run_record(outcome.result)), carried

    def _saved_alike(self, values: dict[str, object], record: TunedOn) -> Any:
        """A configuration of the run's model holding `values` with `record` as it is, but
        for when the run went (`run`: a rerun's own time), else None."""
        job = self.job
        from workbench.core.tuned_on import tuned_json

        resolved = job.model.schema.resolve(values)
        bare = tuned_json(replace(record, run=()))  # NaN as null: a NaN equals no NaN
        return next((c for c in self.session.configurations if c.model_id == job.model.id
                     and dict(c.params) == dict(resolved) and c.tuned_on is not None
                     and tuned_json(replace(c.tuned_on, run=())) == bare), None)

    def _start_record(self) -> TunedOn | None:
        """The record of the values the run started from as it holds for them (`applies_to`:
        an edit since drops its verdict), None where they have none."""
        job = self.job
        start: TunedOn | None = job.tuned_on if job is not None else None
        if job is None or start is None:
            return None
        return start.applies_to(job.model.id, job.params, any_model=True)[0]

    def _start_config(self) -> Any:
        """The configuration the run started from: the one whose record the values in use
        carry (`job.tuned_on`, the configuration switched to or applied), else the one saved
        with those values. Not simply the last saved with them (dr3 3: a second run from the
        same values had credited the verdict to the first run's own save)."""
        job = self.job
        if job is None:
            return None
        configs = self.session.configurations
        if job.tuned_on is not None:
            mine = [c for c in configs if c.model_id == job.model.id
                    and c.tuned_on is job.tuned_on]
            mine = mine or [c for c in configs if c.model_id == job.model.id
                            and c.tuned_on == job.tuned_on]
            if mine:
                return mine[0]
        return configs.find(job.model.id, job.params)

    def _start_name(self) -> str:
        """The values the run started from, as a verdict names them: the configuration they
        are in use from, by its name as it is (dr6 3: Python's repr had put backslashes and
        doubled quotes in records), else "the starting values"."""
        saved = self._start_config()
        return f"the configuration {saved.name}" if saved is not None else "the starting values"

    def _start_whose(self) -> str:
        """Whose the starting values are, as a verdict says it ("the model's defaults", "the
        configuration flagged's"), as `tune` names a file: where sliders moved the values off
        the configuration's, with those moved ("the configuration clnew's with w_keyword=2.5,
        w_content=0.2", as -p is said; dr6 2: its record's figures had been credited to values
        it never scored); "the values in use" where no configuration holds them (T5)."""
        from workbench.core.tuning.verdict import owned

        job = self.job
        if job is None:
            return ""
        if all(job.params.get(n) == v for n, v in job.model.schema.defaults().items()):
            return "the model's defaults"
        saved = self._start_config()
        if saved is None:
            return "the values in use"
        held = dict(saved.params)
        moved = [f"{n}={_value(v)}" for n, v in job.params.items() if held.get(n) != v]
        return owned(f"the configuration {saved.name}") + (f" with {', '.join(moved)}"
                                                           if moved else "")

    def _on_configurations(self) -> None:
        """The run's automatic save removed (Edit ▸ Undo): no longer said to be saved, nor
        named as the run's (dr6 8); put back (Redo): both again."""
        name = self.tuned_name or self._undone
        if not name:
            return
        if self._redated is not None:  # the rerun's dating undone (Undo) or done again (Redo)
            saved = self._redated[0]
            configs = self.session.configurations
            # what is true now, in place of whichever was said: dated, its dating undone, or
            # the configuration gone (the first run's save undone too, the line had still
            # said it held these values, "now dated to this run (undone)": dr7)
            now = (2 if name not in configs else 0 if configs.find_saved(saved) else 1)
            text = self.status.text()
            for i in range(3):
                if self._redated_said(i) in text:
                    self._say(text.replace(self._redated_said(i), self._redated_said(now), 1))
                    break
        # the first run's save undone too (or redone): no longer named as the run's (or again)
        said = f"; saved as the configuration {name}"
        text = self.status.text()
        if f"; already{said[1:]}" in text:  # a rerun that ran no trial named it so (dr3 8)
            said = f"; already{said[1:]}"
        if self.tuned_name and name not in self.session.configurations:
            self.tuned_name, self._undone = "", name
            if said in text and f"{said} (undone)" not in text:
                self._say(text.replace(said, f"{said} (undone)", 1))
        elif self._undone and name in self.session.configurations:
            self.tuned_name, self._undone = name, ""
            self._say(text.replace(f"{said} (undone)", said, 1))

    def _redated_said(self, now: int) -> str:
        """What a rerun that found its values saved says of that configuration, as things are
        `now`: 0 dated to this run; 1 its dating undone; 2 removed, the first run's save undone
        too. "(undone)" after the date had read as though only the date were in doubt, the
        record "this record" though it held the earlier one again, and "not saved again" where
        nothing held the values any more (r52 dr5 3)."""
        assert self._redated is not None
        _, dated, earlier = self._redated
        name = self.tuned_name or self._undone
        if now == 0:
            return (f"not saved again: the configuration {name} holds these values and this "
                    f"record, {dated}")
        if now == 1:
            return (f"not saved again: the configuration {name} holds these values and its "
                    f"earlier record{f' (from the run of {earlier})' if earlier else ''}, its "
                    "dating to this run undone")
        return (f"not saved: the configuration {name}, which held these values, was removed "
                "(Undo); Redo saves it again")

    def _reached(self) -> list[int | None]:
        """Each study's trials, in run order, as the run stopped: those its trials reported
        (stored ones included), the rest as the last run of the same studies left them, or
        None (the storage is not read)."""
        n = self.settings.studies()
        left = self._left
        counts: list[int | None] = (list(left[1]) if left is not None and len(left[1]) == n
                                    and same_studies(left[0], self.job) else [None] * n)
        for name, done in self._seen.items():
            i = study_index(name, n)
            if i is not None:
                counts[i] = done
        return counts

    # -- applying -----------------------------------------------------------------------------

    def apply_best(self) -> None:
        """The tuned values onto the sliders, one undoable step."""
        if self.outcome is None or not self.outcome.best or self.job is None:
            return
        moved = self._moved_on()
        if moved:
            self._say(f"{moved[0].upper()}{moved[1:]} since this run: its values do not "
                      "apply", error=True)
            return
        if self._applied():  # a second click pinned the tuned values as the baseline
            return
        if self.settings.pin_first.isChecked():
            self.session.pin_baseline()
        # with the record of the queries they were tuned on: the metric strip sets those aside
        self.session.set_params(self.outcome.best, tuned_on=self.tuned_on)
        self._say("applied the tuned values (Edit ▸ Undo restores the previous ones)")

    def _applied(self) -> bool:
        """Whether the sliders hold the outcome's values already."""
        best = self.outcome.best if self.outcome is not None else {}
        params = self.session.params
        return bool(best) and all(k in params and params[k] == v for k, v in best.items())

    def _on_params_changed(self, *_: object) -> None:
        """Apply is offered while the sliders do not hold the tuned values (again after an
        Undo). The start moved: another study, what it holds read again."""
        self._replan()
        if not self.runner.running and self.outcome is not None:
            self._set_running(False)
            text = self.status.text()
            if self._applied() and text.startswith(OFFERED):  # back on them (a Redo)
                self._say("the sliders hold the tuned values again")
            elif self.apply_button.isEnabled() and (
                    text.startswith(("applied the tuned values", "the sliders hold"))
                    or text.endswith("nothing to apply")):  # an Undo, or a slider moved
                # the button by its label: "Apply anyway" where held out they did worse
                self._say(f"{OFFERED}: {self.apply_button.text()} puts them back")

    def shutdown(self) -> None:
        self.runner.shutdown()


if __name__ == "__main__":
    import sys

    from .charts._standalone import run_panel

    sys.exit(run_panel(TunePanel))


def target_name(model_id: str) -> str:
    """The system a model's settings ship to ("" for a model of the workbench's own)."""
    from workbench.core.export import export_params, exporter_ids

    if model_id not in exporter_ids():
        return ""
    # the system's name, not the commit the port follows ("pi-lodestone 418f9a1")
    return re.sub(r"\s+[0-9a-f]{7,40}$", "", export_params(model_id).target)


def unshipped_reasons(model_id: str, names: list[str]) -> dict[str, str]:
    """Of `names`, those the model's target cannot take as a setting, and why (as `tune`
    notes them before its first trial: the window had ticked them all and said nothing)."""
    from workbench.core.export import unshippable

    code, absent = unshippable(model_id, names)
    target = target_name(model_id)
    return {**{n: f"{target} has no such setting: a value other than its own is a change to "
                  "its code" for n in code},
            **{n: f"{target} has no such option at all" for n in absent}}


def same_studies(a: Any, b: Any) -> bool:
    """Whether two jobs run the same studies in the same storage: all but the budget alike
    (the model by id, the dataset the same one)."""
    from dataclasses import fields

    apart = ("trials", "timeout", "pick", "prepared", "model", "dataset", "params", "tuned_on")
    return (a.model.id == b.model.id and a.dataset is b.dataset and a.tuned_on is b.tuned_on
            and dict(a.params) == dict(b.params)
            and all(getattr(a, f.name) == getattr(b, f.name) for f in fields(a)
                    if f.name not in apart))


def study_index(name: str, studies: int) -> int | None:
    """A study's place in run order from its name ("…/fold 2 of 5", "…/all"; one study:
    0)."""
    if studies == 1:
        return 0
    label = name.rsplit("/", 1)[-1]
    if label == "all":
        return studies - 1
    m = re.fullmatch(r"fold (\d+) of \d+", label)
    return int(m.group(1)) - 1 if m and int(m.group(1)) < studies else None


def run_time(run: tuple[tuple[str, str], ...]) -> str:
    """When the run of a record's `run` lines went, as they write it ("2026-11-29T10:04:00Z",
    UTC), "" where they do not say."""
    import tomllib

    value = dict(run).get("created", "")
    try:
        when = tomllib.loads(f"created = {value}")["created"] if value else ""
    except tomllib.TOMLDecodeError:
        return ""
    return when if isinstance(when, str) else ""


def run_record(result: Any) -> tuple[tuple[str, str], ...]:
    """How the run went, as `tune --out` records it in `[tuned]` (`tuning.run_record`: pick,
    sampler, seed, trials, kept trial, parameters searched and their ranges, version, when):
    the window's export had left them out, so its file could not say how it was searched
    (rt 5)."""
    from workbench.core.tuning.run_record import run_lines

    return tuple((key, value) for key, _, value in
                 (line.partition(" = ") for line in run_lines(result)))
