"""Every example of docs/PYTHON.md and of the README's Python tour runs
and prints what the document says (doctest: each `>>>` line and its
output), so the documents state the current truth."""

import doctest
import os

import pytest

from conftest import TOP

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("doc", ["docs/PYTHON.md", "README.md"])
def test_examples(doc):
    path = os.path.join(TOP, doc)
    if not os.path.exists(path):
        pytest.skip("%s is not in this tree" % doc)
    failed, attempted = doctest.testfile(path, module_relative=False,
                                         optionflags=FLAGS, verbose=False)
    assert attempted >= 5, "%s has no examples" % doc
    assert failed == 0
