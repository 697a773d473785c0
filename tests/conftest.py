import pytest

from attention_core import load


@pytest.fixture(scope="session")
def lesson():
    return load()
