"""Values that reach a call after the call was analyzed: a list filled (by a function defined later) after
it is iterated, an attribute set after a method read it, a closure's name rebound after the inner
function ran. Nothing runs at import: every write happens while the functions are analyzed."""

handlers = []


def first():
    pass


def second():
    pass


def third():
    pass


def run_all():
    for handler in handlers:
        handler()


def register(fn):
    handlers.append(fn)


class Box:
    def __init__(self):
        self.action = first

    def fire(self):
        self.action()

    def arm(self):
        self.action = third


def outer():
    current = first

    def call_current():
        current()

    call_current()
    current = second
    return call_current


def main():
    run_all()
    register(first)
    register(second)
    box = Box()
    box.fire()
    box.arm()

