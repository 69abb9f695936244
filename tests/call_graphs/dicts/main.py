def create():
    pass


def delete():
    pass


def fallback():
    pass


ACTIONS = {"create": create, "delete": delete}
ACTIONS["create"]()
ACTIONS["delete"] = fallback
ACTIONS["delete"]()


def dispatch(table, key):
    table[key]()


dispatch(ACTIONS, "create")
ACTIONS.get("missing", fallback)()
