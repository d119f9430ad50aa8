"""The export's other files already in the folder (search_vault.args.json,
mcp-server-env.json, decision-memory.env) with its values merged in, others' entries kept."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

from workbench.core.export.base import Export
from workbench.core.export.decision_memory import PI_ENV
from workbench.core.export.env_file import _merged_env_file
from workbench.core.export.json_file import _kind, _line_of_key, _read_object
from workbench.core.export.update import Update
from workbench.core.export.vault_search import VS_ARGS, VS_ENV

# the files of `Export.files` that hold others' entries too, merged where one is there
SERVER_ENTRY = "mcp-server-env.json"
ENV_FILE = "decision-memory.env"
ARGS_FILE = "search_vault.args.json"
SERVERS = "mcpServers"


def plan_file_updates(export: Export, folder: str | Path,
                      given: Collection[str] | None = None) -> list[Update]:
    """The files of `Export.files` already in `folder` that hold others' entries too
    (decision-memory.env, mcp-server-env.json, search_vault.args.json) with the export's
    values written into them, as `plan_update` writes the target's config: every other line,
    server, key and variable kept; a value there that was not set explicitly (`given`) kept
    too. ValueError naming the file and line where one is not readable as what it is (ra 5:
    they had been replaced whole, the other servers, variables and arguments lost)."""
    names = dict(export.files)
    by_var = {var: name for name, var in {**PI_ENV, **VS_ENV}.items()}
    new = dict(export.env)
    out = []
    if ARGS_FILE in names and (Path(folder) / ARGS_FILE).is_file():
        out.append(_merged_args(Path(folder) / ARGS_FILE, json.loads(names[ARGS_FILE]), given))
    for name in (SERVER_ENTRY, ENV_FILE):
        path = Path(folder) / name
        if name not in names or not path.is_file():
            continue
        written: list[tuple[str, object, object]] = []
        kept: list[tuple[str, object, object]] = []
        added: list[tuple[str, object]] = []

        def put(current: Mapping[str, str], var: str,
                written: list[tuple[str, object, object]] = written,
                kept: list[tuple[str, object, object]] = kept) -> str | None:
            """The value to write for `var` where `current` holds its own (None: keep)."""
            old, value = current[var], new[var]
            if old == value:
                return None
            if given is None or by_var.get(var) in given:
                written.append((var, old, value))
                return value
            kept.append((var, old, value))
            return None

        if name == SERVER_ENTRY:
            text = _merged_server_entry(path, new, put, added)
        else:
            text = _merged_env_file(path, new, put, added)
        out.append(Update(path, tuple(written), tuple(kept), tuple(added), text))
    return out


def _merged_args(path: Path, args: Mapping[str, object],
                 given: Collection[str] | None) -> Update:
    """search_vault.args.json with the arguments the workbench writes (`VS_ARGS`: minScore,
    limit, offset) set as `args` has them, every other key kept as it is. One that `args`
    leaves out (0 is "not passed") is taken out where its parameter was set explicitly
    (`given`: written as None), else kept; one not set explicitly is kept as `plan_update`
    keeps a config's own. The file keeps its form: a byte-order mark, CRLF line ends, its
    indent (a file on one line stays on one line). A file in a tool call's form (`{"name":
    "search_vault", "arguments": {…}}`) has them written in its `arguments` (dr1 7: a stray
    top-level `limit` had been added beside them)."""
    whole = _read_object(path)
    raw = path.read_bytes()
    current, at = whole, ""
    if "arguments" in whole or whole.get("name") == "search_vault":
        inner = whole.get("arguments")
        if not isinstance(inner, dict):
            found = "no arguments" if "arguments" not in whole else _kind(inner)
            line = _line_of_key(path, "arguments") or _line_of_key(path, "name")
            raise ValueError(f"{path}{line}: field 'arguments': cannot update it, expected a "
                             f"JSON object (a tool call's search_vault arguments), found "
                             f"{found}: fix it, or give the arguments object itself")
        current, at = inner, "arguments."
    written: list[tuple[str, object, object]] = []
    kept: list[tuple[str, object, object]] = []
    added: list[tuple[str, object]] = []
    for name, key in VS_ARGS.items():
        old, value = current.get(key), args.get(key)
        if key not in current:
            if value is not None:
                current[key] = value
                added.append((at + key, value))
        elif value is not None and old == value and isinstance(old, bool) == isinstance(
                value, bool):
            continue  # the same (5 and 5.0 alike; true is not 1)
        elif value is None and key == "minScore" and _min_score_off(old):
            continue  # the same: minScore acts only above 0, as not passed (dr1 6)
        elif given is None or name in given:
            if value is None:
                del current[key]
            else:
                current[key] = value
            written.append((at + key, old, value))
        else:
            kept.append((at + key, old, value))
    return Update(path, tuple(written), tuple(kept), tuple(added), _json_in_form(whole, raw))


def _min_score_off(value: object) -> bool:
    """Whether search_vault's minScore `value` acts as not passed: null, or a number not above
    0 (obsidian-mcp applies it only above 0)."""
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool)
                             and value <= 0)


def _json_in_form(value: object, raw: bytes) -> str:
    """`value` as JSON in the form of `raw`, the file it replaces: its byte-order mark, its
    line ends (CRLF where most are), its indent (tabs or the first indented line's spaces;
    on one line where it was) and its last newline."""
    text = raw.decode("utf-8-sig", errors="replace")
    bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
    end = "\r\n" if text.count("\r\n") * 2 > text.count("\n") else "\n"
    indent: int | str | None = None
    if "\n" in text.strip():
        lead = next((line[:len(line) - len(line.lstrip(" \t"))]
                     for line in text.splitlines()[1:] if line.strip()), "")
        indent = "\t" if lead.startswith("\t") else len(lead)
    body = json.dumps(value, indent=indent, ensure_ascii=False)  # "\n" only between values
    return bom + body.replace("\n", end) + (end if text.endswith("\n") else "")


def _merged_server_entry(path: Path, new: Mapping[str, str],
                         put: Callable[[Mapping[str, str], str], str | None],
                         added: list[tuple[str, object]]) -> str:
    """mcp-server-env.json with the variables in the env of the server that runs
    obsidian-mcp, whatever its name (`_obsidian_server`)."""
    current = _read_object(path)
    servers = current.get(SERVERS)
    if not isinstance(servers, dict):
        raise ValueError(f"{path}{_line_of_key(path, SERVERS)}: field '{SERVERS}': cannot "
                         "update it, " + (f"expected a JSON object, found {_kind(servers)}: "
                                          "fix or remove it" if SERVERS in current else
                                          f"missing: {SERVER_HELP}"))
    key = _obsidian_server(path, servers)
    server = servers[key]
    assert isinstance(server, dict)  # `_obsidian_server` takes objects alone
    env = server.setdefault("env", {})
    if not isinstance(env, dict):
        raise ValueError(f"{path}{_line_of_key(path, 'env')}: field '{SERVERS}.{key}.env': "
                         f"cannot update it, expected a JSON object, found {_kind(env)}: fix "
                         "or remove it")
    for var in new:
        if var not in env:
            env[var] = new[var]
            added.append((var, new[var]))
        elif not isinstance(env[var], str):
            raise ValueError(f"{path}{_line_of_key(path, var)}: field '{SERVERS}.{key}.env."
                             f"{var}': cannot update it, expected a string (an environment "
                             f"variable's value), found {_kind(env[var])}")
        else:
            value = put({var: str(env[var])}, var)
            if value is not None:
                env[var] = value
    return json.dumps(current, indent=2, ensure_ascii=False) + "\n"


SERVER_HELP = ("set OBSIDIAN_SEARCH_BATCH_SIZE in the env of the server that runs "
               "obsidian-mcp yourself, or give --out another folder")


def _obsidian_server(path: Path, servers: Mapping[str, object]) -> str:
    """The key of the one server in `servers` that runs obsidian-mcp: its command or an
    argument names obsidian-mcp, or its env sets an OBSIDIAN_ variable. ValueError where none
    or several do (dr3 3: a server of another name had been left at its old value, and a
    second one with no command added beside it)."""
    def runs_it(server: object) -> bool:
        if not isinstance(server, dict):
            return False
        command, args, env = server.get("command"), server.get("args"), server.get("env")
        words = [command] + (args if isinstance(args, list) else [])
        named = any(isinstance(w, str) and "obsidian-mcp" in w for w in words)
        return named or (isinstance(env, dict) and any(k.startswith("OBSIDIAN_") for k in env))

    found = [key for key, server in servers.items() if runs_it(server)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise ValueError(f"{path}{_line_of_key(path, SERVERS)}: field '{SERVERS}': cannot "
                         "update it, no server there runs obsidian-mcp (its command or args "
                         "naming obsidian-mcp, or its env an OBSIDIAN_ variable): "
                         + SERVER_HELP)
    raise ValueError(f"{path}{_line_of_key(path, found[1])}: field '{SERVERS}': cannot update "
                     f"it, {len(found)} servers there run obsidian-mcp ({', '.join(found)}):"
                     " keep one, or set OBSIDIAN_SEARCH_BATCH_SIZE in the env of the one the "
                     "client uses yourself")
