"""Keeping apart what Python keeps apart: a forwarding helper called with a step from some places and a plain
function from others; instances of one class holding different functions, made directly, by a factory, by a
factory of a factory, inside another class's __init__ and by a partial factory; dict keys of every hashable
literal kind with the collisions Python makes (True == 1 == 1.0, 0 == False) and the ones it does not (b"a" and
"a", None and "None", tuples); dicts built by dict(pairs), dict(zip(...)), dict.fromkeys, a comprehension, | and
|=, ** unpacking and update(); index forms (negative, slices, nested containers, tuple subscripts). The near misses
the analysis still reads less precisely than Python (a frozenset key,
setdefault() of a key the dict has) are listed in README ("What the analysis treats as unknown") instead."""
import functools

from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


async def plain(label: str) -> str:
    return "plain:" + label


async def apply(function, label: str) -> str:  # noqa: ANN001
    return await function(label)


async def relay(function, label: str) -> str:  # noqa: ANN001
    return await apply(function, label)


async def audit(label: str) -> str:
    return await relay(fetch, label)


class Worker:
    def __init__(self, function) -> None:  # noqa: ANN001
        self.function = function

    async def run(self, label: str) -> str:
        return await self.function(label)


def make_worker(function) -> Worker:  # noqa: ANN001
    return Worker(function)


def make_worker_for(function) -> Worker:  # noqa: ANN001
    return make_worker(function)


class Team:
    def __init__(self, function) -> None:  # noqa: ANN001
        self.lead = Worker(function)


def bind(function):  # noqa: ANN001, ANN201
    return functools.partial(apply, function)


LOUD = Worker(fetch)
QUIET = Worker(plain)
LOUD_MADE = make_worker(fetch)
QUIET_MADE = make_worker(plain)
LOUD_DEEP = make_worker_for(fetch)
QUIET_DEEP = make_worker_for(plain)
LOUD_BOUND = bind(fetch)
QUIET_BOUND = bind(plain)

BY_NUMBER = {1: plain, True: fetch}  # True == 1: one key, holding fetch
BY_ZERO = {0: fetch, False: plain}  # one key, holding plain
BY_FLOAT = {1.0: plain, 2: fetch}
BY_NONE = {None: fetch, "None": plain}
BY_BYTES = {b"a": fetch, "a": plain}
BY_TUPLE = {("eu", 1): plain, ("us", 1): fetch}
BY_SET = {frozenset({"a", "b"}): fetch, frozenset({"a"}): plain}
FROM_PAIRS = dict([("a", plain), ("b", fetch)])
FROM_ZIP = dict(zip(["a", "b"], [plain, fetch]))
FROM_KEYS = dict.fromkeys(["a", "b"], plain)
FROM_KEYS["b"] = fetch
MERGED = {"a": fetch} | {"a": plain, "b": fetch}
SPREAD = {**{"a": fetch, "b": plain}, **{"b": fetch, "a": plain}}
NESTED = {"x": [plain, (plain, fetch)], "y": {"z": [fetch]}}
GRID = [[plain, plain], [plain, fetch]]


@step
async def by_forwarding(label: str) -> str:
    return await relay(fetch, label)  # expect: STP002


@step
async def near_miss_forwarding(label: str) -> str:
    return await relay(plain, label)


@step
async def by_helper_that_forwards(label: str) -> str:
    return await audit(label)  # expect: STP002


@step
async def near_miss_instance(label: str) -> str:
    return await QUIET.run(label)


@step
async def by_instance(label: str) -> str:
    return await LOUD.run(label)  # expect: STP002


@step
async def by_factory_instance(label: str) -> str:
    return await LOUD_MADE.run(label)  # expect: STP002




@step
async def near_miss_factory_instance(label: str) -> str:
    return await QUIET_MADE.run(label)


@step
async def near_miss_factory_of_factory(label: str) -> str:
    return await QUIET_DEEP.run(label)


@step
async def by_instance_made_in_init(label: str) -> str:
    return await Team(fetch).lead.run(label)  # expect: STP002


@step
async def near_miss_instance_made_in_init(label: str) -> str:
    return await Team(plain).lead.run(label)


@step
async def near_miss_partial_factory(label: str) -> str:
    return await QUIET_BOUND(label)




@step
async def by_true_is_one(label: str) -> str:
    return await BY_NUMBER[1](label)  # expect: STP001


@step
async def near_miss_false_is_zero(label: str) -> str:
    return await BY_ZERO[0](label)


@step
async def near_miss_float_key(label: str) -> str:
    return await BY_FLOAT[1](label)


@step
async def by_float_key(label: str) -> str:
    return await BY_FLOAT[2.0](label)  # expect: STP001


@step
async def near_miss_none_key(label: str) -> str:
    return await BY_NONE["None"](label)


@step
async def near_miss_bytes_key(label: str) -> str:
    return await BY_BYTES["a"](label)


@step
async def by_tuple_key(label: str) -> str:
    return await BY_TUPLE[("us", 1)](label)  # expect: STP001


@step
async def by_bare_tuple_key(label: str) -> str:
    return await BY_TUPLE["us", 1](label)  # expect: STP001



@step
async def by_dict_of_pairs(label: str) -> str:
    return await FROM_PAIRS["b"](label)  # expect: STP001


@step
async def by_dict_of_zip(label: str) -> str:
    return await FROM_ZIP["b"](label)  # expect: STP001


@step
async def by_fromkeys(label: str) -> str:
    return await FROM_KEYS["b"](label)  # expect: STP001


@step
async def near_miss_merge(label: str) -> str:
    return await MERGED["a"](label)


@step
async def near_miss_spread(label: str) -> str:
    return await SPREAD["a"](label)


@step
async def by_spread(label: str) -> str:
    return await SPREAD["b"](label)  # expect: STP001


@step
async def near_miss_in_place_merge(label: str) -> str:
    table = {"a": fetch}
    table |= {"a": plain}
    return await table["a"](label)


@step
async def near_miss_update_pairs(label: str) -> str:
    table = {"a": fetch}
    table.update([("a", plain)])
    return await table["a"](label)



@step
async def by_comprehension(label: str) -> str:
    table = {key: value for key, value in [("a", plain), ("b", fetch)]}
    return await table["b"](label)  # expect: STP001


@step
async def by_nested_negative(label: str) -> str:
    return await NESTED["x"][-1][-1](label)  # expect: STP001


@step
async def near_miss_nested(label: str) -> str:
    return await NESTED["x"][1][0](label)


@step
async def by_slice_then_index(label: str) -> str:
    return await GRID[1:][0][-1](label)  # expect: STP001


@step
async def near_miss_slice_then_index(label: str) -> str:
    return await GRID[:1][0][1](label)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await relay(fetch, mode), await LOUD_DEEP.run(mode), await LOUD_BOUND(mode),
        await by_forwarding(mode), await near_miss_forwarding(mode), await by_helper_that_forwards(mode),
        await near_miss_instance(mode), await by_instance(mode), await by_factory_instance(mode),
        await near_miss_factory_instance(mode), await near_miss_factory_of_factory(mode),
        await by_instance_made_in_init(mode), await near_miss_instance_made_in_init(mode),
        await near_miss_partial_factory(mode),
        await by_true_is_one(mode), await near_miss_false_is_zero(mode),
        await near_miss_float_key(mode), await by_float_key(mode), await near_miss_none_key(mode),
        await near_miss_bytes_key(mode), await by_tuple_key(mode), await by_bare_tuple_key(mode),
        await by_dict_of_pairs(mode), await by_dict_of_zip(mode),
        await by_fromkeys(mode), await near_miss_merge(mode), await near_miss_spread(mode), await by_spread(mode),
        await near_miss_in_place_merge(mode), await near_miss_update_pairs(mode),
        await by_comprehension(mode), await by_nested_negative(mode), await near_miss_nested(mode),
        await by_slice_then_index(mode), await near_miss_slice_then_index(mode),
    ]
    return "|".join(parts)
