def notify():
    pass


def apply(fn, value):
    return fn(value)


double = lambda x: x * 2
double(1)
apply(lambda v: notify(), 3)


def make_adder(n):
    return lambda x: x + n


make_adder(1)(2)
