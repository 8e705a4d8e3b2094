"""nanopass: a nanopass compiler from a Python orchestration DSL to PTO2 runtime C++.

The framework (languages, passes, the pipeline driver, errors) lives in this package's modules
``language``, ``text``, ``rewrite``, ``pipeline`` and ``errors``; the compiler's languages,
passes and printers are ``nanopass.languages``, ``nanopass.passes`` and ``nanopass.printer``.
``generate_orchestration`` is the library entry point; ``compile_text`` takes the existing
compiler's printed IR (``printed_ir``).
"""

from nanopass.errors import InternalError, NanopassError, Span, UserError

__version__ = "0.1.0"


def __getattr__(name: str):
    # The compiler entry points load the whole compiler; import them on first use only, so that
    # the framework modules stay usable on their own.
    if name in ("generate_orchestration", "OrchestrationResult", "run_pipeline"):
        from nanopass import api

        return getattr(api, name)
    if name == "compile_text":
        from nanopass import printed_ir

        return printed_ir.compile_text
    raise AttributeError(f"module 'nanopass' has no attribute {name!r}")


__all__ = ["InternalError", "NanopassError", "OrchestrationResult", "Span", "UserError", "compile_text",
           "generate_orchestration"]
