#!/usr/bin/env python3
"""Random Connect Four games with OpenSpiel, driven by a Python loop.

The other side of `tabula bench tests/rulesets/connect-four --compare-with
"python3 bench/openspiel_connect_four.py"`: plays games between two random
players (a uniform choice among the legal moves) on one thread for a number
of seconds and prints

    games/s: X  decisions/s: Y  decisions/game: Z

the line `tabula bench --compare-with` reads. The duration is the first
argument, else the environment variable TABULA_BENCH_SECONDS (which
`tabula bench --compare-with` sets to its own --seconds), else 10.

Needs the `open-spiel` package (`pip install open-spiel`), best in a
throwaway virtual environment: it is not a dependency of tabula. See
docs/BENCH.md.
"""

import os
import random
import sys
import time

try:
    import pyspiel
except ImportError:
    sys.exit(
        "error: the Python module `pyspiel` is missing: install open-spiel "
        "(python3 -m venv /tmp/osvenv && /tmp/osvenv/bin/pip install open-spiel) "
        "and run this script with that venv's python3"
    )


def seconds_asked():
    text = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TABULA_BENCH_SECONDS", "10")
    try:
        return float(text)
    except ValueError:
        sys.exit(f"error: the duration must be a number of seconds, not `{text}`")


def main():
    seconds = seconds_asked()
    game = pyspiel.load_game("connect_four")
    rng = random.Random(0)
    games = decisions = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        games += 1
        if time.perf_counter() - start >= seconds:
            break
    elapsed = time.perf_counter() - start
    try:
        from importlib.metadata import version

        which = f"open-spiel {version('open-spiel')}"
    except Exception:
        which = "open-spiel"
    print(f"{which}, connect_four: random play from a Python loop, one thread, {seconds}s")
    print(
        f"games/s: {games / elapsed:.3f}  decisions/s: {decisions / elapsed:.0f}  "
        f"decisions/game: {decisions / games:.1f}"
    )


if __name__ == "__main__":
    main()
