"""The exact enumeration of a coup, the one source of card probabilities (docs/design.md, "Data flow").

* :mod:`.tree` — every path a coup can follow under a tableau, with exact integer weights on any shoe;
* :mod:`.weights` — the weight of a multiset of card values, in plain Python;
* :mod:`.outcome` — the exact law of a coup by its outcome, for a fixed tableau.
"""
