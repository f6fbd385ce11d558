"""Records in and out: JSON text, the schema, the record format, the notation,
score sheets, and reading files, folders, corpora and URLs. Builds on
:mod:`qwirkle_tools.core` only."""
