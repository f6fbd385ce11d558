"""The game's facts: tiles, the board, lines, the rules, scoring, the move
generator, findings and the package's errors. No input or output: every
other folder builds on this one, and it imports none of them."""
