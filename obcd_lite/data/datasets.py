"""The data sets of notebook 04, preprocessed as the paper does (Appendix E.2), all offline.

Every loader returns a :class:`Dataset` with ``A`` (m x n), ``C = A^T A`` and metadata, after

1. a random subset of m rows (the paper "randomly select[s] a subset of examples"),
2. centring of the columns where the set says so (the paper does not say; we centre the real
   sets, whose features have nonzero means that would otherwise dominate the first loading, and
   not "randn" or "spiked", whose population mean is zero),
3. optional standardisation (unit-variance columns; zero-variance columns are left at zero
   instead of dividing by 0: three digits pixels are constant),
4. A <- A / ||A||_F, so tr C = ||A||_F^2 = 1 (the paper's scaling; ``C`` is the Gram matrix, not
   a covariance estimate divided by m).

The real sets come from scikit-learn's bundled files (``sklearn/datasets/data``): no download.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..validation import as_matrix, as_rng, check_count

#: Registered names, in the order the widgets list them.
DATASET_NAMES = ("randn", "spiked", "digits", "breast_cancer")


@dataclass(frozen=True)
class Dataset:
    """A preprocessed data matrix and its Gram matrix.

    Attributes
    ----------
    name : str
        Registry name.
    A : numpy.ndarray, shape (m, n)
        Data, ||A||_F = 1.
    C : numpy.ndarray, shape (n, n)
        = A^T A, tr C = 1.
    metadata : dict
        ``feature_names`` (n strings), ``image_shape`` ((8, 8) for the full digits, else
        None), ``rows`` (indices of the kept rows in the source), ``columns`` (indices of the kept
        features), ``centered``, ``standardized``, ``description``; "spiked" adds ``support``
        (tuple of index arrays, one per planted component), ``loadings`` (n x k, the planted unit
        vectors) and ``strengths``; the real sets add ``target`` (the class label of each kept row).
    """

    name: str
    A: np.ndarray
    C: np.ndarray
    metadata: dict = field(default_factory=dict)

    @property
    def m(self) -> int:
        """The number of samples (rows of A)."""
        return self.A.shape[0]

    @property
    def n(self) -> int:
        """The number of features (columns of A; X has n rows)."""
        return self.A.shape[1]

    def __repr__(self) -> str:
        return f"Dataset({self.name!r}, m={self.m}, n={self.n})"


def load_dataset(name: str, *, m: int | None = None, n: int | None = None, rng=0, **options) -> Dataset:
    """Load and preprocess a data set by name (see the module docstring for the steps).

    Parameters
    ----------
    name : str
        One of :data:`DATASET_NAMES`.
    m : int or None
        Rows kept (a random subset without replacement); None keeps the set's default: "randn"
        500 (or n // 2 when n is given: the paper's randn-500-1000 ratio), "spiked" 2 n, the real
        sets all their rows.
    n : int or None
        Features. "randn"/"spiked": the number of columns (default 1000 / 50); the real sets: a
        random subset of n features, in their original order (None keeps all; the digits images
        need all 64).
    rng : int or numpy.random.Generator
        Seed or generator for every draw (rows, features, Gaussian entries).
    **options : "spiked": ``spikes`` (2, fewer if n < 2), ``support_size`` (5, fewer if n < 10),
        ``strengths`` (one positive number per spike or one for all; default 30 for the first spike and
        15 for the others, (30.0, 15.0) for the default 2 spikes);
        every set: ``center`` and ``standardize`` (bool, override the set's defaults).

    Returns
    -------
    Dataset
        The data matrix A, its Gram matrix C = A^T A and the metadata of the preprocessing.

    Raises
    ------
    ValueError or TypeError
        Naming the value: an unknown name or option, m, n, ``spikes`` or ``support_size`` that is not a
        positive integer (NaN, 2.5, True and "3" included), strengths that are not finite and > 0 or not
        one per spike, a ``center``/``standardize`` that is not a bool.
    """
    if name not in _LOADERS:
        raise ValueError(f"unknown data set {name!r}; valid names: {', '.join(DATASET_NAMES)}")
    rng = as_rng(rng)
    m = _check_size(m, "m")
    n = _check_size(n, "n")
    loader, defaults = _LOADERS[name]
    settings = dict(defaults)
    unknown = set(options) - set(settings)
    if unknown:
        raise TypeError(f"load_dataset({name!r}) got unknown options {sorted(unknown)}; valid: {sorted(settings)}")
    settings.update(options)
    for flag in ("center", "standardize"):  # bool("no") is True: only a real bool is taken
        if not isinstance(settings[flag], (bool, np.bool_)):
            raise TypeError(f"{flag} must be True or False, got {flag} = {settings[flag]!r}")
    A, metadata = loader(m=m, n=n, rng=rng, **{k: v for k, v in settings.items()
                                               if k not in ("center", "standardize")})
    A = _preprocess(A, bool(settings["center"]), bool(settings["standardize"]))
    metadata.update(centered=bool(settings["center"]), standardized=bool(settings["standardize"]))
    return Dataset(name=name, A=A, C=A.T @ A, metadata=metadata)


def _check_size(value, name: str) -> int | None:
    # int(value) != value raised numpy's own error for NaN, inf and text: check_count names the value
    return check_count(value, name, allow_none=True)


def _preprocess(A: np.ndarray, center: bool, standardize: bool) -> np.ndarray:
    A = np.array(A, dtype=float)
    if center:
        A -= A.mean(axis=0)
    if standardize:
        std = A.std(axis=0)
        A = np.divide(A, std, out=np.zeros_like(A), where=std > 0)  # constant columns stay 0
    norm = np.linalg.norm(A)
    if norm == 0:
        raise ValueError("the data matrix is zero after preprocessing; ||A||_F = 1 is impossible")
    return A / norm


def _subset(total: int, size: int | None, rng: np.random.Generator, what: str) -> np.ndarray:
    """Sorted random subset of range(total) of the given size (all when None)."""
    if size is None or size == total:
        return np.arange(total)
    if size > total:
        raise ValueError(f"{what} = {size} but the data set has only {total}")
    return np.sort(rng.choice(total, size=size, replace=False))


def _randn(*, m, n, rng):
    n = 1000 if n is None else n
    m = (500 if n == 1000 else max(1, n // 2)) if m is None else m
    A = rng.standard_normal((m, n))
    return A, dict(feature_names=[f"x{j}" for j in range(n)], image_shape=None, rows=np.arange(m),
                   columns=np.arange(n), description=f"Gaussian randn-{m}-{n} (the paper's randn)")


def _spiked(*, m, n, rng, spikes, support_size, strengths):
    """Rows ~ N(0, I + sum_j beta_j v_j v_j^T) with unit v_j on disjoint random supports."""
    n = 50 if n is None else n
    m = 2 * n if m is None else m
    # Defaults shrink with n (the explorer's smallest n is 2): 2 spikes of up to 5 features.
    spikes = min(2, n) if spikes is None else check_count(spikes, "spikes")
    support_size = (max(1, min(5, n // spikes)) if support_size is None
                    else check_count(support_size, "support_size"))
    if strengths is None:  # 30 for the first spike, 15 for the others: (30.0, 15.0) for the default 2
        strengths = (30.0,) + (15.0,) * (spikes - 1)
    strengths = as_matrix(np.atleast_1d(strengths).reshape(1, -1), "strengths", finite=False)[0]
    # a count other than 1 or one per spike is refused: a longer tuple was cut to the spikes, so a NaN or
    # a typo beyond them went unseen
    if strengths.size not in (1, spikes):
        raise ValueError(f"strengths must be one positive number or one per spike (spikes = {spikes}), "
                         f"got {strengths.size}: strengths = {strengths.tolist()}")
    strengths = np.broadcast_to(strengths, (spikes,))
    if not np.all(np.isfinite(strengths) & (strengths > 0)):  # NaN > 0 is False, so NaN passed "<= 0"
        raise ValueError(f"strengths must be finite and > 0, got strengths = {strengths.tolist()}")
    if spikes * support_size > n:
        raise ValueError(f"need spikes * support_size <= n, got spikes = {spikes}, "
                         f"support_size = {support_size}, n = {n}")
    rows = rng.permutation(n)[: spikes * support_size].reshape(spikes, support_size)
    support = tuple(np.sort(s) for s in rows)
    V = np.zeros((n, spikes))
    for j, s in enumerate(support):
        V[s, j] = rng.choice([-1.0, 1.0], size=support_size) / np.sqrt(support_size)
    # Covariance I + V diag(beta) V^T: the factor I + V diag(sqrt(1 + beta) - 1) V^T is its square root.
    A = rng.standard_normal((m, n))
    A = A + (A @ V) * (np.sqrt(1.0 + strengths) - 1.0) @ V.T
    return A, dict(feature_names=[f"x{j}" for j in range(n)], image_shape=None, rows=np.arange(m),
                   columns=np.arange(n), support=support, loadings=V, strengths=tuple(strengths.tolist()),
                   description=f"spiked covariance, {spikes} sparse spikes of {support_size} features, m={m}, n={n}")


def _bundled(load, label: str):
    def loader(*, m, n, rng):
        bunch = load()
        data = np.asarray(bunch.data, dtype=float)
        rows = _subset(data.shape[0], m, rng, "m")
        cols = _subset(data.shape[1], n, rng, "n")
        names = [str(s) for s in bunch.feature_names]
        full_image = label == "digits" and len(cols) == data.shape[1]
        return data[np.ix_(rows, cols)], dict(
            feature_names=[names[j] for j in cols], image_shape=(8, 8) if full_image else None, rows=rows,
            columns=cols, target=np.asarray(bunch.target)[rows],
            description=f"scikit-learn {label} ({len(rows)} x {len(cols)}, bundled, offline)")
    return loader


def _load_digits():
    from sklearn.datasets import load_digits

    return load_digits()


def _load_breast_cancer():
    from sklearn.datasets import load_breast_cancer

    return load_breast_cancer()


# name -> (loader, default options). The real sets are centred; breast_cancer is also standardised
# (its features are in units from 1e-3 to 1e3, so unscaled PCA would only see "worst area").
_LOADERS = {
    "randn": (_randn, dict(center=False, standardize=False)),
    "spiked": (_spiked, dict(center=False, standardize=False, spikes=None, support_size=None,
                                strengths=None)),
    "digits": (_bundled(_load_digits, "digits"), dict(center=True, standardize=False)),
    "breast_cancer": (_bundled(_load_breast_cancer, "breast_cancer"), dict(center=True, standardize=True)),
}
