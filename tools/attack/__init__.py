"""An adversarial tester of nanopass's soundness promise, written from the spec alone.

It shares no code with the project's analysis or test tools: its own program model and
generators (program.py, generate.py, exhaustive.py, rows.py, scopes.py), sequential semantics (semantics.py), recording
runtime (recorder.cpp, record.py), runtime model (rtmodel.py) and oracle (oracle.py).
"""
