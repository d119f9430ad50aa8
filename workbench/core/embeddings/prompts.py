"""Embedding prompts: OpenVault's presets, and a warning where a prompt takes most of
the encoder's input window."""

from __future__ import annotations

from collections.abc import Mapping

from workbench.core.embeddings.models import DEFAULT_MODEL

# OpenVault's embedding prefixes (REFERENCE.md §3): one setting prepended to queries and
# documents alike, `task: <name> | query: `; "sentence similarity" is its default.
OPENVAULT_TASKS = ("sentence similarity", "semantic similarity", "narrative understanding",
                   "romantic scene similarity")


PROMPT_PRESETS: dict[str, str] = {"none": ""} | {
    task: f"task: {task} | query: " for task in OPENVAULT_TASKS}


OPENVAULT_DEFAULT_PROMPT = PROMPT_PRESETS["sentence similarity"]


def prompt_text(value: str) -> str:
    """The prompt `value` names: a preset's name (in any case, spaces around it trimmed) its
    text, "none" the empty prompt; any other value as it is. One reading for `embed --prompt`,
    `-p query_prompt=`, a parameter file and the window (rm 1: `embed --prompt 'semantic
    similarity'` cached the preset while `-p` had embedded the two words, and `-p
    query_prompt=none` the word "none"). A literal prompt equal to a preset's name cannot be
    given: it would not be told apart from the preset."""
    return PROMPT_PRESETS.get(value.strip().casefold(), value)


# a prompt estimated this long takes half of a 256-token window from a document, most of it
# from a query (queries are short: one fits beside a prompt a document's text would not)
PROMPT_TOKENS_WARN = {"document": 128, "query": 200}


def prompt_warnings(params: Mapping[str, object]) -> list[str]:
    """A prompt that takes much of the encoder's input window, said before it embeds: a
    2,480-character prompt left nothing of each text within all-MiniLM-L6-v2's 256 tokens,
    every vector the same and every cosine 1.0. Its tokens are estimated (about 4 characters
    or 0.75 of a word each), not counted by loading the model."""
    out = []
    window = ("256 tokens" if str(params.get("embedding_model", DEFAULT_MODEL)) == DEFAULT_MODEL
              else "a window of a few hundred tokens")
    for name, side in (("document_prompt", "document"), ("query_prompt", "query")):
        prompt = str(params.get(name, "") or "")
        tokens = round(max(len(prompt) / 4, len(prompt.split()) * 4 / 3))
        if tokens >= PROMPT_TOKENS_WARN[side]:
            out.append(f"the {side} prompt alone is about {tokens} tokens, and the encoder reads "
                       f"{window} of prompt and text together: a {side} is embedded only as "
                       "far as it fits after the prompt")
    return out
