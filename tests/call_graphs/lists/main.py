def one():
    pass


def two():
    pass


def three():
    pass


steps = [one, two]
steps[0]()
steps.append(three)
for step in steps[1:]:
    step()
nested = [[one], [two, three]]
nested[1][1]()
