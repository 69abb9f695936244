def alpha():
    pass


def beta():
    pass


def produce():
    yield alpha
    yield beta


class Countdown:
    def __init__(self, start):
        self.left = start

    def __iter__(self):
        return self

    def __next__(self):
        return alpha


for item in produce():
    item()
for tick in Countdown(3):
    tick()
