"""Every public name of ``obcd_lite`` has a docstring (the API pages of the site are made from them).

Public: a module of the package, and each function (numba-compiled ones included) and class a
module defines (not the ones it imports) whose name does not start with ``_``, with the public
methods and properties of each such class. An override of a documented method inherits its
docstring (``inspect.getdoc``), as the API pages show it.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import obcd_lite

MODULES = ["obcd_lite"] + sorted(m.name for m in pkgutil.walk_packages(obcd_lite.__path__, "obcd_lite."))


def _inherited_doc(cls, attr: str) -> str:
    """The docstring of ``cls.attr``, or of the member it overrides in a base class."""
    for base in cls.__mro__:
        member = vars(base).get(attr)
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if member is not None and (doc := inspect.getdoc(member)):
            return doc
    return ""


def _public_docs(module) -> dict[str, str]:
    """{dotted name: docstring} of the module and of every public function, class, method and property it defines."""
    docs = {module.__name__: inspect.getdoc(module) or ""}
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(getattr(obj, "py_func", obj)) or inspect.isclass(obj):  # py_func: numba's
            docs[f"{module.__name__}.{name}"] = inspect.getdoc(obj) or ""
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if not attr.startswith("_") and (inspect.isfunction(member) or isinstance(member, property)):
                    docs[f"{module.__name__}.{name}.{attr}"] = _inherited_doc(obj, attr)
    return docs


def test_every_public_name_has_a_docstring():
    docs = {}
    for name in MODULES:
        docs.update(_public_docs(importlib.import_module(name)))
    assert len(docs) > 200  # the walk found the package
    missing = sorted(name for name, doc in docs.items() if not doc.strip())
    assert missing == [], "\n".join(missing)
