"""A Python player whose module ends the process as it is loaded (the referee must say so, not end in silence)."""

import sys

sys.exit(0)


def play(view):  # never reached
    return "pass"
