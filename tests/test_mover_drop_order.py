"""Documents a min score cuts out of the list fall past its end (rc 2): on vault-search with
min_score 0.5 the cut of a grade-3 #1 had been listed after grade-1 drops from 8 to 10, its
fall counted to the short list's own end (3) and a drop from 10 read as a rise of 7."""

from __future__ import annotations

from tests.conftest import SAMPLES
from workbench.core.comparison import Comparison, Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.report.text import judged_first, mover_lines


def _vault() -> Comparison:
    model = get_model("vault-search")
    return compare_configurations(
        model, load_dataset(SAMPLES / "vault"),
        [Configuration("defaults", model.schema.resolve({})),
         Configuration("cut", model.schema.resolve({"min_score": 0.5}))], ["ndcg@10"],
        n_resamples=200)


def _relevant_drops(comp: Comparison) -> list[tuple[int, int, str, str]]:
    """(rank before, −grade, query id, doc id) of every judged relevant document in the
    defaults' top 10 that the cut list no longer holds, read from the rankings."""
    ds, (a, b) = comp.dataset, comp.results
    out = []
    for q, qid in enumerate(ds.queries.ids):
        kept = set(b.ranking.docs[q, :int(b.ranking.count[q])].tolist())
        for r, d in enumerate(a.ranking.docs[q, :min(10, int(a.ranking.count[q]))].tolist()):
            grade = (ds.qrels or {}).get(qid, {}).get(ds.corpus.ids[d], 0)
            if d not in kept and grade > 0:
                out.append((r + 1, -grade, qid, ds.corpus.ids[d]))
    return sorted(out)


def test_a_drop_falls_past_the_end_and_the_cut_of_a_first_result_leads() -> None:
    comp = _vault()
    want = _relevant_drops(comp)
    assert want[0][0] == 1 and want[-1][0] >= 8  # drops from 1 and from deep in the list
    ds = comp.dataset
    moved = judged_first(comp, comp.movers(1, 10, 10_000))
    dropped = [m for m in moved if m.rank is None and m.baseline_rank is not None]
    assert all(m.jump < 0 for m in dropped)  # a fall, never a rise
    got = [(m.baseline_rank, ds.queries.ids[m.query], ds.corpus.ids[m.doc])
           for m in moved if m.left and (m.baseline_rank, ds.queries.ids[m.query],
                                         ds.corpus.ids[m.doc]) in
           {(r, q, d) for r, _, q, d in want}]
    ranks_grades = [(r, g) for r, g, _, _ in want]
    assert [r for r, _, _ in got] == [r for r, _ in ranks_grades]  # old rank ascending
    # within one old rank, the higher grade first
    firsts = [(r, -g) for r, g in ranks_grades if r == 1]
    assert [g for _, g in firsts] == sorted((g for _, g in firsts), reverse=True)
    lines = mover_lines(comp, 1, k=10, top=5)
    assert len(lines) == 5
    assert all("dropped out from 1:" in line for line in lines), lines
    assert "(grade 3)" in lines[0] and "(grade 1)" not in lines[0]
