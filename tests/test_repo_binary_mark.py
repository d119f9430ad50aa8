"""Binaries without a NUL in their first 8 KiB (an Illustrator .ai, a PDF: kilobytes of text
metadata first): kept by the index, as CodeLedger keeps them, with the reason git's own
attributes or the file's signature give; left out of codeledger's candidates, kept by
codeledger-document (review G, 1: ky's media/logo.ai went into bundles as 232 tokens)."""

from __future__ import annotations

from pathlib import Path

from tests.test_codeledger_fixtures import FILES, make_dataset
from tests.test_repo_index import make_repo
from workbench.core.models import get_model
from workbench.core.repo import index_repository
from workbench.core.repo.binary import Attributes, signature_of

# ky's media/logo.ai in small: a PDF whose first NUL comes after 8 KiB of XMP text
AI = b"%PDF-1.6\r%\xe2\xe3\xcf\xd3\r\n" + b"<x:xmpmeta logo/>\n" * 600 + b"\0stream"


def test_gitattributes_rules_by_hand() -> None:
    attrs = Attributes.of({
        ".gitattributes": "* text=auto eol=lf\n*.ai binary\n*.dat -diff\nfix/*.txt -text\n"
                          "[attr]opaque -diff -merge\n*.blob opaque\n",
        "sub/.gitattributes": "*.ai diff\nx/*.bin -diff\n"})
    assert attrs.binary_by("media/logo.ai") == "`*.ai binary` in .gitattributes"
    assert attrs.binary_by("a/b/c.dat") == "`*.dat -diff` in .gitattributes"
    assert attrs.binary_by("k.blob") == "`*.blob opaque` in .gitattributes"  # a macro
    assert attrs.binary_by("fix/crlf.txt") is None  # -text: line endings, not binary
    assert attrs.binary_by("sub/logo.ai") is None  # the deeper file sets diff again
    assert attrs.binary_by("sub/x/a.bin") == "`x/*.bin -diff` in sub/.gitattributes"
    assert attrs.binary_by("sub/x/y/a.bin") is None  # `*` does not cross a folder
    assert attrs.binary_by("x/a.bin") is None  # anchored at sub/
    assert attrs.binary_by("src/app.py") is None
    assert signature_of(AI) == "PDF"
    assert signature_of(b"\x89PNG\r\n\x1a\nIHDR") == "PNG"
    assert signature_of(b"%PD") is None and signature_of(b"import os\n") is None


def test_index_keeps_them_and_says_why(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {
        ".gitattributes": "*.ai binary\n",
        "a.py": "x = 1\n",
        "media/logo.ai": AI,
        "doc/guide.pdf": AI,  # no attribute: its signature
        "late_nul.txt": b"a" * 9000 + b"\0",  # text by every account
    })
    index = index_repository(repo, use_cache=False)
    marks = {f.path: f.binary_mark for f in index.files}
    assert marks == {
        ".gitattributes": "", "a.py": "", "late_nul.txt": "",
        "media/logo.ai": "`*.ai binary` in .gitattributes marks it binary",
        "doc/guide.pdf": "its content opens with the PDF signature"}
    assert index.skipped == ()  # no NUL in the first 8 KiB: indexed, as CodeLedger does


def test_codeledger_leaves_them_out_codeledger_document_keeps_them() -> None:
    files = dict(FILES)
    # a binary that would be the best keyword match: the task names words of its path
    files["media/retry-logo.ai"] = dict(keywords=["retry", "policy"], lines=3970, tokens=15880,
                                        binary_mark="its content opens with the PDF "
                                                    "signature")
    ds = make_dataset({"q": "retry policy logo"}, files=files)
    logo = ds.corpus.index["media/retry-logo.ai"]
    for model_id, candidate in (("codeledger", False), ("codeledger-document", True)):
        model = get_model(model_id)
        params = model.schema.resolve({})
        prep = model.prepare(ds, params)
        assert (prep.pair_of(0, logo) is not None) is candidate, model_id
    model = get_model("codeledger")
    params = model.schema.resolve({})
    prep = model.prepare(ds, params)
    assert model.not_a_candidate(prep, ds, 0, logo, params).startswith(
        "left out as binary: its content opens with the PDF signature, and "
        "skip_marked_binary is on")
    # switched off, it is a candidate again
    off = model.schema.resolve({"skip_marked_binary": False})
    assert model.prepare(ds, off).pair_of(0, logo) is not None
