"""The interpreters: C scalar semantics, a handler for every production, loud failures."""

from __future__ import annotations

import math

import pytest

from nanopass.languages import BY_NAME, EMISSION
from nanopass.languages.terms import DType, ScopeMode
from nanopass.tools.cvalues import CError, arith, cast_u64, common_type, convert, f32, from_u64, to_u64
from nanopass.tools.interpret_emission import EmissionError, EmissionInterpreter
from nanopass.tools.interpret_ssa import InterpretError, Interpreter
from nanopass.tools.sim_runtime import Inputs

# -- C scalar semantics --------------------------------------------------------------------------


def test_integer_division_and_remainder_truncate_toward_zero():
    assert arith("/", -7, 2, "int64_t") == -3 and arith("%", -7, 2, "int64_t") == -1
    assert arith("/", 7, -2, "int") == -3 and arith("%", 7, -2, "int") == 1
    with pytest.raises(CError, match="division by zero"):
        arith("/", 1, 0, "int")


def test_integers_wrap_to_their_type():
    assert convert(2**31, "int32_t") == -(2**31) and convert(-1, "uint32_t") == 2**32 - 1
    assert arith("*", 2**31 - 1, 2, "int") == -2 and convert(300, "uint8_t") == 44


def test_float32_rounds_after_every_operation():
    third = arith("/", f32(1.0), f32(3.0), "float")
    assert third == f32(1 / 3) and third != 1 / 3
    assert convert(1e39, "float") == math.inf


def test_scalar_slots_are_bit_copies_or_value_conversions():
    assert to_u64(-1, "int32_t") == 0xFFFFFFFF  # zero-extended bytes (runtime-api.md section 2)
    assert cast_u64(-1, "int32_t") == 2**64 - 1  # (uint64_t)x converts the value
    assert to_u64(f32(1.0), "float") == 0x3F800000 and from_u64(0x3F800000, "float") == 1.0
    assert from_u64(0xFFFFFFFF, "int32_t") == -1


def test_usual_arithmetic_conversions():
    assert common_type("int32_t", "int64_t") == "int64_t" and common_type("uint32_t", "int64_t") == "int64_t"
    assert common_type("uint64_t", "int64_t") == "uint64_t" and common_type("int8_t", "bool") == "int"
    assert common_type("float", "int64_t") == "float" and common_type("float", "double") == "double"


# -- coverage of the languages ------------------------------------------------------------------


def _productions(language, nonterminals):
    return {p.name for nt in nonterminals if nt in language.nonterminals for p in language.nonterminals[nt].productions}


REFERENCE_LANGUAGES = [
    name for name in BY_NAME if name not in ("surface", "ssa", "emission")
]


@pytest.mark.parametrize("name", REFERENCE_LANGUAGES)
def test_the_reference_interpreter_has_a_rule_for_every_statement_and_right_hand_side(name):
    language = BY_NAME[name]
    statements = _productions(language, ["Stmt"])
    missing = sorted(p for p in statements if not hasattr(Interpreter, "exec_" + p))
    rhs = _productions(language, ["Rhs"]) - _productions(language, ["Expr"])
    missing += sorted(p for p in rhs if not hasattr(Interpreter, "rhs_" + p))
    deps = _productions(language, ["Dep", "DepEdge"])
    missing += sorted(deps - {"DepVar", "DepItem", "DerivedDep", "CellDep", "DepEdge"})
    assert missing == [], f"{name}: the reference interpreter has no rule for {missing}"


def test_the_emission_interpreter_has_a_rule_for_every_statement():
    statements = _productions(EMISSION, ["EStmt"])
    missing = sorted(p for p in statements if not hasattr(EmissionInterpreter, "exec_" + p))
    launches = _productions(EMISSION, ["Launch"]) - {"AicLaunch", "AivLaunch", "MixedLaunch", "DummyLaunch"}
    tids = _productions(EMISSION, ["TidValue"]) - {"TidOfOuts", "TidInvalid", "TidCopy", "TidSlot"}
    exprs = _productions(EMISSION, ["Expr"]) - {"Var", "Int", "Float", "Bool", "Bin", "Cmp", "Un"}
    assert missing + sorted(launches | tids | exprs) == []


class _Mystery:
    _production = "Mystery"
    span = None


def test_an_unknown_statement_fails_loudly_in_both_interpreters(example):
    from nanopass.api import run_pipeline

    stages = run_pipeline(example("basic"))
    with pytest.raises(InterpretError, match="no rule for Mystery"):
        Interpreter(stages[3].tree, Inputs()).block([_Mystery()])
    with pytest.raises(EmissionError, match="no rule for Mystery"):
        EmissionInterpreter(stages[-1].tree, Inputs()).block([_Mystery()])


def test_reading_an_uninitialised_task_id_is_an_emission_error():
    E = EMISSION
    unit = E.Unit("f", 0, [], [], [], [E.DeclTidArray("a", 2), E.DeclTid("t", E.TidSlot("a", E.Int(1, _index())))])
    with pytest.raises(EmissionError, match="before it is initialised"):
        EmissionInterpreter(unit, Inputs()).run()


def test_a_name_no_enclosing_block_declares_is_an_emission_error():
    E = EMISSION
    inner = E.ScopeBlock(_auto(), [E.DeclScalar("x", _index(), E.Int(1, _index()))])
    unit = E.Unit("f", 0, [], [], [], [inner, E.DeclScalar("y", _index(), E.Var("x"))])
    with pytest.raises(EmissionError, match="'x' is not declared in any enclosing C\\+\\+ block"):
        EmissionInterpreter(unit, Inputs()).run()


def _index():
    return DType.INDEX


def _auto():
    return ScopeMode.auto
