"""``nanopass check FILE``: compile once, then check the program's task dependencies on one run per
set of values (``nanopass.tools.check_values`` chooses them where ``--set`` does not pin them).

Exit 0 when every read/write conflict of every run is ordered by the runtime and every read
observes the write it observes in the program as written; 1 on a hazard, a value mismatch or
when the runtime would stop the program (a fatal error). ``--json`` prints one JSON object on
stdout instead of lines: ``func``, ``chosen`` (the values chosen per name, or null),
``exhaustive``, ``runs`` (each with ``values``, ``tasks``, ``agree``, ``hazards``, ``waived``,
``warnings``, ``mismatches``, ``fatal``, ``skipped``), ``hazards`` (the total), ``mismatches`` (the total),
``compile_warnings`` (each with ``pass``, ``message``, ``location``, ``help`` and ``notes``) and ``exit``.
"""

from __future__ import annotations

import json

from rich.console import Console

from .errors import InternalError, UserError


def cmd_check(args, out: Console, err: Console) -> int:
    from nanopass.tools.check import InterpretedStages, check_stages, check_values, program_inputs, stage_report
    from nanopass.tools.check_values import as_set_text, choose_values

    from .api import front_end_warnings_of, inline_copies_of, result_from_stages, run_pipeline, surface_of
    from .cli import EXIT_OK, EXIT_USER, _dump_writer, _for_program, _load, _options, first_function
    from .run_output import print_warnings
    from .dumps import write_atomic
    from .loader import pick_program
    from .pipeline import PipelineError
    from .printed_hints import HintChecker
    from .progress import fan_out
    from .stage_names import pipeline_passes

    program = pick_program(_load(args), args.program, args.file)
    first_function(args, program, err, "checked")
    surface = surface_of(program, args.func)
    pinned = dict(args.values)
    check_values(surface, pinned)
    choice = choose_values(surface, pinned)
    runs = [{**pinned, **as_set_text(run)} for run in choice.runs]
    first = program_inputs(surface, runs[0])
    args.values = list(runs[0].items())  # the dumps' instance graphs and hazards: the first run's
    # one interpreter run per stage serves hazards.txt, the report and the first run's check
    interpreted = InterpretedStages(first) if args.dump_all else None
    passes = _for_program(pipeline_passes(), program, args.func)
    dumps = _dump_writer(args, program, passes, surface, interpreted=interpreted) if args.dump_all else None
    try:
        stages = run_pipeline(surface, args.func, options=_options(args), passes=passes,
                              observer=fan_out([HintChecker.of(program, args.func), dumps]),
                              front_end_warnings=front_end_warnings_of(program, args.func),
                              inline_copies=inline_copies_of(program, args.func))
    except PipelineError as failure:
        if dumps:
            dumps.finish()
        raise failure.error from None
    if not args.json:
        args.quiet = False
        print_warnings(stages, args, err)
    if dumps:
        dumps.write_code(len(stages), result_from_stages(stages).code)
        # before ``finish``: the worker processes it forks inherit the runs made here
        dumps.write("hazards.txt", stage_report(stages, first, interpreted))
        dumps.finish()
    ways = ["reference", "emission"] + (["compiled C++"] if args.gxx else [])
    func = stages[-1].tree.func
    reports = []
    for number, values in enumerate(runs):
        report = {"values": {name: values[name] for name in sorted(values)}, "tasks": 0, "agree": ways,
                  "hazards": [], "waived": [], "warnings": [], "mismatches": [], "fatal": None,
                  "skipped": None}
        reports.append(report)
        try:
            known = interpreted.known(stages) if interpreted is not None and number == 0 else None
            result = check_stages(stages, program_inputs(surface, values), gxx=args.gxx, options=_options(args),
                                  known=known)
        except UserError as error:
            if choice.values:  # values the checker chose may not suit the program: said, not failed
                report["skipped"] = str(error)
                continue
            raise
        except InternalError as error:
            if choice.values:
                error.message += f" (with {_spelled(values)})"
            raise
        if args.trace and len(reports) == 1:
            try:
                write_atomic(args.trace, result.emission.to_json() + "\n")
            except OSError as error:
                raise UserError(f"cannot write {args.trace}: {error.strerror}") from None
        report["tasks"] = len(result.reference.tasks())
        report["fatal"] = result.fatal
        for line in result.lines():
            kind, _, text = line.partition(": ")
            if kind in ("hazard", "waived", "warning"):
                report[kind + "s" if kind != "waived" else kind].append(text)
        report["mismatches"] = [str(m) for m in result.mismatches]
    total = sum(len(r["hazards"]) for r in reports)
    mismatches = sum(len(r["mismatches"]) for r in reports)
    code = EXIT_USER if total or mismatches or any(r["fatal"] for r in reports) else EXIT_OK
    if args.json:
        document = {
            "func": func,
            "chosen": choice.values or None,
            "exhaustive": choice.exhaustive,
            "runs": reports,
            "hazards": total,
            "mismatches": mismatches,
            "compile_warnings": [
                {"pass": w.pass_name, "message": w.message, "location": str(w.span) if w.span else None,
                 "help": w.hint, "notes": list(w.notes)}
                for s in stages for w in s.warnings
            ],
            "exit": code,
        }
        out.file.write(json.dumps(document, sort_keys=False) + "\n")
        return code
    if choice.values:
        out.print(f"{func}: {choice.describe()}", markup=False)
    for report in reports:
        head = f"{func} with {_spelled(report['values'])}" if choice.values else func
        if report["skipped"]:
            out.print(f"{head}: not run: {report['skipped']}", markup=False)
            continue
        count = report["tasks"]
        out.print(f"{head}: {count} task{'s' if count != 1 else ''}; the {_ways(ways)} traces agree", markup=False)
        if report["fatal"]:
            out.print(f"fatal: the runtime stops the program: {report['fatal']}", markup=False)
        for text in report["hazards"]:
            out.print(f"hazard: {text}", markup=False)
        for text in report["waived"] if args.verbose else ():
            out.print(f"waived: {text}", markup=False)
        for text in report["warnings"]:
            out.print(f"warning: {text}", markup=False)
        for text in report["mismatches"]:
            out.print(f"value mismatch: {text}", markup=False)
        if report["waived"] and not args.verbose:
            out.print(f"{len(report['waived'])} unordered pair(s) waived as declared independent (-v lists them)",
                      markup=False)
    runs_text = f" in {len(reports)} runs" if len(reports) > 1 else ""
    out.print(f"{total} hazard{'s' if total != 1 else ''}{runs_text}", markup=False)
    if mismatches:
        out.print(f"{mismatches} value mismatch{'es' if mismatches != 1 else ''} with the program as written", markup=False)
    return code


def _ways(ways: list[str]) -> str:
    return ", ".join(ways[:-1]) + " and " + ways[-1]


def _spelled(values: dict[str, str]) -> str:
    return " ".join(f"{name}={value}" for name, value in sorted(values.items()))
