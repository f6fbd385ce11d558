"""How the game looks: the palette of colours and shapes, the columns and rows a board
is drawn over, and boards as SVG text. No matplotlib and no file: the pictures
(:mod:`qwirkle_tools.outputs`) and the notebooks' pictures of a game build on it."""
