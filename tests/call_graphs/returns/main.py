def handler():
    pass


def other():
    pass


def choose(flag):
    if flag:
        return handler
    return other


def factory():
    def made():
        handler()

    return made


choose(True)()
factory()()
