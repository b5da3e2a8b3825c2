"""Offline data sets preprocessed as the paper (Appendix E.2): ``load_dataset(name, m=, n=, rng=)``."""
from .datasets import DATASET_NAMES, Dataset, load_dataset

__all__ = ["DATASET_NAMES", "Dataset", "load_dataset"]
