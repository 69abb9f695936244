def first():
    pass


def second():
    pass


def third():
    pass


a = b = first
b()
a = second
a()
x, (y, z) = first, (second, third)
z()
head, *rest = third, first, second
rest[1]()
