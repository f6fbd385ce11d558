"""What a person reads: score charts, board pictures, the browser viewer, the
game report, and records written in each form. Builds on every folder up to
:mod:`~qwirkle_tools.analysis`."""
