"""--seed seeds the k-fold split as well as the sampler: said in --help (review rb 6)."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.cli import main
from workbench.core.tuning import kfold


def test_seed_help_says_it_changes_the_folds(capsys):
    with pytest.raises(SystemExit):
        main(["tune", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    seed = help_text[help_text.index("--seed SEED the"):]
    assert seed.startswith("--seed SEED the seed of the sampler and of the k-fold split")
    assert "another seed puts other queries in each fold too" in seed
    # what it says: two seeds, two splits of the same 25 queries
    counted = np.ones(25, dtype=bool)
    a, b = kfold(counted, 5, seed=0), kfold(counted, 5, seed=1)
    assert any(not np.array_equal(x.test, y.test) for x, y in zip(a.folds, b.folds, strict=True))
