"""A synthetic pi-lodestone decision memory of a chosen size, for timing `decision-memory`'s
live path where no real memory that large exists.

Documents are shaped exactly as `formats.pi_memory.decision_document` makes them from
`decisions.jsonl` records: id, title, text, tags, and in metadata every other key of the record
with its on-disk type (createdAt / updatedAt ISO UTC with milliseconds and `Z`, cwd under
`/home/dev/repos/<project>/…`, project, source manual / extracted / turn, important, archived,
kbPath, supersedes / supersededBy / conflictsWith, retrievalCount, injectionCount). Words come
from a Zipf distribution over a made-up vocabulary of software words (base words, hyphenated
compounds, paths, versions), so exact, tag and partial (substring) matches all occur.

Queries are shaped as `formats.pi_memory_injections.injection_queries` makes logged turns:
a user prompt (filler words the compaction drops, and content words), context cwd, now (the
turn's ts), prompt, for_injection, injected_ids / injected_scores (empty). Judgments are five
random decisions per query: the figures mean nothing, the bench only times the live path.
Deterministic per seed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet

BASE_WORDS = (
    "cache config build release deploy test bench parser lexer token index query search "
    "render template theme plugin module crate package runtime server client request response "
    "handler router middleware schema migration database table column index row cursor "
    "transaction lock mutex thread worker queue channel stream buffer socket timeout retry "
    "backoff logging tracing metrics span error panic result option future async await "
    "callback promise closure trait struct enum interface generic macro lint format clippy "
    "rustfmt prettier eslint cargo npm pnpm yarn docker image container volume network proxy "
    "nginx tls certificate auth session cookie jwt oauth permission role user account billing "
    "invoice payment webhook event emitter listener store state reducer selector component "
    "layout style css html markdown frontmatter toml yaml json serde codec compression gzip "
    "brotli hash blake3 sha256 checksum manifest lockfile dependency version semver changelog "
    "branch merge rebase review ci pipeline workflow action runner artifact upload download "
    "bucket s3 storage disk file path directory watcher incremental snapshot golden fixture "
    "mock stub fuzz property benchmark profile flamegraph allocation memory leak gc heap "
    "stack frame debug release optimize inline vectorize simd wasm wasmtime sandbox shell "
    "command flag argument env variable secret vault key rotation backup restore replica "
    "shard partition cluster node leader follower raft consensus gossip heartbeat health "
    "probe readiness liveness deployment rollout rollback canary feature toggle experiment "
    "sitemap feed atom rss redirect url slug locale i18n translation font icon asset bundle "
    "minify sourcemap hydration ssr static dynamic route endpoint graphql grpc protobuf rest "
    "pagination cursor filter sort ranking score weight boost decay threshold limit budget "
    "embedding vector cosine similarity tokenizer stemmer stopword bm25 tfidf recall precision "
    "latency throughput p95 quota rate limiter scheduler cron job batch chunk window offset "
    "decision preference workflow implementation manual important").split()
TOP_LEVEL = ("src", "lib", "crates", "packages", "docs", "tests", "scripts", "config")
EXTS = ("rs", "ts", "py", "go", "toml", "yaml", "md", "json")
PROJECT_PARTS = ("quill", "harbor", "atlas", "beacon", "cinder", "delta", "ember", "flux",
                 "granite", "helix", "iris", "juniper", "kestrel", "lumen", "meridian", "nimbus",
                 "onyx", "prism", "quartz", "raven", "sierra", "tundra", "umbra", "vertex")
OPERATIONAL = ("Read", "Ran", "Executed", "Wrote", "Edited", "Listed", "Searched", "Fetched",
               "Opened")
NEAR_MISS = ("Ranked", "Reading", "Redirect", "Listing", "Written")
DURABLE = ("decision", "preference", "workflow")
# prompt words the injection hook drops (stop words and its extra stop words) and glue
FILLER = ("why does the", "how should we", "can you check", "let me know if", "please fix",
          "what is the plan for", "make sure the", "review the", "is there a gap in",
          "we need to", "next steps for", "when did we", "again the", "and then", "for the")
SUFFIXES = ("er", "ers", "ing", "ed", "s", "ctl", "db", "kit", "lib", "rs", "js", "d", "fs",
            "ops", "gen", "sync", "ref", "x")
SYLLABLES = ("kv", "db", "ix", "log", "net", "fs", "io", "sync", "rpc", "auth", "cfg", "gen",
             "pool", "map", "ref", "dev", "ops", "tx", "msg", "sql", "cli", "api", "blob",
             "store", "task", "run", "web", "doc", "ui", "lib", "zed", "quo", "vex", "arc",
             "orb", "nyx", "pax", "rho", "tau", "sig", "ion", "dex", "hub", "mux", "nav")
T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
DAY_S = 86400.0


def _iso(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def _vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    """Software words, the most frequent; then words made from them (`cacher`, `routekit`);
    then compounds of these (`cache-key`, `parse_opts`), paths and versions; each group in a
    random order."""
    base = list(dict.fromkeys(BASE_WORDS))
    seen = set(base)
    while len(base) < size // 6:  # made-up identifiers: `kvpool`, `txmsg`
        w = "".join(SYLLABLES[int(i)] for i in rng.integers(0, len(SYLLABLES), 2))
        if w not in seen:
            seen.add(w)
            base.append(w)
    derived: list[str] = []
    while len(base) + len(derived) < size // 3:
        w = base[int(rng.integers(0, len(base)))] + SUFFIXES[int(rng.integers(0, len(SUFFIXES)))]
        if w not in seen:
            seen.add(w)
            derived.append(w)
    simple = base + derived
    compounds: list[str] = []
    while len(simple) + len(compounds) < size:
        kind = int(rng.integers(0, 10))
        a, b = (simple[int(i)] for i in rng.integers(0, len(simple), 2))
        if kind < 6:
            w = f"{a}-{b}"
        elif kind < 8:
            w = f"{a}_{b}"
        elif kind < 9:
            w = (f"{TOP_LEVEL[int(rng.integers(0, len(TOP_LEVEL)))]}/{a}/"
                 f"{b}.{EXTS[int(rng.integers(0, len(EXTS)))]}")
        else:
            w = f"{a}-v{int(rng.integers(0, 5))}.{int(rng.integers(0, 20))}"
        if w not in seen:
            seen.add(w)
            compounds.append(w)
    return [g[int(i)] for g in (base, derived, compounds) for i in rng.permutation(len(g))]


@dataclass(frozen=True)
class _Project:
    name: str
    cwds: list[str]  # the root and a few folders under it
    topic: list[str]  # words its decisions and prompts use more than others


def _projects(n: int, rng: np.random.Generator, vocab: list[str]) -> list[_Project]:
    out = []
    for i in range(n):
        a, b = PROJECT_PARTS[i % len(PROJECT_PARTS)], PROJECT_PARTS[(i * 7 + 3) % len(
            PROJECT_PARTS)]
        name = a if i < len(PROJECT_PARTS) else f"{a}-{b}{i // len(PROJECT_PARTS)}"
        root = f"/home/dev/repos/{name}"
        subs = [f"{root}/{TOP_LEVEL[int(j)]}" for j in rng.choice(len(TOP_LEVEL), 3,
                                                                   replace=False)]
        topic = [vocab[int(j)] for j in rng.integers(100, min(4000, len(vocab)), 40)]
        out.append(_Project(name, [root, *subs, f"{subs[0]}/{name}-core"], topic))
    return out


def _with_topic(words: list[str], topic: list[str], share: float,
                rng: np.random.Generator) -> list[str]:
    """`words` with about `share` of them replaced by the project's topic words."""
    for k in np.flatnonzero(rng.random(len(words)) < share):
        words[int(k)] = topic[int(rng.integers(0, len(topic)))]
    return words


class _Words:
    """Zipf-distributed draws over the vocabulary, in blocks (one rng call per block)."""

    def __init__(self, vocab: list[str], rng: np.random.Generator, block: int = 1 << 16
                 ) -> None:
        self.vocab, self.rng, self.block = np.asarray(vocab), rng, block
        p = 1.0 / np.arange(1, len(vocab) + 1) ** 1.05
        self.cdf = np.cumsum(p / p.sum())
        self.buf: list[str] = []
        self.at = 0

    def take(self, n: int) -> list[str]:
        if self.at + n > len(self.buf):
            idx = np.searchsorted(self.cdf, self.rng.random(self.block + n), side="right")
            self.buf = self.buf[self.at:] + self.vocab[np.minimum(idx, len(self.vocab) - 1)
                                                       ].tolist()
            self.at = 0
        out = self.buf[self.at:self.at + n]
        self.at += n
        return out

    def band(self, n: int, lo: int, hi: int) -> list[str]:
        """`n` words of frequency rank in [lo, hi), uniformly (a query's content words)."""
        hi = min(hi, len(self.vocab))
        out: list[str] = self.vocab[self.rng.integers(min(lo, hi - 1), hi, n)].tolist()
        return out


def _sentence(words: list[str]) -> str:
    return words[0].capitalize() + " " + " ".join(words[1:]) + "." if words else ""


def _decision(i: int, n: int, draw: _Words, rng: np.random.Generator,
              projects: list[_Project]) -> Document:
    project = projects[int(rng.integers(0, len(projects)))]
    name, cwds, topic = project.name, project.cwds, project.topic
    created = T0 - dt.timedelta(seconds=float(rng.uniform(600, 400 * DAY_S)))
    updated = created + dt.timedelta(seconds=float(rng.uniform(0, 20 * DAY_S))) \
        if rng.random() < 0.3 else created
    u = rng.random()
    source = "manual" if u < 0.25 else "extracted" if u < 0.88 else "turn"
    title_words = _with_topic(draw.take(int(rng.integers(3, 9))), topic, 0.3, rng)
    r = rng.random()
    prefix = (OPERATIONAL[int(rng.integers(0, len(OPERATIONAL)))] if r < 0.06
              else NEAR_MISS[int(rng.integers(0, len(NEAR_MISS)))] if r < 0.08 else "")
    title = (f"{prefix} " if prefix else "") + " ".join(title_words)
    title = title[0].upper() + title[1:]
    sentences = []
    for _ in range(int(rng.integers(1, 5))):
        sentences.append(_sentence(_with_topic(draw.take(int(rng.integers(6, 22))), topic,
                                                 0.1, rng)))
    text = " ".join(sentences)
    tags = [DURABLE[int(rng.integers(0, 3))]] if rng.random() < 0.8 else []
    tags += _with_topic(draw.take(int(rng.integers(0, 4))), topic, 0.5, rng)
    meta: dict[str, object] = {
        "createdAt": _iso(created), "updatedAt": _iso(updated),
        "cwd": cwds[int(rng.integers(0, len(cwds)))] if rng.random() < 0.95 else "",
        "project": name, "source": source, "important": bool(rng.random() < 0.08),
        "archived": bool(rng.random() < 0.03),
        "retrievalCount": int(rng.poisson(1.5)), "injectionCount": int(rng.poisson(2.5)),
    }
    if rng.random() < 0.06:
        meta["kbPath"] = f"kb/{name}/{title_words[0]}-{i}.md"
    if i > 0 and rng.random() < 0.03:
        meta["supersedes"] = [f"dec-{int(rng.integers(0, i)):06d}"]
    if i + 1 < n and rng.random() < 0.03:
        meta["supersededBy"] = f"dec-{int(rng.integers(i + 1, n)):06d}"
    if rng.random() < 0.01:
        meta["conflictsWith"] = [f"dec-{int(rng.integers(0, n)):06d}"]
    return Document(id=f"dec-{i:06d}", title=title, text=text, tags=tuple(dict.fromkeys(tags)),
                    metadata=meta)


def _prompt(draw: _Words, rng: np.random.Generator, topic: list[str]) -> str:
    parts = []
    for _ in range(int(rng.integers(1, 3))):
        parts.append(FILLER[int(rng.integers(0, len(FILLER)))])
        k = int(rng.integers(2, 5))
        words = _with_topic(draw.band(k, 100, 4000), topic, 0.5, rng)
        if rng.random() < 0.3:
            words[0] = draw.take(1)[0]  # now and then a frequent word
        parts.append(" ".join(words))
    return " ".join(parts) + "?"


def synthetic_decisions(n_decisions: int, n_queries: int, seed: int = 7, *,
                        vocab_size: int = 12000, n_projects: int = 40) -> Dataset:
    """`n_decisions` decision Documents (titles of 3–8 words, texts of 1–4 sentences, 0–3
    specific tags and, on 80 %, a durable one) over `n_projects` projects, created up to 400
    days before 2026-06-01T12:00:00.000Z, and `n_queries` logged injection prompts (2–15
    content words among filler) from one of those cwds, at most 30 days later."""
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(vocab_size, rng)
    draw = _Words(vocab, rng)
    projects = _projects(n_projects, rng, vocab)
    docs = [_decision(i, n_decisions, draw, rng, projects) for i in range(n_decisions)]
    queries: list[Query] = []
    qrels: dict[str, dict[str, int]] = {}
    for qi in range(n_queries):
        project = projects[int(rng.integers(0, len(projects)))]
        ts = T0 + dt.timedelta(seconds=float(rng.uniform(0, 30 * DAY_S)))
        qid = f"turn-{qi + 1}"
        queries.append(Query(qid, _prompt(draw, rng, project.topic), {
            "cwd": project.cwds[int(rng.integers(0, len(project.cwds)))], "now": _iso(ts),
            "prompt": True, "for_injection": True, "injected_ids": [], "injected_scores": []}))
        judged = rng.choice(n_decisions, size=min(5, n_decisions), replace=False)
        qrels[qid] = {f"dec-{int(d):06d}": int(g)
                      for d, g in zip(judged, rng.integers(0, 3, len(judged)), strict=True)}
    name = f"synthetic-decisions-{n_decisions}x{n_queries}"
    return Dataset(name, Corpus(docs, name=name), QuerySet(queries, name=name), qrels,
                   source="synthetic")
