"""``python -m qwirkle_tools``: the same as the ``qwirkle`` command."""

from .cli import main

main()
