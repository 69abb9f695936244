def on_done():
    pass


def on_error():
    pass


def run(callback):
    callback()


def run_both(first, second):
    first()
    run(second)


def forward(*handlers):
    for handler in handlers:
        handler()


alias = on_done
run(alias)
run_both(on_error, on_done)
forward(on_done, on_error)
