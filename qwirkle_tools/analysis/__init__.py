"""A recorded game checked, re-scored and analysed: the validator's pipeline,
score tables and corrected records, best moves and points lost. Builds on
:mod:`~qwirkle_tools.core`, :mod:`~qwirkle_tools.formats` and :mod:`~qwirkle_tools.play`."""
