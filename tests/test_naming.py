"""NameTable hands out the names a fresh search from suffix 0 would (issue 9: the search resumes)."""

from nanopass.passes.naming import GENERATED, RESERVED, NameTable


def naive_reserve(taken: set, base: str, generated: bool = False, derived: tuple = ()) -> str:
    def fits(name):
        return (
            name not in taken
            and name not in RESERVED
            and (generated or not GENERATED.match(name))
            and all(name + d not in taken and name + d not in RESERVED for d in derived)
        )

    k, candidate = 0, base
    while not fits(candidate):
        k += 1
        candidate = f"{base}_{k}"
    taken.add(candidate)
    taken.update(candidate + d for d in derived)
    return candidate


def test_reserve_matches_a_search_from_the_start():
    requests = [
        ("slot", False, ()),
        ("slot", False, ()),
        ("x", False, ("_ci",)),
        ("x", False, ()),
        ("x", False, ("_ci",)),
        ("slot", True, ()),
        ("params_t0", True, ()),
        ("int", False, ()),
        ("x_ci", False, ()),
        ("x", False, ("_ci",)),
    ] + [("slot", False, ())] * 5 + [("acc_last", False, ())] * 5
    requests += [("y", False, ("_ci",)), ("y", False, ())]  # y_ci is taken: the first gets y_1, the second y
    table, taken = NameTable(["x_2", "slot_3", "y_ci"]), {"x_2", "slot_3", "y_ci"}
    for base, generated, derived in requests:
        got = table.reserve(base, generated=generated, derived=derived)
        assert got == naive_reserve(taken, base, generated, derived), (base, generated, derived)
    table.claim("acc_last_5")
    taken.add("acc_last_5")
    assert table.reserve("acc_last") == naive_reserve(taken, "acc_last")
