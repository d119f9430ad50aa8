"""hybrid's exporter: OpenVault's extension settings in SillyTavern's settings.json, with
what its settings panel cannot show."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from workbench.core.export.base import Change, Export, _changes, _number, _outside
from workbench.core.models import get_model
from workbench.core.params import ParamValue

# -- hybrid: OpenVault c112699, its extension settings --
OV_SETTINGS = {
    "alpha": "alpha",
    "combined_boost_weight": "combinedBoostWeight",
    "vector_threshold": "vectorSimilarityThreshold",
    "entity_boost_weight": "entityBoostWeight",
}
# REFERENCE §3: the settings panel's sliders (parameter, key, low, high, step)
OV_SLIDERS = (("alpha", "alpha", 0.0, 1.0, 0.05),
              ("combined_boost_weight", "combinedBoostWeight", 1.0, 30.0, 1.0),
              ("vector_threshold", "vectorSimilarityThreshold", 0.0, 1.0, 0.05))


def _on_slider(value: float, low: float, high: float, step: float) -> bool:
    return low - 1e-9 <= value <= high + 1e-9 and abs(
        round((value - low) / step) * step + low - value) < 1e-9


# REFERENCE §3: one prefix setting for both sides, chosen in the settings panel; the specs
# name no settings.json key for it (the panel's choice is all they describe), so the export
# writes none and says it is set by hand (rm 4): a key guessed wrong is one OpenVault ignores,
# silently
OV_PROMPT = "the embedding prompt (settings panel; one for both sides)"
OV_PROMPT_BY_HAND = ("in OpenVault's settings panel: its embedding prompt, one prefix for "
                     "both sides ('custom' for a text of your own); a new prompt re-embeds "
                     "every memory")
OV_WORKBENCH_ONLY = frozenset(("normalization", "rrf_k", "fields", "embeddings",
                               "embedding_model", "batch_size", "vector_candidates"))


def encoder_caveat(model: str) -> str:
    """Why hybrid's figures with embeddings=encoder are not quite OpenVault's: its vector share
    is of the vectors OpenVault's own embedding model stored with each memory."""
    name = model.rstrip("/").rsplit("/", 1)[-1] or model
    return (f"the vector share was measured with {name}'s embeddings, while OpenVault scores "
            "with the vectors its own embedding model stored with each memory: the figures "
            "hold for OpenVault as far as the two agree")


def export_hybrid(params: Mapping[str, ParamValue]) -> Export:
    from workbench.core.models.hybrid.scoring import effective_threshold

    schema = get_model("hybrid").schema
    values = schema.resolve(params)
    # as SillyTavern's settings.json holds them (REFERENCE §3: its extension settings)
    settings: dict[str, object] = {"extension_settings": {"openvault": {
        key: values[name] for name, key in OV_SETTINGS.items()}}}
    carried = {**OV_SETTINGS, "query_prompt": OV_PROMPT, "document_prompt": OV_PROMPT}
    outside = _outside(schema, values, OV_WORKBENCH_ONLY)
    prompt = str(values["document_prompt"])
    if values["query_prompt"] != prompt:  # the original prepends one prefix to both sides
        p = schema["query_prompt"]
        outside += (Change("query_prompt", p.label, prompt, values["query_prompt"], None),)
    where = ("OpenVault keeps these in SillyTavern's extension settings (its settings panel; "
             "extension_settings.openvault in SillyTavern's settings.json, in its user data "
             "folder such as data/default-user: --out that folder updates it, with "
             "SillyTavern closed, as it rewrites the file)")
    off = [f"{key} {_number(values[name])} ({low:g}–{high:g}, step {step:g})"
           for name, key, low, high, step in OV_SLIDERS
           if not _on_slider(float(values[name]), low, high, step)]
    if off:  # REFERENCE §3: the panel's sliders; a value off them is set in the file only
        one = len(off) == 1
        where += ("; its panel's sliders cannot show " + ", ".join(off)
                  + f": set {'it' if one else 'them'} in settings.json, or round "
                  f"{'it' if one else 'them'} to the slider")
    if values["embeddings"] == "encoder":  # the vector share is of this encoder's vectors
        where += ("; " + encoder_caveat(str(values["embedding_model"]))
                  + " (-p embeddings=stored measures with the stored ones)")
    if prompt != schema["document_prompt"].default:
        where += (f"; its embedding prompt, {prompt!r}, is not written (no settings.json key "
                  "is known for it): choose it by hand in the same panel, one prefix for both "
                  "sides ('custom' for a text of your own) — a new prompt re-embeds every "
                  "memory")
    # a parameter is in one section of the record: a query prompt OpenVault cannot take is
    # not also a change of its setting; and a threshold it reads as the same (0 is 0.5 there,
    # `threshold || 0.5`) is no change
    apart = {c.name for c in outside}
    changed = tuple(replace(c, by_hand=OV_PROMPT_BY_HAND) if c.setting == OV_PROMPT else c
                    for c in _changes(schema, values, OV_WORKBENCH_ONLY, carried)
                    if c.name not in apart and not (
                        c.name == "vector_threshold"
                        and effective_threshold(c.value) == effective_threshold(c.original)))
    return Export("hybrid", "OpenVault c112699", settings, changed, outside=outside,
                  where=where, config_path="settings.json", home=("chats", "characters"),
                  fragment="the extension_settings.openvault part of SillyTavern's "
                           "settings.json",
                  sources={f"extension_settings.openvault.{key}": (name,)
                           for name, key in OV_SETTINGS.items()})
