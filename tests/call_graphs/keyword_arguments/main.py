def primary():
    pass


def secondary():
    pass


def configure(on_start, on_stop=secondary):
    on_start()
    on_stop()


def relay(**options):
    configure(**options)


configure(on_stop=primary, on_start=secondary)
relay(on_start=primary)
