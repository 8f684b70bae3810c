"""``make eval``: the assistant's understanding, measured on a corpus of our own (``corpus/``)."""
