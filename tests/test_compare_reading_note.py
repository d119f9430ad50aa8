"""The "not like-for-like" note says what models read differently, not a value the user varies
within one model (dr5 4: bm25 stemmer=none beside bm25's defaults was called not like for like
as soon as dense was in the comparison); both prompts alike are said once, a prompt quoted
and an empty one '' in the note, the Parameters table and the movers alike (rm 1, 6), and
bm25 beside hybrid is said to tokenize its own way (dr5 7)."""

from __future__ import annotations

from tests.conftest import SAMPLES
from tests.test_compare_models import _HashEncoder
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.comparison.result import data_notes
from workbench.core.embeddings import register_encoder
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.report.text import params_table

TEA = SAMPLES / "tea-beir"


def _note(comp: object) -> str:
    return next((n for n in data_notes(comp) if n.startswith("not like-for-like")), "")


def test_a_value_varied_within_one_model_is_no_caveat() -> None:
    enc = _HashEncoder()
    register_encoder(enc.name, enc)
    bm, dn = get_model("bm25"), get_model("dense")
    comp = compare_configurations(bm, load_dataset(TEA), [
        Configuration("bm25", bm.schema.defaults(), model=bm),
        Configuration("stemmer=none", bm.schema.resolve({"stemmer": "none"}), model=bm),
        Configuration("dense", dn.schema.resolve({"embedding_model": enc.name}), model=dn)],
        ["ndcg@10"])
    assert _note(comp) == ""


def test_a_value_varied_within_a_model_is_said_beside_its_model() -> None:
    enc = _HashEncoder()
    register_encoder(enc.name, enc)
    bm, hy = get_model("bm25"), get_model("hybrid")
    comp = compare_configurations(hy, load_dataset(TEA), [
        Configuration("hybrid", hy.schema.resolve({"embedding_model": enc.name}), model=hy),
        Configuration("fields=title+text", hy.schema.resolve(
            {"embedding_model": enc.name, "fields": "title+text"}), model=hy),
        Configuration("bm25", bm.schema.defaults(), model=bm)], ["ndcg@10"])
    note = _note(comp)
    assert note.startswith("not like-for-like: hybrid reads text only; bm25 reads title+text "
                           "(fields=title+text, of hybrid, reads title+text as bm25 does)")
    assert "fields=title+text and bm25 read" not in note
    assert "bm25 and hybrid each tokenize their own way" in note


def test_both_prompts_are_said_once_and_an_empty_one_is_quoted() -> None:
    enc = _HashEncoder()
    register_encoder(enc.name, enc)
    dn, hy = get_model("dense"), get_model("hybrid")
    comp = compare_configurations(dn, load_dataset(TEA), [
        Configuration("dense", dn.schema.resolve({"embedding_model": enc.name}), model=dn),
        Configuration("hybrid", hy.schema.resolve({"embedding_model": enc.name}), model=hy)],
        ["ndcg@10"])
    note = _note(comp)
    prompt = hy.schema.defaults()["query_prompt"]
    assert prompt and prompt == hy.schema.defaults()["document_prompt"]
    # quoted, an empty one '' (rm 1: an empty prompt and the prompt "none" had both read none)
    assert f"prompts: '' (dense), '{prompt}' for queries and documents (hybrid)" in note
    assert "query_prompt" not in note and "document_prompt" not in note
    _, rows = params_table(comp)
    table = {r[0]: r[1:] for r in rows}
    assert table["query_prompt"] == ["''", f"'{prompt}'"]


def test_an_empty_prompt_and_a_text_one_are_told_apart_in_the_table_and_the_movers() -> None:
    # review rm 1 and 6: an empty prompt had shown as `none` in the parameter table, as the
    # prompt "none" did, and as nothing after the arrow in the movers' sentence ("→ ,"). A
    # text value is quoted, an empty one too: '' ("none" is left to how -p reads a preset)
    from workbench.core.compare import movers
    from workbench.core.comparison import explain_move

    enc = _HashEncoder()
    register_encoder(enc.name, enc)
    hy = get_model("hybrid")
    comp = compare_configurations(hy, load_dataset(TEA), [
        Configuration("prompted", hy.schema.resolve(
            {"embedding_model": enc.name, "query_prompt": "query: ",
             "document_prompt": "passage: "}),
            model=hy),
        Configuration("bare", hy.schema.resolve(
            {"embedding_model": enc.name, "query_prompt": "", "document_prompt": ""}),
            model=hy)], ["ndcg@10"])
    _, rows = params_table(comp)
    table = {r[0]: r[1:] for r in rows}
    assert table["query_prompt"] == ["'query: '", "''"]
    assert table["document_prompt"] == ["'passage: '", "''"]
    moved = movers(comp.results[1], comp.results[0], 10)
    said = [explain_move(comp, 1, m.query, m.doc).sentence() for m in moved[:5]]
    assert any("query_prompt 'query: ' → ''" in s or "document_prompt 'passage: ' → ''" in s
               for s in said), said
    assert not any("→ ," in s or s.rstrip().endswith("→") for s in said)


def test_the_settings_to_ship_table_quotes_a_prompt_and_an_empty_one() -> None:
    # review dr6 3: Settings to ship's table ("In OpenVault …'s terms") had shown the
    # original prompt unquoted, its trailing space lost, and the empty prompt as a blank cell
    from workbench.report.html.settings import _ship
    from workbench.report.text import settings_lines

    enc = _HashEncoder()
    register_encoder(enc.name, enc)
    hy = get_model("hybrid")
    prompt = hy.schema.defaults()["query_prompt"]
    assert isinstance(prompt, str) and prompt.endswith(" ")
    comp = compare_configurations(hy, load_dataset(TEA), [
        Configuration("defaults", hy.schema.resolve({"embedding_model": enc.name}), model=hy),
        Configuration("bare", hy.schema.resolve(
            {"embedding_model": enc.name, "query_prompt": "", "document_prompt": ""}),
            model=hy)], ["ndcg@10"])
    lines = settings_lines(comp)
    (row,) = [x for x in lines if x.startswith("| query_prompt |")]
    cells = row.split(" | ")
    assert cells[2] == f"'{prompt}'".replace("|", "\\|"), row
    assert cells[3] == "''", row
    html = _ship("hybrid", comp.configs[1], comp, 1)
    assert f">'{prompt}'</td><td class=\"num\">''</td>" in html.replace("&#x27;", "'"), html
