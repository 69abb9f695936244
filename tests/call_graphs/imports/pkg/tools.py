def helper():
    pass


def unused():
    pass
