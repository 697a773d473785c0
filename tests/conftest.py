import pytest

from attention_core import load


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true",
                     help="Replace tests/golden/*.png by the frames this run renders (see tests/goldens.py).")


@pytest.fixture(scope="session")
def lesson():
    return load()
