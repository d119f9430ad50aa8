"""`workbench cache`: what the on-disk caches hold, and trimming or clearing them by hand."""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from typing import Any

from workbench.cli.common import EXIT_FAIL, EXIT_OK, UsageError
from workbench.core.sizes import bytes_text
from workbench.core.store import cache_dir
from workbench.core.store.state_file import sweep_stale_temps
from workbench.core.store.trim import (
    LIMIT_ENV,
    STATE_FOLDERS,
    cache_limit,
    parse_size,
    trim,
    usage,
)
from workbench.textout import format_table

CLEARABLE = (*STATE_FOLDERS, "embeddings", "sample-repos")
WHAT = {"prepared": "models' prepared state per dataset and parameters, and the "
                     "documents' BM25 postings per corpus",
        "repo-index": "repository indexes per commit",
        "embeddings": "embedded texts per encoder and prompt; never trimmed",
        "sample-repos": "sample repositories built from their history",
        "studies.db": "tuning studies: never removed here"}


def add_commands(sub: Any) -> None:
    p = sub.add_parser("cache", help="what the on-disk caches hold; trim or clear them",
                       description="What each part of the cache folder holds. prepared/ and "
                       f"repo-index/ are kept under ${LIMIT_ENV} each (default 8G; 0 keeps "
                       "everything), least recently used first, whenever a state is saved. "
                       "Sizes are in binary units, shown as GiB, MiB, KiB: 8G = 8GiB = 8 × "
                       "1024³ bytes (8GB, with a B, is 8 × 1000³).")
    p.add_argument("--trim", nargs="?", const="", metavar="SIZE",
                   help=f"trim prepared/ and repo-index/ now, each to SIZE (such as 8G: a unit is "
                   f"needed, 8B for bytes; default ${LIMIT_ENV}), least recently used first; 0 "
                   "removes every state")
    p.add_argument("--clear", choices=(*CLEARABLE, "all"), action="append", default=[],
                   help="remove everything a part holds (repeatable; all: every part but "
                   "the tuning studies); it is made again when needed")
    p.set_defaults(func=cmd_cache)


TRIM_TEMP_S = 600  # --trim removes a temporary file unchanged this long: its writer is gone


def cmd_cache(args: argparse.Namespace) -> int:
    from workbench.core.store import cache_unusable

    if args.trim:
        _refuse_bare_number(args.trim)
    failed = False
    unusable = cache_unusable()
    if unusable is not None:  # said first: every other command warns of it too
        print(f"warning: the cache folder cannot be written ({unusable}): nothing is cached; "
              "set $WORKBENCH_CACHE_DIR to a folder you can write", file=sys.stderr)
    if args.trim is not None:
        limit = (parse_size(args.trim, "--trim", "0 removes every state not in use")
                 if args.trim else cache_limit())
        for name in STATE_FOLDERS:
            # what killed writers left (a live one writes on: unchanged for minutes, gone)
            temps, temp_bytes = sweep_stale_temps(cache_dir() / name, TRIM_TEMP_S)
            done = trim(cache_dir() / name, limit, recent_s=0.0)
            print(f"{name}: removed {done.removed:,} state{'' if done.removed == 1 else 's'} "
                  f"({bytes_text(done.freed)}); {bytes_text(done.kept_bytes)} kept"
                  + (f"; could not remove {done.failed:,} ({done.why})" if done.failed
                     else "")
                  + (f"; and {temps:,} unfinished write{'' if temps == 1 else 's'} a killed "
                     f"process left ({bytes_text(temp_bytes)})" if temps else ""))
            failed = failed or done.failed > 0
    parts = set(CLEARABLE) if "all" in args.clear else set(args.clear)
    for name in CLEARABLE:
        if name in parts:
            path = cache_dir() / name
            try:
                shutil.rmtree(path)
            except FileNotFoundError:
                print(f"{name}: nothing to clear")
                continue
            except OSError as exc:
                raise UsageError(f"cannot clear {path}: {exc.strerror or exc}") from None
            print(f"{name}: cleared")
    limit = cache_limit()
    print(f"cache folder: {cache_dir()} ($WORKBENCH_CACHE_DIR moves it)")
    rows = []
    for part in usage():
        note = WHAT[part.name]
        if part.name in STATE_FOLDERS:
            note += (f"; kept under {bytes_text(limit)}" if limit else "; not trimmed "
                     f"(${LIMIT_ENV}=0)")
        rows.append([part.name, f"{part.files:,}", bytes_text(part.size) if part.files else "—",
                     note])
    print(format_table(["part", "files", "size", "what"], rows))
    _print_stores()
    return EXIT_FAIL if failed else EXIT_OK


def _refuse_bare_number(text: str) -> None:
    """A --trim size without a unit, other than 0, refused before anything is removed: read
    as bytes (coreutils' rule), `--trim 8` had trimmed every state away without a word."""
    if re.fullmatch(r"\s*(\d+\.?\d*|\.\d+)\s*", text) and float(text) != 0:
        number = text.strip()
        raise UsageError(f"--trim {number}: give a unit: e.g. {number}G (a bare number is "
                         f"bytes, which would remove nearly every state; {number}B if bytes are "
                         "meant, 0 to remove every state not in use); nothing removed")


def _known_prompts() -> dict[str, str]:
    """Prompt hash (as a store's folder name ends) → prompt, for no prompt and every model's
    default prompts."""
    import hashlib

    from workbench.core.models import get_model, model_ids

    prompts = {""}
    for mid in model_ids():
        schema = get_model(mid).schema
        prompts.update(str(schema[n].default) for n in ("query_prompt", "document_prompt")
                       if n in schema)
    return {hashlib.sha256(p.encode("utf-8")).hexdigest()[:16]: p for p in prompts}


def _print_stores() -> None:
    """The embedding stores one by one: which encoder and prompt each holds (its folder name
    carries only a hash of the prompt), how many vectors, how large."""
    from workbench.core.store.embeddings import store_summaries

    stores = store_summaries(cache_dir() / "embeddings")
    if not stores:
        return
    print("\nembedding stores (one per encoder and prompt; `cache --clear embeddings` removes "
          "them all, or delete a store's folder)")
    known = _known_prompts()
    rows = []
    for s in stores:
        # a store made before about.json (or whose about.json is damaged): its folder's
        # prompt hash, matched against the prompts the models use by default
        prompt = s.prompt if s.prompt is not None else known.get(s.folder.name.rsplit("-")[-1])
        said = ("(not recorded: made by an earlier version)" if prompt is None
                else repr(prompt) if prompt else "(none)")
        if s.about_unreadable:
            said = ("(about.json unreadable)" if prompt is None
                    else f"{said} (by its hash; about.json unreadable)")
        rows.append([s.folder.name, s.encoder, said,
                     f"{s.vectors:,}" + (f" + {s.damaged:,} damaged file"
                                         f"{'' if s.damaged == 1 else 's'}" if s.damaged
                                         else ""),
                     bytes_text(s.size)])
    print(format_table(["folder", "encoder", "prompt", "vectors", "size"], rows))
    damaged = sum(s.damaged for s in stores)
    if damaged:
        one = damaged == 1
        print(f"({damaged:,} damaged file{'' if one else 's'}, cut short or not a shard: "
              f"{'its' if one else 'their'} vectors are not counted; the store drops "
              f"{'it' if one else 'them'} when next used and {'its' if one else 'their'} texts "
              "are embedded again)")


__all__ = ["add_commands", "cmd_cache"]
