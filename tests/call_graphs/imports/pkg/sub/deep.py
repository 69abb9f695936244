from ..tools import unused


def deep():
    unused()
