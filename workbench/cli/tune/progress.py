"""tune's progress line: the study, the trial and the best training value so far."""

from __future__ import annotations

from typing import Any


def _reporter(bar: Any, spec: Any, validation: Any, space: Any) -> Any:
    """Progress: the study, the trial, the highest training value so far. No held-out figure:
    the trial kept is picked on training alone (often not the best one), so a held-out value
    here would be a second, different "held-out" result — and one to stop or rerun on."""
    n_studies = len(validation.folds) + (1 if validation.kind in ("kfold", "none") else 0)
    per_study = space.grid_size() if spec.sampler == "grid" else spec.trials
    best: dict[str, float] = {}
    seen: list[str] = []
    sign = 1.0 if _maximised(spec.objectives[0]) else -1.0

    heard: dict[str, int] = {}  # trials this run reported per study

    def report(r: Any) -> None:
        if r.study not in seen:
            seen.append(r.study)
        heard[r.study] = heard.get(r.study, 0) + 1
        train = r.train[0]
        old = best.get(r.study)
        if r.feasible and (old is None or sign * train > sign * old):
            best[r.study] = train
        fold = r.study.rsplit("/", 1)[-1]
        b = best.get(r.study)
        text = f"{fold} trial {r.number}"
        if b is not None:
            # a continued study holds trials this run has not seen: its best may be higher
            earlier = r.number >= heard[r.study]
            # the highest so far, not the trial kept: the bound pick often keeps another
            text += (f" · {_most_word(spec.objectives[0])} training {spec.objectives[0]} "
                     f"{'this run ' if earlier else ''}{b:.4f}")
        if per_study:
            bar((len(seen) - 1 + min(1.0, r.done / per_study)) / n_studies, text)
        else:
            bar(0.0, text)

    return report


def _most_word(name: str) -> str:
    return "highest" if _maximised(name) else "lowest"


def _maximised(name: str) -> bool:
    from workbench.core.tuning.objectives import direction

    return direction(name) == "maximize"
