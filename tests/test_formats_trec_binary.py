"""Archives, compressed files and other binary files in a TREC folder (r50 note): passed over
unread, each kind said in one warning naming the files, archives with the command that
unpacks them; a real TREC file is read whatever its name."""

from __future__ import annotations

import bz2
import gzip
import io
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.checks import load_warnings
from workbench.core.data import FormatError
from workbench.core.formats import load_dataset

DOC = "<DOC>\n<DOCNO> {id} </DOCNO>\n<TEXT>\n{text}\n</TEXT>\n</DOC>\n"
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02" + bytes(8)


def doc(doc_id: str, text: str) -> bytes:
    return DOC.format(id=doc_id, text=text).encode()


def tar_of(name: str, data: bytes) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def zip_of(name: str, data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as packed:
        packed.writestr(name, data)
    return out.getvalue()


def folder_of(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def test_binary_files_are_skipped_by_kind_and_real_trec_files_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A zip, a tar, a .bz2, a PDF, a PNG, a gzip-compressed PDF and a file with NUL bytes
    beside the TREC files: the folder loads, the archives are named with the commands that
    unpack them, the other binary files with what each is. A .gz of TREC records and a TREC
    file named .pdf are read."""
    disk = folder_of(tmp_path / "disk", {
        "ap/ap880212": doc("AP-1", "green tea harvest"),
        "ft/ft911.gz": gzip.compress(doc("FT-1", "oolong tea buyers")),
        "fr/fr940104.pdf": doc("FR-1", "federal tea register"),  # TREC, whatever its name
        "MD5SUMS": b"d41d8cd98f00b204e9800998ecf8427e  ap/ap880212\n",
        "a-disk4.zip": zip_of("la/la010189", doc("LA-1", "black tea")),
        "b-fbis.tar": tar_of("fbis/fb396001", doc("FB-1", "tea exports")),
        "c-latimes.bz2": bz2.compress(doc("LA-2", "tea prices")),
        "docs/manual.pdf": PDF,
        "docs/logo.png": PNG,
        "docs/scan.gz": gzip.compress(PDF),
        "docs/index.dat": b"IDX\x00\x01\x02\x00\x00",
    })
    dataset = load_dataset(disk)
    assert sorted(dataset.corpus.ids) == ["AP-1", "FR-1", "FT-1"]
    assert load_warnings(dataset) == [
        f"1 file(s) of the TREC folder hold no <DOC> records and were skipped, as Anserini's "
        f"TrecCollection reads them as no documents ({disk / 'MD5SUMS'})",
        f"3 archives or compressed files of the TREC folder skipped, not read ("
        f"{disk / 'a-disk4.zip'}, {disk / 'b-fbis.tar'}, {disk / 'c-latimes.bz2'}): unpack them "
        f"(unzip -d {disk} {disk / 'a-disk4.zip'}; tar -xf {disk / 'b-fbis.tar'} -C {disk}; "
        f"bzip2 -d {disk / 'c-latimes.bz2'}) if they hold documents",
        f"4 file(s) of the TREC folder skipped as not text, not read ("
        f"{disk / 'docs' / 'index.dat'}: binary (NUL bytes), {disk / 'docs' / 'logo.png'}: a "
        f"PNG image, {disk / 'docs' / 'manual.pdf'}: a PDF, … 1 more)"]
    assert main(["rank", str(disk), "-m", "bm25", "-q", "tea"]) == 0
    captured = capsys.readouterr()
    assert "(3 documents)" in captured.out
    err = " ".join(captured.err.split())
    assert "not UTF-8" not in err
    assert "warning: 4 file(s) of the TREC folder skipped as not text, not read (" in err


@pytest.mark.skipif(shutil.which("unzip") is None or shutil.which("tar") is None
                    or shutil.which("bzip2") is None, reason="needs unzip, tar and bzip2")
def test_the_unpack_commands_said_unpack_the_documents(tmp_path: Path) -> None:
    """Run as said, the warning's commands unpack the archives beside them, and the folder
    then reads their documents."""
    disk = folder_of(tmp_path / "disk 4", {
        "ap/ap880212": doc("AP-1", "green tea harvest"),
        "a.zip": zip_of("la/la010189", doc("LA-1", "black tea")),
        "b.tar": tar_of("fbis/fb396001", doc("FB-1", "tea exports")),
        "c.bz2": bz2.compress(doc("LA-2", "tea prices")),
    })
    said = load_warnings(load_dataset(disk))[0]
    commands = said[said.index("unpack them (") + len("unpack them ("):
                    said.index(") if they hold")]
    subprocess.run(["sh", "-c", commands], check=True, capture_output=True)
    assert sorted(load_dataset(disk).corpus.ids) == ["AP-1", "FB-1", "LA-1", "LA-2"]


def test_a_folder_holding_only_archives_says_how_to_unpack_them(tmp_path: Path) -> None:
    """A collection downloaded packed (a zip and a tar.gz, nothing unpacked) is refused with
    the commands that unpack it, as a folder of .7z files was."""
    disk = folder_of(tmp_path / "disk", {
        "disk4.zip": zip_of("ft/ft911", doc("FT-1", "tea")),
        "disk5.tar.gz": gzip.compress(tar_of("la/la010189", doc("LA-1", "tea"))),
    })
    with pytest.raises(FormatError) as info:
        load_dataset(disk)
    assert str(info.value).endswith(
        "; it holds 2 archives or compressed files (disk4.zip, disk5.tar.gz), which are not "
        "read: unpack them first (in the folder: unzip disk4.zip; tar -xf disk5.tar.gz)")


def test_a_zip_told_by_its_bytes_and_a_docx_not_offered_to_unzip(tmp_path: Path) -> None:
    """A zip without the name (`disk4.dat`) is told by its magic number; a .docx, a zip too,
    is a document, not a collection to unzip."""
    disk = folder_of(tmp_path / "disk", {
        "ap/ap880212": doc("AP-1", "green tea"),
        "disk4.dat": zip_of("ft/ft911", doc("FT-1", "tea")),
        "notes.docx": zip_of("word/document.xml", b"<w:document/>"),
    })
    assert load_warnings(load_dataset(disk)) == [
        f"a zip archive of the TREC folder skipped, not read ({disk / 'disk4.dat'}): unpack it "
        f"(unzip -d {disk} {disk / 'disk4.dat'}) if it holds documents",
        f"1 file(s) of the TREC folder skipped as not text, not read ({disk / 'notes.docx'}: "
        "a packed document (.docx))"]


def test_utf16_text_is_still_said_as_utf16_not_skipped(tmp_path: Path) -> None:
    """UTF-16 text holds NUL bytes, but it is text: its reading says to save it as UTF-8."""
    disk = folder_of(tmp_path / "disk", {
        "ap/ap880212": doc("AP-1", "green tea"),
        "ap/ap880213": "\ufeff".encode("utf-16-le") + doc("AP-2", "tea").decode()
        .encode("utf-16-le"),
    })
    with pytest.raises(FormatError) as info:
        load_dataset(disk)
    assert "UTF-16 text" in str(info.value)
