"""Writes history.fi, the sample repository's git history, to stdout.

The stream is the source of truth and is what ships; this script is how it was written, kept so
that the history can be extended: `python make_history.py > history.fi`, then check that the
tests in tests/test_repo_sample.py still hold (they assert facts of this history).
"""
import sys
from datetime import UTC, datetime, timedelta

AUTH = {
    "alice": ("Alice Moreau", "alice@shorty.dev"),
    "bilal": ("Bilal Khan", "bilal@shorty.dev"),
    "chen": ("Chen Wei", "chen@shorty.dev"),
    "dana": ("Dana Ortiz", "dana@shorty.dev"),
}
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
state: dict[str, str] = {}
commits = []

def commit(who, day, hour, msg, *ops):
    commits.append((who, day, hour, msg, ops))

def put(path, text):
    return ("M", path, text)

def app(path, text):
    return ("A", path, text)

def sub(path, old, new):
    return ("S", path, old, new)

def rm(path):
    return ("D", path)

def mv(old, new):
    return ("R", old, new)

# ---------------------------------------------------------------- files
README = """# shorty

A tiny URL shortener: a Python API (`api/`), a TypeScript client (`client/`) and a Go
command-line tool (`cli/`).
"""
GITIGNORE = "__pycache__/\nnode_modules/\n/cli/shorty\n*.pyc\n"

UTIL_PY = '''"""Helpers for short aliases."""

import secrets
import string

ALPHABET = string.ascii_letters + string.digits


def random_alias(length: int = 7) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))
'''

STORE_PY = '''"""In-memory link store."""

from dataclasses import dataclass, field


@dataclass
class Link:
    alias: str
    target: str
    hits: int = 0


@dataclass
class LinkStore:
    links: dict[str, Link] = field(default_factory=dict)

    def put(self, link: Link) -> None:
        self.links[link.alias] = link

    def get(self, alias: str) -> Link | None:
        return self.links.get(alias)
'''

APP_PY = '''"""HTTP endpoints of the shortener."""

from shorty.store import Link, LinkStore
from shorty.util import random_alias

store = LinkStore()


def create_link(target: str, alias: str | None = None) -> dict:
    alias = alias or random_alias()
    store.put(Link(alias, target))
    return {"alias": alias, "target": target}


def resolve_link(alias: str) -> dict:
    link = store.get(alias)
    if link is None:
        return {"status": 404}
    link.hits += 1
    return {"status": 302, "location": link.target}
'''

TEST_STORE = '''from shorty.store import Link, LinkStore


def test_put_then_get():
    store = LinkStore()
    store.put(Link("abc", "https://example.com"))
    assert store.get("abc").target == "https://example.com"


def test_missing_alias_is_none():
    assert LinkStore().get("nope") is None
'''

TEST_APP = '''from shorty.app import create_link, resolve_link


def test_create_then_resolve():
    made = create_link("https://example.com", alias="ex")
    assert made["alias"] == "ex"
    assert resolve_link("ex")["location"] == "https://example.com"


def test_unknown_alias_is_404():
    assert resolve_link("missing")["status"] == 404
'''

INIT_PY = '"""shorty: a tiny URL shortener."""\n\n__version__ = "0.1.0"\n'
REQS = "pytest>=8\n"

PKG_JSON = """{
  "name": "@shorty/client",
  "version": "0.1.0",
  "type": "module",
  "scripts": {"test": "vitest run"},
  "devDependencies": {"typescript": "^5.4.0", "vitest": "^1.6.0"}
}
"""
CLIENT_TS = """import { ShortyError } from './errors';

export interface ShortLink {
  alias: string;
  target: string;
}

export class ShortyClient {
  constructor(private readonly baseUrl: string) {}

  async createLink(target: string, alias?: string): Promise<ShortLink> {
    const res = await fetch(`${this.baseUrl}/links`, {
      method: 'POST',
      body: JSON.stringify({ target, alias }),
    });
    if (!res.ok) {
      throw new ShortyError(res.status, await res.text());
    }
    return (await res.json()) as ShortLink;
  }
}
"""
ERRORS_TS = """export class ShortyError extends Error {
  constructor(public readonly status: number, message: string) {
    super(message);
    this.name = 'ShortyError';
  }
}
"""
INDEX_TS = "export { ShortyClient } from './client';\nexport type { ShortLink } from './client';\nexport { ShortyError } from './errors';\n"
CLIENT_TEST = """import { describe, expect, it, vi } from 'vitest';
import { ShortyClient } from '../client';

describe('ShortyClient', () => {
  it('posts the target', async () => {
    const fetchMock = vi.fn().mockResolvedValue({ ok: true, json: async () => ({ alias: 'a', target: 't' }) });
    vi.stubGlobal('fetch', fetchMock);
    const link = await new ShortyClient('http://x').createLink('t');
    expect(link.alias).toBe('a');
  });
});
"""
RETRY_TS = """export interface RetryOptions {
  attempts: number;
  delayMs: number;
}

export async function withRetry<T>(fn: () => Promise<T>, opts: RetryOptions): Promise<T> {
  let lastError: unknown;
  for (let i = 0; i < opts.attempts; i++) {
    try {
      return await fn();
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, opts.delayMs * 2 ** i));
    }
  }
  throw lastError;
}
"""
RETRY_SPEC = """import { expect, it } from 'vitest';
import { withRetry } from './retry';

it('returns the first success', async () => {
  let calls = 0;
  const value = await withRetry(async () => { calls++; if (calls < 2) throw new Error('x'); return 5; }, { attempts: 3, delayMs: 0 });
  expect(value).toBe(5);
});
"""
ERRORS_TEST = """import { expect, it } from 'vitest';
import { ShortyError } from '../src/errors';

it('keeps the status', () => {
  expect(new ShortyError(429, 'slow down').status).toBe(429);
});
"""

GOMOD = "module github.com/shorty/cli\n\ngo 1.22\n"
MAIN_GO = """package main

import (
\t"fmt"
\t"os"

\t"github.com/shorty/cli/cmd"
)

func main() {
\tif err := cmd.Run(os.Args[1:]); err != nil {
\t\tfmt.Fprintln(os.Stderr, err)
\t\tos.Exit(1)
\t}
}
"""
RUN_GO = """package cmd

import (
\t"errors"
\t"fmt"
)

// Run dispatches a subcommand.
func Run(args []string) error {
\tif len(args) == 0 {
\t\treturn errors.New("usage: shorty <create|resolve> ...")
\t}
\tswitch args[0] {
\tcase "create":
\t\treturn Create(args[1:])
\tcase "resolve":
\t\treturn Resolve(args[1:])
\t}
\treturn fmt.Errorf("unknown command %q", args[0])
}
"""
CREATE_GO = """package cmd

import (
\t"fmt"

\t"github.com/shorty/cli/internal/config"
\t"github.com/shorty/cli/internal/httpx"
)

// Create shortens a URL.
func Create(args []string) error {
\tif len(args) == 0 {
\t\treturn fmt.Errorf("create needs a URL")
\t}
\tcfg := config.Load()
\talias, err := httpx.New(cfg.BaseURL).CreateLink(args[0])
\tif err != nil {
\t\treturn err
\t}
\tfmt.Println(alias)
\treturn nil
}
"""
RESOLVE_GO = """package cmd

import (
\t"fmt"

\t"github.com/shorty/cli/internal/config"
\t"github.com/shorty/cli/internal/httpx"
)

// Resolve prints the target of an alias.
func Resolve(args []string) error {
\tif len(args) != 1 {
\t\treturn fmt.Errorf("resolve needs exactly one alias")
\t}
\ttarget, err := httpx.New(config.Load().BaseURL).Resolve(args[0])
\tif err != nil {
\t\treturn err
\t}
\tfmt.Println(target)
\treturn nil
}
"""
CREATE_TEST_GO = """package cmd

import "testing"

func TestCreateNeedsURL(t *testing.T) {
\tif err := Create(nil); err == nil {
\t\tt.Fatal("expected an error without a URL")
\t}
}
"""
CONFIG_GO = """package config

import "os"

// Config holds the CLI settings.
type Config struct {
\tBaseURL string
}

// Load reads the settings from the environment.
func Load() Config {
\turl := os.Getenv("SHORTY_URL")
\tif url == "" {
\t\turl = "http://localhost:8000"
\t}
\treturn Config{BaseURL: url}
}
"""
CONFIG_TEST_GO = """package config

import "testing"

func TestLoadDefaultsToLocalhost(t *testing.T) {
\tt.Setenv("SHORTY_URL", "")
\tif got := Load().BaseURL; got != "http://localhost:8000" {
\t\tt.Fatalf("got %q", got)
\t}
}
"""
HTTPX_GO = """package httpx

import (
\t"bytes"
\t"encoding/json"
\t"fmt"
\t"net/http"
)

// Client talks to the shorty API.
type Client struct {
\tbase string
\thttp *http.Client
}

// New returns a client for the API at base.
func New(base string) *Client {
\treturn &Client{base: base, http: &http.Client{}}
}

// CreateLink shortens target and returns the alias.
func (c *Client) CreateLink(target string) (string, error) {
\tbody, _ := json.Marshal(map[string]string{"target": target})
\tres, err := c.http.Post(c.base+"/links", "application/json", bytes.NewReader(body))
\tif err != nil {
\t\treturn "", err
\t}
\tdefer res.Body.Close()
\tvar out struct{ Alias string }
\tif err := json.NewDecoder(res.Body).Decode(&out); err != nil {
\t\treturn "", fmt.Errorf("decode: %w", err)
\t}
\treturn out.Alias, nil
}

// Resolve returns the target of alias.
func (c *Client) Resolve(alias string) (string, error) {
\tres, err := c.http.Get(c.base + "/" + alias)
\tif err != nil {
\t\treturn "", err
\t}
\tdefer res.Body.Close()
\treturn res.Header.Get("Location"), nil
}
"""

# ---------------------------------------------------------------- history
commit("alice", 0, 9, "Initial commit: README and gitignore", put("README.md", README), put(".gitignore", GITIGNORE))
commit("alice", 1, 10, "Add in-memory link store", put("api/shorty/__init__.py", INIT_PY), put("api/shorty/store.py", STORE_PY), put("api/requirements.txt", REQS))
commit("alice", 2, 15, "Add random alias helper", put("api/shorty/util.py", UTIL_PY))
commit("alice", 3, 11, "Add create and resolve endpoints", put("api/shorty/app.py", APP_PY))
commit("bilal", 5, 14, "Add tests for store and endpoints", put("api/tests/test_store.py", TEST_STORE), put("api/tests/test_app.py", TEST_APP))
commit("chen", 8, 10, "Scaffold TypeScript client", put("client/package.json", PKG_JSON), put("client/src/client.ts", CLIENT_TS), put("client/src/errors.ts", ERRORS_TS), put("client/src/index.ts", INDEX_TS))
commit("chen", 9, 16, "Add client test with mocked fetch", put("client/src/__tests__/client.test.ts", CLIENT_TEST))
commit("dana", 12, 9, "Scaffold Go CLI with create command", put("cli/go.mod", GOMOD), put("cli/main.go", MAIN_GO), put("cli/cmd/run.go", RUN_GO.replace('\tcase "resolve":\n\t\treturn Resolve(args[1:])\n', "")), put("cli/cmd/create.go", CREATE_GO), put("cli/internal/config/config.go", CONFIG_GO), put("cli/internal/httpx/client.go", HTTPX_GO.split("// Resolve returns")[0].rstrip() + "\n"))
commit("dana", 14, 13, "Add resolve command to CLI", put("cli/cmd/resolve.go", RESOLVE_GO), put("cli/cmd/run.go", RUN_GO), put("cli/internal/httpx/client.go", HTTPX_GO))
commit("dana", 15, 11, "Test CLI argument checks", put("cli/cmd/create_test.go", CREATE_TEST_GO), put("cli/internal/config/config_test.go", CONFIG_TEST_GO))
commit("alice", 19, 10, "Fix crash when alias is empty",
       sub("api/shorty/app.py", "    alias = alias or random_alias()\n", "    alias = (alias or \"\").strip() or random_alias()\n"),
       app("api/tests/test_app.py", '''

def test_empty_alias_gets_random_one():
    made = create_link("https://example.com", alias="  ")
    assert len(made["alias"]) == 7
'''))
commit("chen", 22, 14, "Add retry with exponential backoff to client", put("client/src/retry.ts", RETRY_TS), put("client/src/retry.spec.ts", RETRY_SPEC))
commit("bilal", 26, 17, "Rename util module to alias", mv("api/shorty/util.py", "api/shorty/alias.py"),
       sub("api/shorty/app.py", "from shorty.util import random_alias", "from shorty.alias import random_alias"))
commit("bilal", 27, 10, "Validate custom aliases",
       app("api/shorty/alias.py", '''

def is_valid_alias(alias: str) -> bool:
    return 3 <= len(alias) <= 32 and all(c in ALPHABET + "-_" for c in alias)
'''), put("api/tests/test_alias.py", '''from shorty.alias import is_valid_alias, random_alias


def test_random_alias_has_length():
    assert len(random_alias(9)) == 9


def test_rejects_short_alias():
    assert not is_valid_alias("ab")
'''))
commit("alice", 33, 11, "Add error types for API failures", put("api/shorty/errors.py", '''"""Errors the API turns into HTTP responses."""


class ShortyError(Exception):
    status = 500


class AliasTakenError(ShortyError):
    status = 409


class InvalidAliasError(ShortyError):
    status = 400


class RateLimitedError(ShortyError):
    status = 429
'''))
commit("alice", 34, 15, "Reject taken and invalid aliases on create",
       sub("api/shorty/app.py", "from shorty.alias import random_alias\n", "from shorty.alias import is_valid_alias, random_alias\nfrom shorty.errors import AliasTakenError, InvalidAliasError\n"),
       sub("api/shorty/app.py", "    store.put(Link(alias, target))\n", "    if not is_valid_alias(alias):\n        raise InvalidAliasError(alias)\n    if store.get(alias) is not None:\n        raise AliasTakenError(alias)\n    store.put(Link(alias, target))\n"))
commit("chen", 38, 10, "Export retry helper from client package", app("client/src/index.ts", "export { withRetry } from './retry';\nexport type { RetryOptions } from './retry';\n"))
commit("chen", 41, 12, "Add tests for client error type", put("client/test/errors.test.ts", ERRORS_TEST))
commit("dana", 45, 9, "Read CLI base URL from config file",
       sub("cli/internal/config/config.go", '\tif url == "" {\n', '\tif url == "" {\n\t\turl = readFile()\n\t}\n\tif url == "" {\n'),
       app("cli/internal/config/config.go", '''
func readFile() string {
\thome, err := os.UserHomeDir()
\tif err != nil {
\t\treturn ""
\t}
\tdata, err := os.ReadFile(home + "/.shortyrc")
\tif err != nil {
\t\treturn ""
\t}
\treturn string(bytes.TrimSpace(data))
}
'''), sub("cli/internal/config/config.go", 'import "os"', 'import (\n\t"bytes"\n\t"os"\n)'))
commit("bilal", 49, 16, "Count hits per alias in the store",
       app("api/shorty/store.py", '''
    def top(self, n: int = 10) -> list[Link]:
        return sorted(self.links.values(), key=lambda link: -link.hits)[:n]
'''), app("api/tests/test_store.py", '''

def test_top_orders_by_hits():
    store = LinkStore()
    store.put(Link("a", "x", hits=1))
    store.put(Link("b", "y", hits=5))
    assert [link.alias for link in store.top()] == ["b", "a"]
'''))
commit("alice", 55, 10, "Add API reference", put("docs/API.md", "# API\n\n`POST /links` creates a link: `{\"target\": url, \"alias\"?: str}`.\n\n`GET /<alias>` redirects.\n\n`GET /stats` lists the top links.\n"))
commit("alice", 58, 14, "Add stats endpoint",
       app("api/shorty/app.py", '''

def stats() -> dict:
    return {"top": [{"alias": link.alias, "hits": link.hits} for link in store.top()]}
'''))
commit("chen", 61, 11, "Fix client crash on empty error body",
       sub("client/src/client.ts", "      throw new ShortyError(res.status, await res.text());\n", "      const text = await res.text().catch(() => '');\n      throw new ShortyError(res.status, text || res.statusText);\n"))
commit("dana", 66, 10, "Handle redirects without Location header in CLI",
       sub("cli/internal/httpx/client.go", '\treturn res.Header.Get("Location"), nil\n', '\tloc := res.Header.Get("Location")\n\tif loc == "" {\n\t\treturn "", fmt.Errorf("alias %q not found", alias)\n\t}\n\treturn loc, nil\n'))

# the large refactor: every Python module gets type-checked signatures and a module logger,
# the client and CLI get license headers (touches most of the repository)
HEADER_TS = "// SPDX-License-Identifier: MIT\n"
HEADER_GO = "// SPDX-License-Identifier: MIT\n\n"
HEADER_PY = "# SPDX-License-Identifier: MIT\n"
big = []
for p in ["api/shorty/__init__.py", "api/shorty/store.py", "api/shorty/alias.py", "api/shorty/app.py", "api/shorty/errors.py",
          "api/tests/test_store.py", "api/tests/test_app.py", "api/tests/test_alias.py"]:
    big.append(("H", p, HEADER_PY))
for p in ["client/src/client.ts", "client/src/errors.ts", "client/src/index.ts", "client/src/retry.ts",
          "client/src/retry.spec.ts", "client/src/__tests__/client.test.ts", "client/test/errors.test.ts"]:
    big.append(("H", p, HEADER_TS))
for p in ["cli/main.go", "cli/cmd/run.go", "cli/cmd/create.go", "cli/cmd/resolve.go", "cli/cmd/create_test.go",
          "cli/internal/config/config.go", "cli/internal/config/config_test.go", "cli/internal/httpx/client.go"]:
    big.append(("H", p, HEADER_GO))
big.append(put("LICENSE", "MIT License\n\nCopyright (c) 2026 The shorty authors\n"))
commit("bilal", 72, 18, "Add SPDX license headers to all source files", *big)

commit("alice", 80, 10, "Add rate limiting to create endpoint", put("api/shorty/ratelimit.py", '''# SPDX-License-Identifier: MIT
"""A fixed-window rate limiter keyed by client address."""

from dataclasses import dataclass, field

from shorty.errors import RateLimitedError


@dataclass
class RateLimiter:
    limit: int = 30
    window_seconds: int = 60
    counts: dict[tuple[str, int], int] = field(default_factory=dict)

    def check(self, client: str, now: float) -> None:
        key = (client, int(now) // self.window_seconds)
        self.counts[key] = self.counts.get(key, 0) + 1
        if self.counts[key] > self.limit:
            raise RateLimitedError(client)
'''), sub("api/shorty/app.py", "from shorty.errors import AliasTakenError, InvalidAliasError\n", "from shorty.errors import AliasTakenError, InvalidAliasError\nfrom shorty.ratelimit import RateLimiter\n"),
       sub("api/shorty/app.py", "store = LinkStore()\n", "store = LinkStore()\nlimiter = RateLimiter()\n"),
       sub("api/shorty/app.py", "def create_link(target: str, alias: str | None = None) -> dict:\n", "def create_link(target: str, alias: str | None = None, client: str = \"local\", now: float = 0.0) -> dict:\n    limiter.check(client, now)\n"))
commit("bilal", 82, 15, "Test rate limiter window", put("api/tests/test_ratelimit.py", '''# SPDX-License-Identifier: MIT
import pytest

from shorty.errors import RateLimitedError
from shorty.ratelimit import RateLimiter


def test_blocks_after_limit():
    limiter = RateLimiter(limit=2)
    limiter.check("a", 0)
    limiter.check("a", 1)
    with pytest.raises(RateLimitedError):
        limiter.check("a", 2)


def test_new_window_resets():
    limiter = RateLimiter(limit=1)
    limiter.check("a", 0)
    limiter.check("a", 61)
'''))
commit("chen", 88, 11, "Retry client requests on 429",
       sub("client/src/client.ts", "import { ShortyError } from './errors';\n", "import { ShortyError } from './errors';\nimport { withRetry } from './retry';\n"),
       sub("client/src/client.ts", "    const res = await fetch(", "    const res = await withRetry(() => fetch("),
       sub("client/src/client.ts", "      body: JSON.stringify({ target, alias }),\n    });\n", "      body: JSON.stringify({ target, alias }),\n    }), { attempts: 3, delayMs: 200 });\n"))
commit("dana", 95, 10, "Add --json output flag to CLI",
       sub("cli/cmd/create.go", '\tfmt.Println(alias)\n', '\tif jsonOutput(args) {\n\t\tfmt.Printf("{\\"alias\\": %q}\\n", alias)\n\t\treturn nil\n\t}\n\tfmt.Println(alias)\n'),
       put("cli/cmd/flags.go", HEADER_GO + '''package cmd

// jsonOutput reports whether --json was given.
func jsonOutput(args []string) bool {
\tfor _, a := range args {
\t\tif a == "--json" {
\t\t\treturn true
\t\t}
\t}
\treturn false
}
'''))
commit("dana", 97, 14, "Test the --json flag", put("cli/cmd/flags_test.go", HEADER_GO + '''package cmd

import "testing"

func TestJSONOutput(t *testing.T) {
\tif !jsonOutput([]string{"x", "--json"}) {
\t\tt.Fatal("expected --json to be seen")
\t}
}
'''))
commit("alice", 103, 9, "Fix alias validation accepting unicode letters",
       sub("api/shorty/alias.py", 'all(c in ALPHABET + "-_" for c in alias)', 'all(c.isascii() and (c.isalnum() or c in "-_") for c in alias)'),
       app("api/tests/test_alias.py", '''

def test_rejects_unicode_alias():
    assert not is_valid_alias("caf\\u00e9-link")
'''))
commit("bilal", 110, 16, "Expire links after a time to live",
       sub("api/shorty/store.py", "    hits: int = 0\n", "    hits: int = 0\n    expires_at: float | None = None\n"),
       sub("api/shorty/store.py", "        return self.links.get(alias)\n", "        return self.links.get(alias)\n\n    def purge(self, now: float) -> int:\n        dead = [a for a, link in self.links.items() if link.expires_at is not None and link.expires_at <= now]\n        for alias in dead:\n            del self.links[alias]\n        return len(dead)\n"),
       app("api/tests/test_store.py", '''

def test_purge_drops_expired():
    store = LinkStore()
    store.put(Link("old", "x", expires_at=5.0))
    store.put(Link("new", "y"))
    assert store.purge(now=10.0) == 1
    assert store.get("new") is not None
'''))
commit("chen", 116, 10, "Add resolveLink to the client",
       sub("client/src/client.ts", "    return (await res.json()) as ShortLink;\n  }\n", "    return (await res.json()) as ShortLink;\n  }\n\n  async resolveLink(alias: string): Promise<string | null> {\n    const res = await fetch(`${this.baseUrl}/${encodeURIComponent(alias)}`, { redirect: 'manual' });\n    return res.headers.get('location');\n  }\n"))
commit("chen", 121, 13, "Update client tests for resolveLink",
       app("client/src/__tests__/client.test.ts", """
describe('resolveLink', () => {
  it('returns the location header', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue({ headers: new Map([['location', 'https://e.com']]) }));
    expect(await new ShortyClient('http://x').resolveLink('a')).toBe('https://e.com');
  });
});
"""))
commit("alice", 128, 11, "Document rate limits and expiry", app("docs/API.md", "\nCreating links is limited to 30 a minute per client (429 after that).\nLinks may carry an expiry; expired links are purged.\n"), app("README.md", "\nSee `docs/API.md` for the HTTP API.\n"))
commit("dana", 133, 10, "Fix CLI exit code on unknown command",
       sub("cli/cmd/run.go", '\treturn fmt.Errorf("unknown command %q", args[0])\n', '\treturn fmt.Errorf("unknown command %q (try create or resolve)", args[0])\n'))
commit("bilal", 138, 15, "Make rate limit configurable from environment",
       sub("api/shorty/ratelimit.py", "from dataclasses import dataclass, field\n", "import os\nfrom dataclasses import dataclass, field\n"),
       sub("api/shorty/ratelimit.py", "    limit: int = 30\n", "    limit: int = int(os.environ.get(\"SHORTY_RATE_LIMIT\", \"30\"))\n"))
commit("alice", 141, 10, "Fix stats crash when store is empty",
       sub("api/shorty/app.py", "def stats() -> dict:\n", "def stats() -> dict:\n    if not store.links:\n        return {\"top\": []}\n"),
       app("api/tests/test_app.py", '''

def test_stats_on_empty_store():
    from shorty.app import stats, store

    store.links.clear()
    assert stats() == {"top": []}
'''))
commit("chen", 144, 16, "Surface rate limit errors in client", app("client/src/errors.ts", """
export class RateLimitError extends ShortyError {
  constructor(message: string) {
    super(429, message);
    this.name = 'RateLimitError';
  }
}
"""), app("client/src/index.ts", "export { RateLimitError } from './errors';\n"))
commit("alice", 146, 9, "Purge expired links before resolving",
       sub("api/shorty/app.py", "def resolve_link(alias: str) -> dict:\n", "def resolve_link(alias: str, now: float = 0.0) -> dict:\n    store.purge(now)\n"))

# ---------------------------------------------------------------- emit
out = []
def data(b: bytes):
    out.append(b"data %d\n" % len(b) + b + b"\n")

for n, (who, day, hour, msg, ops) in enumerate(commits, 1):
    name, mail = AUTH[who]
    when = START + timedelta(days=day, hours=hour - 9)
    ts = int(when.timestamp())
    out.append(b"commit refs/heads/main\n")
    out.append(b"mark :%d\n" % n)
    out.append(f"author {name} <{mail}> {ts} +0000\n".encode())
    out.append(f"committer {name} <{mail}> {ts} +0000\n".encode())
    data((msg + "\n").encode())
    if n > 1:
        out.append(b"from :%d\n" % (n - 1))
    for op in ops:
        kind = op[0]
        if kind == "M":
            state[op[1]] = op[2]
        elif kind == "A":
            state[op[1]] = state[op[1]] + op[2]
        elif kind == "H":
            state[op[1]] = op[2] + state[op[1]]
        elif kind == "S":
            assert op[2] in state[op[1]], (msg, op[1], op[2])
            state[op[1]] = state[op[1]].replace(op[2], op[3], 1)
        elif kind == "D":
            del state[op[1]]
            out.append(f"D {op[1]}\n".encode())
            continue
        elif kind == "R":
            state[op[2]] = state.pop(op[1])
            out.append(f"D {op[1]}\n".encode())
            out.append(f"M 100644 inline {op[2]}\n".encode())
            data(state[op[2]].encode())
            continue
        out.append(f"M 100644 inline {op[1]}\n".encode())
        data(state[op[1]].encode())
    out.append(b"\n")
out.append(b"done\n")
sys.stdout.buffer.write(b"".join(out))
print(len(commits), "commits", len(state), "files", file=sys.stderr)
