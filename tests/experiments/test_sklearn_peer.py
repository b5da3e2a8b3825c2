"""scikit-learn's SparsePCA as a peer: loadings, the frontier, matched density."""
import numpy as np
import pandas as pd
import pytest

from obcd_lite.data import load_dataset
from obcd_lite.experiments.sklearn_peer import at_matched_density, sklearn_sparse_pca, sparsity_frontier


@pytest.fixture(scope="module")
def digits():
    return load_dataset("digits", m=150, rng=0)


def test_sparse_pca_loadings_are_unit_but_not_orthogonal(digits):
    res = sklearn_sparse_pca(digits.A, 3, 1e-3, rng=0)
    norms = np.linalg.norm(res.X, axis=0)
    assert res.X.shape == (64, 3) and np.all((np.abs(norms - 1) < 1e-12) | (norms == 0))
    assert np.linalg.norm(res.X.T @ res.X - np.eye(3)) > 1e-3  # a different formulation: no X^T X = I
    with pytest.raises(ValueError, match="r must be an integer in 1..n = 64"):
        sklearn_sparse_pca(digits.A, 65, 1e-3)


def test_frontier_rows_and_density_falls_with_alpha(digits):
    fr = sparsity_frontier(digits, 2, alphas=(1e-4, 3e-2), lams=(1e-3,), methods=("obcd",), time_limit=0.05)
    assert list(fr["method"]) == ["sklearn", "sklearn", "obcd"]
    skl = fr[fr["method"] == "sklearn"]
    assert skl["density"].iloc[1] < skl["density"].iloc[0]
    assert fr.loc[fr["method"] == "obcd", "orthogonality"].iloc[0] < 1e-8
    assert fr["explained_variance"].between(0, 1).all()


def test_matched_density_interpolates_each_path():
    fr = pd.DataFrame({"method": ["a", "a", "b"], "density": [0.2, 0.6, 0.5], "explained_variance": [0.1, 0.5, 0.3]})
    table = at_matched_density(fr, [0.4, 0.5, 0.9], max_gap=0.5)
    np.testing.assert_allclose(table["a"], [0.3, 0.4, np.nan])
    np.testing.assert_allclose(table["b"], [np.nan, 0.3, np.nan])


def test_matched_density_does_not_read_across_a_jump():
    fr = pd.DataFrame({"method": ["a", "a", "a"], "density": [0.05, 0.6, 0.7], "explained_variance": [0.1, 0.5, 0.6]})
    table = at_matched_density(fr, [0.3, 0.65, 0.05])
    np.testing.assert_allclose(table["a"], [np.nan, 0.55, 0.1])
    assert at_matched_density(fr, [0.3], max_gap=1.0)["a"].iloc[0] == pytest.approx(0.1 + 0.4 * 0.25 / 0.55)
