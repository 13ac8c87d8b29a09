"""``agent-eval label``: label a run's cells in the browser, served from this machine.

::

    agent-eval label out/run-2                               # as $USER; opens the page
    agent-eval label out/run-2 --annotator ana --limit 20 --evaluator intent --no-open

One cell (a row and one evaluator) at a time with its conversation; the judge's verdict is shown
after the answer. Answers go to ``labels.jsonl`` in the run folder as they are given
(:mod:`agent_evaluators.calibration.labels`); the order of the cells is
:mod:`agent_evaluators.calibration.label_queue`'s. Ctrl-C stops the server.
"""

import argparse
import getpass
import os
import sys
import webbrowser
from typing import Optional, TextIO

from ..errors import AgentEvalError
from .messages import print_error


def _default_annotator() -> Optional[str]:
    name = os.environ.get("USER") or os.environ.get("USERNAME")
    if name:
        return name
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name in the environment nor the password database (a bare container)
        return None


def _left_out_text(left_out: dict) -> str:
    words = {"already_labelled": "labelled by you before", "error": "errored", "not_applicable": "not applicable",
             "not_run": "not run", "no_verdict": "without a verdict"}
    parts = [f"{n} {words.get(k, k)}" for k, n in sorted(left_out.items()) if n]
    return f" (left out: {', '.join(parts)})" if parts else ""


def _open_browser(url: str) -> str:
    """Open ``url`` in the desktop's browser; what the terminal should say when none was opened.

    On Linux without a display, :mod:`webbrowser` would fall back to a text browser (lynx, w3m) that
    takes over this terminal, where the server's Ctrl-C belongs: there the address is only printed."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "No display here: open the address in a browser (ssh -L forwards the port from a remote machine)."
    try:
        if webbrowser.open(url):
            return ""
    except webbrowser.Error:
        pass
    return "Could not open a browser: open the address yourself."


def label_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..report.label_server import LabelServer
    from ..report.labelling import LabelSession

    annotator = args.annotator or _default_annotator()
    if args.limit is not None and args.limit < 1:
        return print_error(err, f"--limit is the most cells to label, at least 1, not {args.limit}")
    try:
        session = LabelSession(args.run_dir, annotator or "", limit=args.limit, evaluators=args.evaluator)
    except AgentEvalError as exc:
        return print_error(err, exc)
    strata = ", ".join(f"{n} judged {k}" for k, n in sorted(session.queue.strata.items()))
    total = len(session.queue.cells)
    print(f"Labelling {session.run.path} as {session.annotator}: {total} cell(s) to label"
          f"{f' ({strata})' if strata else ''}{_left_out_text(session.queue.left_out)}.", file=out)
    if not total:
        print("Nothing left to label.", file=out)
        return 0
    try:
        server = LabelServer(session, port=args.port)
    except OSError as exc:
        return print_error(err, f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}; "
                                "pick another --port (0 lets the system choose)")
    try:  # a Ctrl-C at any moment from here ends the session cleanly
        print(f"Open {server.url}  (keys: p pass, f fail, s skip, u undo, r reason; Ctrl-C stops)", file=out,
              flush=True)
        note = "" if args.no_open else _open_browser(server.url)
        if note:
            print(note, file=out, flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    state = session.state()
    print(f"\nStopped: {state['done']} / {state['total']} labelled in this session; labels are in "
          f"{session.run.path / 'labels.jsonl'}.", file=out)
    return 0


def add_label_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("label", help="label a run's rows in the browser (pass / fail), to check the judge",
                       description="Serve a labelling page for a finished run on 127.0.0.1: one cell at a time, "
                                   "the judge's verdict shown after you answer; answers go to labels.jsonl in the "
                                   "run folder.")
    p.add_argument("run_dir", metavar="RUN_FOLDER", help="results folder with rows.jsonl and summary.json")
    p.add_argument("--annotator", default=None, metavar="NAME", help="your name on the labels (default: $USER)")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="label at most N cells in this session")
    p.add_argument("--evaluator", nargs="+", default=None, metavar="ALIAS",
                   help="label only these evaluators of the run (their aliases; default: all)")
    p.add_argument("--port", type=int, default=0, metavar="P", help="port on 127.0.0.1 (default: a free one)")
    p.add_argument("--no-open", action="store_true", help="print the URL only; do not open a browser")
    p.set_defaults(func=label_command)
