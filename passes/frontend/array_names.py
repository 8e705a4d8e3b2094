"""Names of one array (decision D18 in docs/decisions.md): a read of an array name after a slot
write through another name of the same array is a user error.

In Python, ``old = tids`` makes two names of one list, and the C++ keeps one storage for the names
of an array; the reference interpreter and the dependency passes read each SSA version of an
array as its own value. The two readings differ exactly where a name is read after a write
through another name of its array, so the front end refuses that read, at the read.

Names come to share an array by a plain assignment (``old = tids``), a loop carry and its init
value (``init_values=(tids,)``), and a loop result and the value yielded to it. The front end reads
a function once, in order: ``ArrayNames`` follows which visible bindings share an array and which
may have been written through another name (``stale``) along that order; an ``if`` joins the state
of its branches (a relation or a write on either path holds after it), a loop joins the state
before it with the state at the end of its body (it may not run). What the next iteration of a
loop would see, the single reading does not: ``end_loop`` refuses what could differ there.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from nanopass.errors import UserError

_ARRAY = "ArrayType"


class Write(NamedTuple):
    """A slot write that makes the other names of its array stale: through ``name`` at ``line``;
    ``updated``: the version it updated where the write made the array's next version under a new
    name (the printed IR's ``name = pl.array.update_element(updated, i, v)``), else None."""

    name: str
    line: int
    updated: str | None = None

    def what(self) -> str:
        if self.updated is None:
            return f"the slot write through '{self.name}' at line {self.line}"
        return f"the update of '{self.updated}' into '{self.name}' at line {self.line}"

    def seen(self, reader: str) -> str:
        """Why ``reader`` would not read the slots it had."""
        if self.updated is None:
            return f"'{reader}' would see the write in Python, whose reading of names the DSL follows"
        return (f"the C++ keeps one storage for an array and its updated versions, so '{reader}' would see the "
                f"update there")


@dataclass
class _Loop:
    """What the body of one open loop did: the first read of each shared binding, the bindings
    written through, the names it made share (the binding given, the one given to, the node), and
    the bindings it binds again on every path before any read of them (``rebound``: whatever the
    previous iteration left them, each iteration reads them only as the body binds them).
    ``branches``: the ``ArrayNames.branches`` of the body's own statements.

    In the order of ``ArrayNames.clock`` (``start``: the clock when the body began): every read
    (``read_spans``: binding, first and last clock, node; a read in an inner loop lasts until that
    loop ends, its next iteration reading again), every write (``write_events``: binding, clock,
    ``Write``), and the clocks where the body binds a name again on every path (``rebinds``)."""

    line: int
    branches: int = 0
    start: int = 0
    rebound: set = field(default_factory=set)
    reads: dict[Any, ast.AST] = field(default_factory=dict)
    writes: dict[Any, Write] = field(default_factory=dict)
    shared: list[tuple[Any, Any, ast.AST]] = field(default_factory=list)
    read_spans: list[list] = field(default_factory=list)
    write_events: list[tuple[Any, int, Write]] = field(default_factory=list)
    rebinds: dict[Any, list[int]] = field(default_factory=dict)

    def write_reaching(self, binding: Any, group: set) -> tuple[Write, ast.AST] | None:
        """A write through another name of ``group`` that a read of ``binding`` in the body may
        see in some iteration, with that read; None if none may.

        A read sees the writes made since ``binding`` was last bound: after a binding again on
        every path earlier in the body, the writes between it and the read's end; else the writes
        of the previous iteration after the body's last binding again and those before the read's
        end; with no binding again in the body, every write (the name holds one array across the
        iterations)."""
        writes = [(clock, why) for written, clock, why in self.write_events if written in group and written is not binding]
        if not writes:
            return None
        rebinds = self.rebinds.get(binding, ())
        for read, first, last, node in self.read_spans:
            if read is not binding:
                continue
            since = [clock for clock in rebinds if clock < first]
            if since:
                write = next((why for clock, why in writes if since[-1] < clock < last), None)
            elif rebinds:
                write = next((why for clock, why in writes if clock > rebinds[-1] or clock < last), None)
            else:
                write = writes[0][1]
            if write is not None:
                return write, node
        return None


class ArrayNames:
    """The bindings of array names that share an array, along the order the front end reads.

    ``shares``: binding -> the other bindings that may name its array (a symmetric relation;
    absent: none). ``stale``: binding -> the ``Write`` through another name of its array that may
    have come since it was bound.
    ``names``: binding -> its name (for messages and to tell whether it is still visible)."""

    def __init__(self, span) -> None:
        self.span = span
        self.shares: dict[Any, frozenset] = {}
        self.stale: dict[Any, Write] = {}
        self.names: dict[Any, str] = {}
        self.loops: list[_Loop] = []
        self.skipping = 0  # branches around the statements being read that no run takes (a constant guard)
        self.clock = 0  # counts the reads, writes and bindings again in the open loops, in reading order
        self.branches = 0  # branches around the statements being read (of an if)

    # -- events ---------------------------------------------------------------------------------

    def share(self, source: Any, source_name: str, receiver: Any, receiver_name: str, node: ast.AST,
              fresh: bool = False) -> None:
        """``receiver`` (just bound) names the array ``source`` names, and every name sharing it;
        ``fresh``: it holds the array's latest slots, whatever was written since ``source`` was bound."""
        if source is receiver or source.type._production != _ARRAY or self.skipping:
            return
        shares = self.shares
        group = shares.get(source, frozenset()) | {source}
        group -= {receiver}
        shares[receiver] = shares.get(receiver, frozenset()) | group
        for other in group:
            shares[other] = shares.get(other, frozenset()) | {receiver}
        self.names[source], self.names[receiver] = source_name, receiver_name
        stale = self.stale.get(source)
        if stale is not None and not fresh:  # (where the share reads the source, not reached: the read refuses it)
            self.stale[receiver] = stale
        for loop in self.loops:
            loop.shared.append((source, receiver, node))

    def forget(self, binding: Any) -> None:
        """``binding``'s name is bound to another array: it shares none and is not stale."""
        if self.skipping:
            return
        if self.loops:
            loop = self.loops[-1]
            if loop.branches == self.branches:
                self.clock += 1
                loop.rebinds.setdefault(binding, []).append(self.clock)
                if binding not in loop.reads:
                    loop.rebound.add(binding)
        shares = self.shares
        others = shares.pop(binding, None)
        if others:
            for other in others:
                rest = shares[other] - {binding}
                if rest:
                    shares[other] = rest
                else:
                    del shares[other]
        self.stale.pop(binding, None)

    def wrote(self, binding: Any, name: str, line: int, updated: str | None = None) -> None:
        """A slot of ``binding``'s array was written through ``name`` (``updated``: the version
        the write made ``name`` from, see ``Write``): every other name of it may now read the write."""
        if self.skipping:
            return
        self.names[binding] = name
        write = Write(name, line, updated)
        for other in self.shares.get(binding, ()):
            self.stale[other] = write
        if self.loops:
            self.clock += 1
            for loop in self.loops:
                loop.writes.setdefault(binding, write)
                loop.write_events.append((binding, self.clock, write))

    def read(self, binding: Any, name: str, node: ast.AST) -> None:
        """A read of ``name`` (``binding``, an array): refused when stale; noted in the open loops."""
        if self.skipping:
            return
        stale = self.stale.get(binding)
        if stale is not None:
            if stale.updated is None:
                after = f"a slot write through '{stale.name}' at line {stale.line}"
            else:
                after = f"the update of '{stale.updated}' into '{stale.name}' at line {stale.line}"
            raise UserError(
                f"'{name}' is read after {after}, and both name one array: {stale.seen(name)}, not the slots it had",
                self.span(node),
                _hint(name, stale),
            )
        self.names[binding] = name
        if self.loops:
            self.clock += 1
            for loop in self.loops:
                loop.reads.setdefault(binding, node)
                loop.read_spans.append([binding, self.clock, self.clock, node])

    # -- paths ----------------------------------------------------------------------------------

    def state(self) -> tuple[dict, dict]:
        return dict(self.shares), dict(self.stale)

    def restore(self, state: tuple[dict, dict]) -> None:
        self.shares, self.stale = dict(state[0]), dict(state[1])

    def join(self, state: tuple[dict, dict]) -> None:
        """Where paths join: a relation or a write on either holds after them."""
        shares, stale = state
        for binding, others in shares.items():
            self.shares[binding] = self.shares.get(binding, frozenset()) | others
        for binding, why in stale.items():
            self.stale.setdefault(binding, why)

    def merge(self, kept: Any, dropped: Any) -> None:
        """An if result: ``kept`` (the then branch's binding) now also stands for ``dropped``
        (the else branch's)."""
        if dropped not in self.shares and dropped not in self.stale:
            return
        others = self.shares.pop(dropped, frozenset()) - {kept}
        if others:
            self.shares[kept] = self.shares.get(kept, frozenset()) | others
            for other in others:
                self.shares[other] = (self.shares[other] - {dropped}) | {kept}
            self.names[kept] = self.names.get(dropped, self.names.get(kept, ""))
        why = self.stale.pop(dropped, None)
        if why is not None:
            self.stale.setdefault(kept, why)

    # -- loops ----------------------------------------------------------------------------------

    def begin_loop(self, line: int) -> tuple[dict, dict]:
        """A loop body is read next (after its init values); returns the state before it."""
        self.loops.append(_Loop(line, self.branches, self.clock))
        return self.state()

    def end_loop(self, before: tuple[dict, dict], visible: dict, carries: list[tuple[Any, Any, ast.AST]]) -> None:
        """The body is read and its frame popped (``visible``: the bindings visible after the
        loop). ``carries``: per array carry, its binding, the binding its yield passes on and the
        yield's value node. The next iteration would read again what the body read: refused are

        - a binding visible after the loop (so the same in the next iteration) read in the body
          and stale at its end, unless the body binds it again before any read: the next
          iteration's read comes after the write;
        - two such bindings made to share in the body while the body writes through one name of
          their array and reads another (not bound again before any read): the next iteration's
          write would reach what the other reads before the body binds it again;
        - a carry whose yield passes on a binding visible after the loop, or one sharing an array
          with such a binding that the carry did not share at the loop's start, while the body
          writes through the carry and reads that binding: the next iteration's carry would be a
          second name of it (not read in the body, the binding is stale after the loop).

        The state after the loop joins the state before it (the body may not run)."""
        loop = self.loops.pop()
        self.clock += 1
        for outer in self.loops:  # (a read in this body may come again up to its end)
            for span in reversed(outer.read_spans):
                if span[1] <= loop.start:
                    break
                span[2] = self.clock
        if self.loops:  # (what this body did, the enclosing body did)
            outer = self.loops[-1]
            for binding, node in loop.reads.items():
                outer.reads.setdefault(binding, node)
            for binding, why in loop.writes.items():
                outer.writes.setdefault(binding, why)
            outer.shared.extend(loop.shared)

        def outside(binding) -> bool:
            return visible.get(self.names.get(binding)) is binding

        for binding, node in loop.reads.items():
            if outside(binding) and binding in self.stale and binding not in before[1] and binding not in loop.rebound:
                write = self.stale[binding]
                name = self.names[binding]
                raise UserError(
                    f"'{name}' is read in the loop at line {loop.line}, whose next iteration reads it after "
                    f"{write.what()}, and both name one array: {write.seen(name)}",
                    self.span(node),
                    _hint(name, write),
                )
        for source, receiver, node in loop.shared:
            if not (outside(source) and outside(receiver) and receiver in self.shares.get(source, ())):
                continue
            group = {source, receiver} | self.shares.get(source, frozenset())
            for read in loop.reads:
                if read not in group:
                    continue
                reaching = loop.write_reaching(read, group)
                if reaching is None:
                    continue
                write, read_node = reaching
                raise UserError(
                    f"'{self.names[receiver]}' and '{self.names[source]}' are made names of one array in the loop at "
                    f"line {loop.line}, which writes a slot through '{write.name}' at line {write.line} and reads "
                    f"'{self.names[read]}' at line {read_node.lineno}: the loop's next iteration would read through "
                    f"'{self.names[read]}' what it writes through '{write.name}'",
                    self.span(node),
                    _hint(self.names[read], write),
                )
        for carry, passed, node in carries:
            group = {passed} | self.shares.get(passed, frozenset())
            foreign = [b for b in group if outside(b) and b not in before[0].get(carry, frozenset())]
            written = {carry} | self.shares.get(carry, frozenset())
            write = next((why for binding, why in loop.writes.items() if binding in written), None)
            if write is None:
                continue
            for binding in foreign:  # (after the loop, the carry's writes may have reached them)
                self.stale.setdefault(binding, write)
            read = [b for b in foreign if b in loop.reads]
            if read:
                name = self.names.get(read[0], "?")
                raise UserError(
                    f"the loop at line {loop.line} yields an array '{name}' names to its carry "
                    f"'{self.names.get(carry, '?')}', through which the loop writes slots: the next iteration would "
                    f"write through the carry what '{name}' reads",
                    self.span(node),
                    _hint(name, write),
                )
        self.join(before)


def _hint(name: str, write: Write) -> str:
    if write.updated is not None:
        return (f"read '{write.name}' for the slots after the update, or keep the slots of '{name}' as they were: read "
                f"them into scalars before the update (slot = {name}[i]), or copy them into a fresh array before it "
                f"(pl.array.create(...), then pl.array.update_element into it for each slot)")
    return (f"to keep the slots of '{name}' as they were, copy them into a fresh array before the write "
            f"(copy = pl.array.create(...), then slot = {name}[i]; copy[i] = slot for each slot), or carry a "
            f"separate array through the loop (init_values=... and pl.yield_)")

