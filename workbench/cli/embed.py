"""`workbench embed`: fill the embedding cache with what a model's prepare reads (its
documents' fields and its queries' text, with its encoder and prompts), so the next `eval` or
`gui` on the same data embeds nothing."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from workbench.cli.args import whole
from workbench.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    UsageError,
    add_data,
    add_model,
    load_data,
    model_and_params,
)
from workbench.core.data import Dataset, Query, QuerySet
from workbench.core.embeddings import DEFAULT_MODEL, DEVICES, PROMPT_PRESETS, Workers, prompt_text
from workbench.core.engine import Progress
from workbench.core.params import Params
from workbench.textout import progress_bar


def add_commands(sub: Any) -> None:
    p = sub.add_parser("embed", help="embed what a model reads (its document fields and "
                       "queries, with its encoder and prompts) into the on-disk cache")
    add_data(p, judgments=False)
    add_model(p, default="dense", checked=False)  # its message names --embedding-model
    p.add_argument("--embedding-model", metavar="MODEL",
                   help=f"the encoder: a local folder or package (default: the model's "
                   f"embedding_model, {DEFAULT_MODEL})")
    p.add_argument("--fields", choices=("title+text", "text"),
                   help="what of each document is embedded (the model's fields parameter)")
    p.add_argument("--prompt", help="the model's document_prompt, and its query_prompt too "
                   "unless --query-prompt is given (the two sides alike): text, or a preset "
                   "name: " + ", ".join(repr(k) for k in PROMPT_PRESETS))
    p.add_argument("--query-prompt", help="the model's query_prompt alone: text, or a preset "
                   "name, as --prompt")
    p.add_argument("--batch-size", type=whole(1), metavar="N",
                   help="texts per encoder call (the model's batch_size parameter; "
                   "default 64)")
    p.add_argument("--processes", type=whole(0), default=1, metavar="N",
                   help="worker processes that encode (sentence-transformers' multi-process "
                   "pool); 0: one per CPU core, one per GPU on CUDA (default 1)")
    p.add_argument("--device", choices=DEVICES, default="auto",
                   help="where to encode: auto (CUDA when torch sees a GPU, else the CPU), "
                   "cpu or cuda (default auto); the cache is the same")
    p.add_argument("--documents-only", action="store_true",
                   help="embed the documents alone, not the queries (the queries of a "
                   "later query set are embedded when it is opened)")
    p.set_defaults(func=cmd_embed, qrels=None)


EMBED_SHORTHANDS = (("embedding_model", "embedding_model"), ("fields", "fields"),
                    ("document_prompt", "prompt"), ("query_prompt", "query_prompt"),
                    ("batch_size", "batch_size"))


def cmd_embed(args: argparse.Namespace) -> int:
    """Fill the embedding cache with what a model's prepare reads: its documents' fields and
    its queries' text, with its encoder and prompts, so the next `eval`/`gui` embeds nothing."""
    import time

    from workbench.core.embeddings import cache_counts, embed_texts, get_encoder, kept_earlier
    from workbench.core.models import get_model, model_ids
    from workbench.core.store import cache_dir

    try:
        model = get_model(args.model)
    except KeyError:
        raise UsageError(f"--model {args.model}: no such model (valid: "
                         f"{', '.join(model_ids())}); the encoder is --embedding-model") from None
    given = {name: getattr(args, option) for name, option in EMBED_SHORTHANDS
             if getattr(args, option) is not None}
    for name in ("document_prompt", "query_prompt"):  # a preset's name, each side, as -p
        if name in given:  # and a parameter file read it (prompt_text)
            given[name] = prompt_text(str(given[name]))
    if "document_prompt" in given:
        given.setdefault("query_prompt", given["document_prompt"])  # --prompt: both sides
    unknown = [n for n in given if n not in model.schema]
    if unknown:
        option = dict(EMBED_SHORTHANDS)[unknown[0]].replace("_", "-")
        raise UsageError(f"--{option}: {model.id} has no parameter {unknown[0]}")
    model, params = model_and_params(args)
    typed = {a.partition("=")[0].strip() for a in args.param or ()}  # -p NAME=VALUE
    both = [n for n in given if n in typed and model.schema[n].validate(given[n]) != params[n]]
    if both:  # the shorthand won without a word
        option = dict(EMBED_SHORTHANDS)[both[0]].replace("_", "-")
        raise UsageError(f"--{option} and -p {both[0]}=… give two values: give one")
    params = model.schema.resolve({**params, **given})
    get_encoder(str(params.get("embedding_model", DEFAULT_MODEL)))  # before the data loads
    if not model.embedding_jobs(_probe_dataset(), params):
        embedders = [m for m in model_ids() if get_model(m).embedding_jobs(
            _probe_dataset(), get_model(m).schema.defaults())]
        why = (" with embeddings=stored (it reads the vectors stored with each memory)"
               if params.get("embeddings") == "stored" else "")
        raise UsageError(f"--model {model.id}: embeds nothing{why}; models that embed: "
                         + ", ".join(embedders))
    with Workers(args.device, args.processes) as workers:
        # a device torch cannot see, or processes for an encoder that has none: said before
        # the data loads
        workers.encoder(get_encoder(str(params.get("embedding_model", DEFAULT_MODEL))))
        dataset = load_data(args)
        jobs = model.embedding_jobs(dataset, params)
        if args.documents_only:
            jobs = [j for j in jobs if j.label == "documents"]
        encoder = get_encoder(jobs[0].model)
        print(f"embedding what {model.id} reads: encoder {encoder.identity}; "
              f"cache {cache_dir() / 'embeddings'}")
        cache_errors: list[str] = []
        docs = next((j for j in jobs if j.label == "documents"), None)
        for job in jobs:
            # interrupted while the queries embed: the documents' vectors kept are said, as a
            # model's prepare says them (it had said "none of the 2 queries … was kept" alone)
            earlier = (kept_earlier(docs.texts, model=docs.model, prompt=docs.prompt,
                                    what="documents") if docs is not None and job is not docs
                       else None)
            notes: list[str] = []  # a damaged cache file found on opening, said
            cached, new = cache_counts(job.texts, model=job.model, prompt=job.prompt,
                                       notes=notes)
            t0 = time.perf_counter()
            started: list[float] = []  # when encoding began: the model loaded by then

            with progress_bar(f"embedding {job.label}") as bar:
                def on_progress(fraction: float, message: str, bar: Any = bar,
                                started: list[float] = started) -> None:
                    if not started and message.startswith("embedding"):
                        started.append(time.perf_counter())
                    # the bar's label says "embedding documents" already: its message had
                    # repeated it ("embedding documents: 42% embedding 64/151 documents")
                    bar(fraction, message.removeprefix("embedding "))

                vectors = embed_texts(job.texts, model=job.model, prompt=job.prompt,
                                      batch_size=job.batch_size,
                                      progress=Progress(on_progress=on_progress),
                                      cache_errors=cache_errors, workers=workers,
                                      what=job.label, earlier=earlier)
            for note in notes:
                print(f"note: {note}", file=sys.stderr)
            end = time.perf_counter()
            secs = end - t0
            repeats = len(job.texts) - cached - new  # a text given twice is encoded once
            encoding = end - (started[0] if started else t0)
            load = secs - encoding
            rate = (f", {new / encoding:,.0f} texts/s{_on(workers)}" if new and encoding > 0
                    else "")
            loaded = f" ({load:.1f} s of it loading the model)" if load >= 0.5 else ""
            again = f", {repeats:,} repeating another text" if repeats else ""
            print(f"{job.label}: {len(job.texts):,} texts ({new:,} embedded, {cached:,} from "
                  f"the cache{again}), {vectors.shape[1]} dimensions, {secs:.1f} s{loaded}"
                  f"{rate}; " + (f"prompt {job.prompt!r}" if job.prompt else "no prompt"))
    if cache_errors:  # the cache is embed's only product: a run that could not fill it failed
        for line in cache_errors:
            print(f"workbench embed: error: {line}", file=sys.stderr)
        return EXIT_FAIL
    print(_readers(dataset, model.id, params))
    return EXIT_OK


def _on(workers: Workers) -> str:
    """' on cpu with 2 processes': where the texts were encoded."""
    n = workers.processes_used
    return f" on {workers.device_used} with {n} process{'es' if n > 1 else ''}"


def _probe_dataset() -> Dataset:
    """One document and one query: enough for a model to say whether it embeds anything."""
    from workbench.core.data import Corpus, Document

    return Dataset("", Corpus([Document("d", "probe")]), QuerySet([Query("q", "probe")]))


def _readers(dataset: Dataset, model_id: str, params: Params) -> str:
    """Which models now prepare without embedding anything: the one embedded for at these
    settings (the ones off their defaults said), and any other at its defaults."""
    from workbench.core.embeddings import count_cached
    from workbench.core.models import get_model, model_ids

    def ready(mid: str, p: Params) -> bool:
        return all(count_cached(j.texts, model=j.model, prompt=j.prompt) == len(j.texts)
                   for j in get_model(mid).embedding_jobs(dataset, p))

    model = get_model(model_id)
    changed = [f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}"
               for k, v in model.schema.prepare_values(params).items()
               if v != model.schema[k].default and k != "batch_size"]
    line = f"read by: -m {model_id}" + (f" with {', '.join(changed)}" if changed else
                                         " at its defaults")
    others = [m for m in model_ids() if m != model_id
              and get_model(m).embedding_jobs(dataset, get_model(m).schema.defaults())
              and ready(m, get_model(m).schema.defaults())]
    if others:
        line += f"; also ready: {', '.join(others)} at their defaults"
    return line
