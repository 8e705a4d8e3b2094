"""A host read of the rows an assemble fills, between the source's create and the assemble
(tools/attack/found/59): placed, the source shares those rows, so the read would see the source
there before the assemble. A read whose value nothing uses observes nothing: the placement is
made; a read whose value is written to ``sink`` is seen, and the placement is refused."""

from nanopass.tools.attack import found, program as P, runner

PROGRAM = (P.Create("t7", "B"), None, P.Assemble("b", "t7", 0))


def checked(live: bool) -> runner.Report:
    read = P.HostRead("v8", "b", (0, 1), 2, live=live)
    return runner.check(P.Program((), (PROGRAM[0], read, PROGRAM[2])))


def test_a_dead_host_read_of_the_rows_is_placed():
    rep = checked(live=False)
    assert rep.invalid is None and rep.refusal is None, rep.refusal
    assert rep.runs > 0 and rep.classes() == set(), runner.describe(rep)


def test_a_live_host_read_of_the_rows_is_refused():
    rep = checked(live=True)
    assert rep.refusal is not None and "the host (line" in rep.refusal and "reads the rows of 'b'" in rep.refusal
    assert rep.classes() == set(), runner.describe(rep)  # (a right refusal: no correct compilation)


def test_found_59_is_among_the_fixed():
    name = "59-dead-host-read-of-the-rows-an-assemble-fills-refused"
    assert name in found.FOUND and name not in found.OPEN
