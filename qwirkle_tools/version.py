"""The toolkit's version, at the bottom of the layers so that any module may name it."""

__version__ = "0.1.0"
