"""Explain one (query, document) pair of `vault-search`: matches with line, column, context
and snippet (built by the original's own functions), and the components behind the score."""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.core.models.vault_search.documented import density_part, position_part, tf_part
from workbench.core.models.vault_search.jsstring import canonicalize, from_units, to_units
from workbench.core.models.vault_search.original import (
    ExtractorConfig,
    density_curve,
    extract_context,
    extract_matches,
    highlight_units,
    position_curve,
    tf_curve,
)
from workbench.core.models.vault_search.prepared import DocumentedArrays, ShippedArrays
from workbench.core.params import Params


def explain_shipped(sh: ShippedArrays, p: int, text: str, qtext: str, cfg: ExtractorConfig,
                    params: Params) -> dict[str, Any]:
    """Pair `p`: its matching lines (context and snippet by the original's functions) and
    unweighted components."""
    sel = np.flatnonzero(sh.hit_pair == p)
    lines = to_units(text).split("\n")
    cq = canonicalize(to_units(qtext))
    matches = [{"line": int(ln), "column": int(col),
                "context": from_units(extract_context(lines, int(ln) - 1, cfg.context_lines)),
                "snippet": from_units(highlight_units(lines[int(ln) - 1], cq, cfg))}
               for ln, col in zip(sh.hit_line[sel], sh.hit_col[sel], strict=True)]
    return {
        "components": {
            "tf": float(tf_curve(sh.tf_ratio[p], float(params["tf_scale"]))),
            "position": float(position_curve(sh.first_ratio[p],
                                             float(params["position_decay"]))),
            "density": float(density_curve(sh.line_ratio[p], float(params["density_scale"]),
                                           float(params["density_cap"]))),
        },
        "term_count": int(sh.term_count[p]),
        "first_line": int(sh.first_line[p]),
        "matched_lines": int(sh.matched_lines[p]),
        "matches": matches,
    }


def explain_documented(dm: DocumentedArrays, q: int, p: int, text: str, cfg: ExtractorConfig,
                       params: Params) -> dict[str, Any]:
    """Pair `p` of query `q`: each query word that occurs, its parts and its matches."""
    words = dm.words[q]
    per = []
    for e in np.flatnonzero(dm.e_pair == p):
        w = words[int(dm.e_word[e])]
        per.append({
            "word": w,
            "count": int(dm.e_count[e]),
            "avg_position": float(dm.e_avg[e]),
            "tf": float(tf_part(dm.e_ratio[e], float(params["tf_multiplier"]))),
            "position": float(position_part(dm.e_avg[e])),
            "density": float(density_part(dm.e_ratio[e], float(params["density_multiplier"]))),
            "matches": [vars(m) for m in extract_matches(text, w, config=cfg)],
        })
    return {"query_words": words, "words": per, "found": int(dm.found[p]),
            "gap": int(dm.gap[p]),
            "proximity": {"w_proximity": float(params["w_proximity"]),
                          "proximity_scale": float(params["proximity_scale"])}}
