"""The examples in the docstrings are tests too."""
import doctest
import importlib
import pkgutil

import pytest

import shibumi

MODULES = ["shibumi"] + [m.name for m in pkgutil.walk_packages(shibumi.__path__, "shibumi.")
                         if not m.name.endswith("__main__")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
