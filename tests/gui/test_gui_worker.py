"""The live loop: results computed on the worker and applied on the GUI thread, slider storms
without a backlog, stale results dropped, prepare with progress, cancel and errors."""

from __future__ import annotations

from conftest import SAMPLES, HeldFakeEncoder
from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession, compute
from workbench.gui.worker import LiveLoop


def _session(model: str = "bm25", **params: object) -> TuningSession:
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model(model, params)
    return s


def test_stale_results_are_dropped() -> None:
    s = _session()
    s.recompute()
    first, second = s.request(), s.request()
    assert first is not None and second is not None
    assert not s.apply(compute(first))  # an older generation: dropped
    assert s.apply(compute(second))


def test_worker_computes_and_applies_on_the_gui_thread(qtbot: QtBot) -> None:
    s = TuningSession()
    loop = LiveLoop(s)
    s.open(SAMPLES / "tea-beir")
    with qtbot.waitSignal(loop.applied, timeout=10_000):
        s.set_model("bm25")  # → prepare on the prepare worker → compute on the worker
    assert s.result is not None and not loop.busy
    with qtbot.waitSignal(loop.applied, timeout=5_000):
        s.set_param("k1", 0.5)
    loop.shutdown()


def test_slider_storm_never_builds_a_backlog(qtbot: QtBot) -> None:
    s = _session()
    loop = LiveLoop(s)
    qtbot.waitUntil(lambda: s.result is not None and not loop.busy, timeout=10_000)
    before = loop.computed
    values = [round(0.025 * i, 3) for i in range(1, 40)]
    for v in values:  # faster than any compute: all but a few only mark the loop dirty
        s.set_param("b", v)
    qtbot.waitUntil(lambda: not loop.busy, timeout=10_000)
    done = loop.computed - before
    assert 1 <= done < len(values) // 2
    # what is shown is the newest parameters' result
    expected = _session(b=values[-1])
    expected.recompute()
    assert s.result is not None and expected.result is not None
    assert s.result.means == expected.result.means
    loop.shutdown()


def test_synchronous_mode_is_inline() -> None:
    s = _session()
    loop = LiveLoop(s, synchronous=True)  # starts computing the session it is given
    assert s.result is not None and loop.computed == 1
    s.set_param("k1", 0.9)
    assert loop.computed == 2 and not loop.busy


def test_prepare_reports_progress_and_can_be_cancelled(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    s = TuningSession()
    loop = LiveLoop(s)
    progress: list[float] = []
    loop.prepare_progress.connect(lambda f, _m: progress.append(f))
    s.open(SAMPLES / "tea-beir")
    s.set_model("dense", {"embedding_model": held_encoder.name})
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    # the encoder reports while it waits: the first report reaches the window before Cancel
    # (cancelled within its first 5 ms wait, it would stop before reporting anything)
    qtbot.waitUntil(lambda: bool(progress), timeout=10_000)
    with qtbot.waitSignal(loop.prepare_finished, timeout=10_000) as got:
        loop.cancel_prepare()
    assert got.args == ["cancelled"]
    assert s.result is None and s.needs_prepare
    held_encoder.release.set()
    with qtbot.waitSignal(loop.applied, timeout=10_000):
        loop.recompute()
    assert s.result is not None and not s.needs_prepare
    loop.shutdown()


def test_prepare_errors_become_a_message(qtbot: QtBot) -> None:
    s = TuningSession()
    loop = LiveLoop(s)
    s.open(SAMPLES / "tea-beir")
    with qtbot.waitSignal(loop.prepare_finished, timeout=10_000) as got:
        s.set_model("dense", {"embedding_model": "/no/such/model-folder"})
    assert got.args[0] and got.args[0] != "cancelled"
    assert "no local embedding model" in got.args[0]
    loop.shutdown()


def test_a_dataset_opened_while_another_prepares_is_prepared_and_ranked(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    # the old prepare was left running and the new dataset never prepared: the window sat
    # on "no ranking yet" until Ctrl+R
    s = TuningSession()
    loop = LiveLoop(s)
    with loop.hold():  # as File ▸ Open does
        s.open(SAMPLES / "tea-beir")
        s.set_model("dense", {"embedding_model": held_encoder.name})
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    with loop.hold():
        s.open(SAMPLES / "story")
        s.set_model("bm25")
    qtbot.waitUntil(lambda: s.result is not None, timeout=10_000)
    assert s.dataset is not None and s.dataset.name == "story" and not s.needs_prepare
    expected = TuningSession()
    expected.open(SAMPLES / "story")
    expected.set_model("bm25")
    expected.recompute()
    assert expected.result is not None and s.result.means == expected.result.means
    held_encoder.release.set()
    loop.shutdown()


def test_live_values_apply_to_the_previous_preparation_while_a_new_one_runs(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    # the box says "results still show the previous preparation", but a live slider moved
    # then changed nothing: min similarity read 0.6 over results scoring 0.4
    s, loop = _reembedding(qtbot, held_encoder)
    with qtbot.waitSignal(loop.applied, timeout=10_000):
        s.set_param("min_similarity", 0.3)
    assert s.needs_prepare and loop.preparing
    expected = TuningSession()
    expected.open(SAMPLES / "tea-beir")
    expected.set_model("dense", {"embedding_model": held_encoder.name, "min_similarity": 0.3})
    held_encoder.release.set()  # the expected session's own preparation, and the held one
    expected.recompute()
    assert s.result is not None and expected.result is not None
    assert s.result.means == expected.result.means  # the old prompt, the new threshold
    qtbot.waitUntil(lambda: not s.needs_prepare and not loop.busy, timeout=10_000)
    loop.shutdown()


def test_a_cancelled_preparation_is_not_restarted_by_a_live_value(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    # with live values scheduled during a pending preparation, a slider tick after Cancel
    # started the cancelled (or failed) preparation again; Recompute is what starts it
    s = TuningSession()
    loop = LiveLoop(s)
    started: list[str] = []
    loop.prepare_started.connect(started.append)
    with loop.hold():
        s.open(SAMPLES / "tea-beir")
        s.set_model("dense", {"embedding_model": held_encoder.name})
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    with qtbot.waitSignal(loop.prepare_finished, timeout=10_000) as got:
        loop.cancel_prepare()
    assert got.args == ["cancelled"]
    before = len(started)
    s.set_param("min_similarity", 0.3)
    s.set_k(5)
    qtbot.wait(200)
    assert len(started) == before and not loop.preparing
    held_encoder.release.set()
    with qtbot.waitSignal(loop.applied, timeout=10_000):
        loop.recompute()
    loop.shutdown()


def test_a_baseline_pinned_while_a_preparation_waits_is_saved_with_the_shown_values(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    # pinned after a re-embed's Cancel, the baseline was saved with the new (unembedded)
    # prompt beside the old prompt's figures; recomputed from its settings it changed
    s, loop = _reembedding(qtbot, held_encoder)
    with qtbot.waitSignal(loop.prepare_finished, timeout=10_000):
        loop.cancel_prepare()
    s.pin_baseline()
    assert s.baseline is not None
    saved = s.configurations.get(s.baseline.name)
    assert saved.params["document_prompt"] == "" == s.baseline.params["document_prompt"]
    held_encoder.release.set()
    loop.shutdown()


def test_a_cancelled_preparation_says_what_the_cache_kept(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    # the window dropped the note the command line prints ("none of the 155 texts … was
    # kept"): "press Re-embed to finish" read as if the work done so far were kept
    from workbench.gui.prepare_box import PrepareBox

    s = TuningSession()
    loop = LiveLoop(s)
    with loop.hold():
        s.open(SAMPLES / "tea-beir")
        s.set_model("dense", {"embedding_model": held_encoder.name})
    box = PrepareBox(s, loop)
    qtbot.addWidget(box)
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    box.cancel.setEnabled(True)  # as prepare_started left it
    with qtbot.waitSignal(loop.prepare_finished, timeout=10_000):
        box.cancel.click()
        # the worker stops at its next step (seconds): said meanwhile, and not clicked twice
        assert box.status.text().startswith("cancelling") and not box.cancel.isEnabled()
    assert loop.cancel_note.startswith("none of the 151 documents to embed was kept")
    assert box.status.text().startswith("cancelled: nothing is prepared yet; press ")
    # nothing kept: start again, not "finish" (as though the work done so far were kept)
    assert " to start again." in box.status.text()
    assert "None of the 151 documents to embed was kept" in box.status.text()
    held_encoder.release.set()
    loop.shutdown()


def _reembedding(qtbot: QtBot, held_encoder: HeldFakeEncoder) -> tuple[TuningSession, LiveLoop]:
    """tea-beir prepared for dense, then a new document prompt whose preparation is held."""
    s = TuningSession()
    loop = LiveLoop(s)
    held_encoder.release.set()
    s.open(SAMPLES / "tea-beir")
    s.set_model("dense", {"embedding_model": held_encoder.name})
    qtbot.waitUntil(lambda: s.result is not None and not loop.busy, timeout=10_000)
    held_encoder.release.clear()
    held_encoder.started.clear()
    s.set_param("document_prompt", "passage: ")  # a new preparation, held
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    return s, loop


def test_a_cancel_while_the_queries_embed_says_the_documents_are_kept(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    # "None of the 100 texts to embed was kept … press Re-embed to start again", with all
    # 1,200 document vectors kept (review rv2, 3): the next run embeds only the queries
    from workbench.gui.prepare_box import PrepareBox

    s = TuningSession()
    loop = LiveLoop(s)
    held_encoder.release.set()
    s.open(SAMPLES / "tea-beir")
    s.set_model("dense", {"embedding_model": held_encoder.name})
    qtbot.waitUntil(lambda: s.result is not None and not loop.busy, timeout=10_000)
    box = PrepareBox(s, loop)
    qtbot.addWidget(box)
    held_encoder.release.clear()
    held_encoder.started.clear()
    s.set_param("query_prompt", "query: ")  # the documents are cached: the queries are held
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    with qtbot.waitSignal(loop.prepare_finished, timeout=10_000):
        loop.cancel_prepare()
    assert loop.cancel_note == (
        "the vectors of all 151 documents are kept in the cache, and none of the 25 queries "
        "(the first step, 25 queries, had not finished): the same command goes on from there, "
        "embedding the 25 queries only")
    assert box.status.text() == (
        "cancelled: results still show the previous preparation; press Re-embed / Recompute "
        "to go on. The vectors of all 151 documents are kept in the cache, and none of the 25 "
        "queries (the first step, 25 queries, had not finished): it goes on from there, "
        "embedding the 25 queries only.")
    held_encoder.release.set()
    loop.shutdown()
