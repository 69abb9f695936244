import functools


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)

    return wrapper


def tagged(label):
    def apply(fn):
        return fn

    return apply


@logged
def save():
    pass


@tagged("x")
def load():
    pass


def main():
    save()
    load()


main()
