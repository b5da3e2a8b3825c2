"""Problems shared by the solver tests: one builder per penalty, and the nonsmooth problems a smooth-only
solver must decline."""
import numpy as np
import pytest

from obcd_lite.penalties import L0, L1, CappedL1
from obcd_lite.problems import nonneg_pca, sparse_pca

#: Penalty name -> C -> problem (the penalties OBCD handles, at weights that leave sparse solutions).
PENALTY_PROBLEMS = {
    "zero": lambda C: sparse_pca(C),
    "l1": lambda C: sparse_pca(C, L1(0.02)),
    "l0": lambda C: sparse_pca(C, L0(0.01)),
    "capped": lambda C: sparse_pca(C, CappedL1(0.05, 0.1)),
    "nonneg": lambda C: nonneg_pca(C),
}


@pytest.fixture(params=sorted(PENALTY_PROBLEMS))
def penalty_problem(request):
    """C -> problem, once per penalty (test ids: the penalty's name)."""
    return PENALTY_PROBLEMS[request.param]


@pytest.fixture(params=["l1", "l0", "capped", "nonneg"])
def nonsmooth_problem(request):
    """A 4 x 4 problem with a nonsmooth h (or an indicator), once per penalty."""
    return PENALTY_PROBLEMS[request.param](np.eye(4))
