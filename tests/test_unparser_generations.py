"""The texts of many stages (``text.Unparser``, ``text.OneLine``) and the dump's handling of them
(``stage_analysis.analyse_stages``' ``text_sink``): a node the tree before held is laid out once,
the memos hold about one tree's nodes (not every stage's: a program of 16,000 tasks has up to
140 MB of text per stage), and no more than two stages' texts are held at once."""

from __future__ import annotations

from conftest import EXAMPLES, load_program

from nanopass.api import run_pipeline
from nanopass.language import Node, walk
from nanopass.text import OneLine, Unparser, unparse


def _stages(name: str = "manual_phases"):
    return run_pipeline(load_program(EXAMPLES / f"{name}.py"))


def _ids(tree) -> set[int]:
    return {id(n) for n in walk(tree)}


def test_each_stage_prints_as_alone_and_the_memos_hold_only_the_last_trees_nodes():
    stages = _stages()
    unparser = Unparser(labelled=True)
    for stage in stages:
        assert unparser.unparse(stage.tree) == unparse(stage.tree, labelled=True)
        nodes = _ids(stage.tree)
        printer = unparser.printer
        assert printer._older_flat and set(printer._older_flat) <= nodes
        assert {key[0] for key in printer._older_lines} <= nodes
        assert not printer._flat and not printer._lines  # (the generation just begun)


def test_a_tree_the_one_before_held_whole_is_not_laid_out_again(monkeypatch):
    stages = _stages()
    unparser = Unparser(labelled=True)
    unparser.unparse(stages[0].tree)
    laid_out: list[tuple] = []
    emit = type(unparser.printer)._emit_lines

    def counted(printer, node, indent, out, prefix):
        laid_out.append((id(node), indent, prefix))
        return emit(printer, node, indent, out, prefix)

    monkeypatch.setattr(type(unparser.printer), "_emit_lines", counted)
    unparser.unparse(stages[0].tree)  # (a stage whose pass returned its input as it is)
    assert laid_out == []
    unparser.unparse(stages[1].tree)  # (convert_to_ssa rebuilt it: laid out, once per node and place)
    assert laid_out and len(laid_out) == len(set(laid_out))


def test_one_line_texts_are_those_of_a_fresh_one_line_after_generations():
    stages = _stages()
    kept = OneLine(labelled=True)
    for stage in stages:
        statements = [n for n in walk(stage.tree) if isinstance(n, Node) and n._production in ("Let", "Task", "For")]
        for node in statements:
            assert kept.text(node) == OneLine(labelled=True).text(node)
        kept.next_generation()
        assert set(key[0] for key in kept._older) <= _ids(stage.tree)
