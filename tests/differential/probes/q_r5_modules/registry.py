"""A task registry other modules register into when they are imported."""
TASKS: dict = {}


def task(name: str):  # noqa: ANN201
    def register(function):  # noqa: ANN001, ANN202
        TASKS[name] = function
        return function
    return register
