"""The ``qwirkle`` command: parse, one library call, render. No game logic;
it may import every other folder and none imports it."""
