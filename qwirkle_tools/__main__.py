"""``python -m qwirkle_tools``: the same as the ``qwirkle`` command."""

from .launch import main

main()
