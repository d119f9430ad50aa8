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
        f"bzip2 -d {disk / 'c-latimes.bz2'}, then move the zip and tar archives out of the "
        "folder) if they hold documents",
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
                    said.index(", then move")]
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
        f"read: unpack them first (unzip -d {disk} {disk / 'disk4.zip'}; tar -xf "
        f"{disk / 'disk5.tar.gz'} -C {disk}, then move them out of the folder)")


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
        f"(unzip -d {disk} {disk / 'disk4.dat'}, then move it out of the folder) if it holds "
        "documents",
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


def compress_z(data: bytes) -> bytes:
    """`data` as Unix compress writes it (.Z): the magic number, 16 bits at most, block mode,
    then each byte as a 9-bit literal code, least significant bit first. The codes LZW would
    add to its table are never used, which a reader allows (`gzip -d` reads it back)."""
    assert len(data) < 250  # 9-bit codes only: the table stays under 512 entries
    bits = sum(byte << (9 * i) for i, byte in enumerate(data))
    return b"\x1f\x9d\x90" + bits.to_bytes((9 * len(data) + 7) // 8, "little")


def test_unix_compress_files_are_refused_with_how_to_decompress_them(tmp_path: Path) -> None:
    """A .Z or .0z file (the TREC disks' own packing) beside TREC text refuses the folder with
    the command that decompresses it, as before archives were skipped: never passed over
    as "binary" (dr1 1)."""
    packed = compress_z(doc("AP-2", "tea @ tea"))
    assert b"\0" in packed  # as in most compress files: it had made them "binary"
    if shutil.which("gzip") is not None:  # the bytes are a real compress file
        assert subprocess.run(["gzip", "-dc"], input=packed, capture_output=True,
                              check=True).stdout == doc("AP-2", "tea @ tea")
    for name in ("AP880213.Z", "FR940104.0z"):
        disk = folder_of(tmp_path / name, {"ap/ap880212": doc("AP-1", "green tea"),
                                           f"ap/{name}": packed})
        with pytest.raises(FormatError) as info:
            load_dataset(disk)
        suffix = name[name.rindex("."):]
        assert f"compressed with Unix compress ({suffix}), which is not read: decompress it " \
               f"first (this file: gzip -d -S {suffix} {name};" in str(info.value)


@pytest.mark.skipif(shutil.which("gzip") is None, reason="needs gzip")
def test_a_compress_file_without_its_name_is_said_with_a_command_that_works(
        tmp_path: Path) -> None:
    """Unix compress told by its bytes (a name without .Z) is said as such, with a command
    that decompresses it; run, the folder reads its documents (dr1 1)."""
    disk = folder_of(tmp_path / "disk", {"ap/ap880212": doc("AP-1", "green tea"),
                                         "ap/ap880213": compress_z(doc("AP-2", "tea"))})
    said = load_warnings(load_dataset(disk))
    assert said == [f"a Unix compress file not named .Z of the TREC folder skipped, not read ("
                    f"{disk / 'ap' / 'ap880213'}): unpack it (mv {disk / 'ap' / 'ap880213'} "
                    f"{disk / 'ap' / 'ap880213.Z'} && gzip -d {disk / 'ap' / 'ap880213.Z'}) "
                    "if it holds documents"]
    subprocess.run(["sh", "-c", _commands(said[0])], check=True, capture_output=True)
    assert sorted(load_dataset(disk).corpus.ids) == ["AP-1", "AP-2"]


def test_a_named_pipe_in_the_folder_is_never_opened(tmp_path: Path) -> None:
    """A named pipe among the files is refused, as it was, without opening it: the load had
    waited for a writer for ever (dr1 2)."""
    import os
    import threading

    disk = folder_of(tmp_path / "disk", {"ap880212": doc("AP-1", "green tea")})
    os.mkfifo(disk / "pipe")
    said: list[str] = []

    def load() -> None:
        try:
            load_dataset(disk)
        except FormatError as exc:
            said.append(str(exc))

    loading = threading.Thread(target=load, daemon=True)
    loading.start()
    loading.join(20)
    if loading.is_alive():  # set the stuck reader free before failing
        os.close(os.open(disk / "pipe", os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("the load opened the named pipe and waited for a writer")
    assert said == [f"{disk / 'pipe'}: a named pipe (FIFO), not a file of TREC documents"]


def _commands(said: str) -> str:
    return said[said.index("unpack it (") + len("unpack it ("):said.rindex(") if it holds")]


@pytest.mark.parametrize("tool", ["xz", "zstd"])
def test_xz_and_zstd_told_by_their_bytes_get_a_command_that_works(
        tmp_path: Path, tool: str) -> None:
    """An xz or zstd file named without .xz or .zst (`LA010189`): the command said renames it
    first, as both tools refuse a name without their suffix; run as said, from another folder,
    the folder then reads its documents (dr1 3)."""
    if shutil.which(tool) is None:
        pytest.skip(f"needs {tool}")
    packed = subprocess.run([tool, "-c"], input=doc("LA-1", "black tea"), check=True,
                            capture_output=True).stdout
    disk = folder_of(tmp_path / "disk", {"ap880212": doc("AP-1", "green tea"),
                                         "LA010189": packed})
    said = load_warnings(load_dataset(disk))
    assert said[0].startswith(f"an {tool}-compressed file" if tool == "xz"
                              else "a zstd-compressed file")
    subprocess.run(["sh", "-c", _commands(said[0])], check=True, capture_output=True, cwd="/")
    assert sorted(load_dataset(disk).corpus.ids) == ["AP-1", "LA-1"]
    assert load_warnings(load_dataset(disk)) == []


def test_utf16_without_a_byte_order_mark_is_said_as_utf16(tmp_path: Path) -> None:
    """UTF-16 text without its mark (every other byte NUL) is said as UTF-16 to save as
    UTF-8, as with the mark, not as "binary (NUL bytes)" (dr1 8)."""
    disk = folder_of(tmp_path / "disk", {
        "ap880212": doc("AP-1", "green tea"),
        "le": doc("AP-2", "tea").decode().encode("utf-16-le"),
        "be": doc("AP-3", "tea").decode().encode("utf-16-be")})
    assert load_warnings(load_dataset(disk)) == [
        f"2 file(s) of the TREC folder skipped as not text, not read ({disk / 'be'}: UTF-16 "
        f"text without a byte order mark, it seems: save it as UTF-8, {disk / 'le'}: UTF-16 "
        "text without a byte order mark, it seems: save it as UTF-8)"]


def test_an_empty_file_named_as_an_archive_is_said_empty(tmp_path: Path) -> None:
    """An empty `disk4.zip` or `la.bz2` is said to be empty, with no command to unpack it (unzip
    fails on it) (dr1 10)."""
    disk = folder_of(tmp_path / "disk", {"ap880212": doc("AP-1", "green tea"),
                                         "disk4.zip": b"", "la.bz2": b""})
    assert load_warnings(load_dataset(disk)) == [
        f"2 empty file(s) (0 bytes) of the TREC folder skipped, named as archives or "
        f"compressed files but holding nothing ({disk / 'disk4.zip'}, {disk / 'la.bz2'})"]


@pytest.mark.skipif(shutil.which("unzip") is None or shutil.which("bzip2") is None,
                    reason="needs unzip and bzip2")
def test_the_commands_work_from_any_folder_and_say_to_move_the_archive(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder given by a relative path: the commands name the files by their absolute
    paths, so they work from any folder, and say to move the archive out once unpacked (else
    it is warned of again) (dr1 9, 11)."""
    monkeypatch.chdir(tmp_path)
    folder_of(tmp_path / "my trec", {"ap880212": doc("AP-1", "green tea"),
                                     "disk4.zip": zip_of("la/la010189", doc("LA-1", "tea")),
                                     "fb.bz2": bz2.compress(doc("LA-2", "tea"))})
    said = load_warnings(load_dataset("my trec"))[0]
    disk = tmp_path / "my trec"
    assert said.endswith(
        f"unpack them (unzip -d '{disk}' '{disk / 'disk4.zip'}'; bzip2 -d '{disk / 'fb.bz2'}'"
        ", then move the zip archives out of the folder) if they hold documents")
    commands = said[said.index("unpack them (") + len("unpack them ("):
                    said.index(", then move")]
    subprocess.run(["sh", "-c", commands], check=True, capture_output=True, cwd="/")
    assert sorted(load_dataset("my trec").corpus.ids) == ["AP-1", "LA-1", "LA-2"]
    assert load_warnings(load_dataset("my trec"))[0].startswith(
        f"a zip archive of the TREC folder skipped, not read (my trec/disk4.zip): unpack it ("
        f"unzip -d '{disk}' '{disk / 'disk4.zip'}', then move it out of the folder)")
