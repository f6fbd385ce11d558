"""Many games at once: rows and statistics, the process pool, pandas and
Parquet tables, the Dask cluster. Builds on :mod:`~qwirkle_tools.core`,
:mod:`~qwirkle_tools.formats`, :mod:`~qwirkle_tools.play` and
:mod:`~qwirkle_tools.analysis`."""
