"""obcd_lite.data: shapes, the paper's normalisation, determinism, guards and bad names."""
import numpy as np
import pytest

from obcd_lite.data import DATASET_NAMES, load_dataset

SMALL = {"randn": dict(m=20, n=30), "spiked": dict(n=20), "digits": dict(m=100), "breast_cancer": dict(m=80)}
SHAPES = {"randn": (20, 30), "spiked": (40, 20), "digits": (100, 64), "breast_cancer": (80, 30)}


@pytest.mark.parametrize("name", DATASET_NAMES)
def test_shapes_and_unit_frobenius_norm(name):
    ds = load_dataset(name, **SMALL[name])
    assert ds.A.shape == SHAPES[name] and ds.C.shape == (ds.n, ds.n)
    assert np.linalg.norm(ds.A) == pytest.approx(1.0, rel=1e-12)
    assert np.trace(ds.C) == pytest.approx(1.0, rel=1e-12)
    np.testing.assert_allclose(ds.C, ds.A.T @ ds.A)
    assert len(ds.metadata["feature_names"]) == ds.n


@pytest.mark.parametrize("name", DATASET_NAMES)
def test_same_seed_same_data_other_seed_other_rows(name):
    a, b = load_dataset(name, rng=3, **SMALL[name]), load_dataset(name, rng=3, **SMALL[name])
    np.testing.assert_array_equal(a.A, b.A)
    c = load_dataset(name, rng=4, **SMALL[name])
    assert not np.array_equal(a.A, c.A)


def test_paper_defaults_randn_500_1000():
    ds = load_dataset("randn")
    assert (ds.m, ds.n) == (500, 1000)
    assert 0.004 < np.linalg.eigvalsh(ds.C)[-1] < 0.008  # the top eigenvalue ~ (1 + sqrt(n/m))^2 / (m n) * m


def test_real_sets_are_centred_and_digits_images():
    ds = load_dataset("digits")
    assert ds.metadata["centered"] and ds.metadata["image_shape"] == (8, 8)
    np.testing.assert_allclose(ds.A.mean(axis=0), 0.0, atol=1e-15)
    # The notes' eigenvalues of the centred, normalised digits.
    np.testing.assert_allclose(np.linalg.eigvalsh(ds.C)[::-1][:3], [0.149, 0.136, 0.118], atol=1e-3)
    assert load_dataset("digits", n=10).metadata["image_shape"] is None


def test_digits_standardisation_guards_constant_pixels():
    ds = load_dataset("digits", standardize=True)
    assert np.all(np.isfinite(ds.A))
    np.testing.assert_array_equal(ds.A[:, [0, 32, 39]], 0.0)  # zero-variance pixels stay 0, no 0/0
    assert np.linalg.norm(ds.A) == pytest.approx(1.0)


def test_breast_cancer_feature_names_follow_the_kept_columns():
    ds = load_dataset("breast_cancer", n=5, rng=1)
    from sklearn.datasets import load_breast_cancer

    names = list(load_breast_cancer().feature_names)
    assert ds.metadata["feature_names"] == [names[j] for j in ds.metadata["columns"]]
    assert ds.metadata["standardized"]
    np.testing.assert_allclose(ds.A.std(axis=0), ds.A.std(axis=0)[0])  # equal column scales


def test_spiked_support_is_planted_and_dominant():
    ds = load_dataset("spiked", n=40, m=400, rng=2)
    support = ds.metadata["support"]
    assert len(support) == 2 and all(len(s) == 5 for s in support)
    assert not set(support[0]) & set(support[1])
    top = np.linalg.eigh(ds.C)[1][:, -1]
    assert set(np.argsort(-np.abs(top))[:5]) == set(support[0])  # the strongest spike leads


@pytest.mark.parametrize("kwargs, match", [
    (dict(name="mnist"), "valid names: randn, spiked, digits, breast_cancer"),
    (dict(name="randn", m=0), "m must be a positive integer"),
    (dict(name="digits", m=5000), "m = 5000 but the data set has only 1797"),
    (dict(name="spiked", n=6, spikes=2, support_size=5), "spikes \\* support_size <= n"),
])
def test_bad_input_is_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        load_dataset(**kwargs)


def test_unknown_option_is_named():
    with pytest.raises(TypeError, match="unknown options \\['spikes'\\]"):
        load_dataset("digits", spikes=3)
